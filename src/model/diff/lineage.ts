/**
 * Lineage (issue 33): the request a given one continues, in the same conversation — never the
 * one before it in the file just because it is before it (a log or trace interleaves
 * conversations: microsoft/vscode#336092).
 *
 * - Session calls: the previous call of the same thread (Claude Code's sub-agent threads are
 *   conversations of their own), whose context this one extends or compacts.
 * - Other requests: the request whose messages are the longest prefix of this one's (by role
 *   and content), then the one sharing the most tool-call ids; a `previous_response_id` naming
 *   another request's response wins. Null when no request shares anything with it.
 */
import type { Message, Transcript } from '../types.ts';
import { commonSpanPrefix } from '../parse/sessionCalls.ts';
import { sameMessage } from './keys.ts';
import type { RequestListing } from './requests.ts';

/** Why a predecessor was chosen, for the page and the CLI's note. */
export interface Lineage {
  /** The predecessor, 0-based, or null. */
  request: number | null;
  /** `same thread`, `shared prefix of 12 messages`, `3 shared tool ids`, `previous_response_id`. */
  reason: string;
}

function toolIds(t: Transcript): Set<string> {
  const out = new Set<string>();
  for (const m of t.messages)
    for (const b of m.blocks) {
      if (b.type === 'tool_use' && b.id) out.add(b.id);
      if (b.type === 'tool_result' && b.toolUseId) out.add(b.toolUseId);
    }
  return out;
}

function prefixLength(a: readonly Message[], b: readonly Message[]): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && sameMessage(a[i] as Message, b[i] as Message)) i++;
  return i;
}

/** A string field of a request body (`previous_response_id`), or undefined. */
function bodyField(t: Transcript, key: string): string | undefined {
  const raw = t.raw;
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
  const v = (raw as Record<string, unknown>)[key];
  return typeof v === 'string' ? v : undefined;
}

/**
 * The predecessor of request `k` (0-based) in its conversation.
 * @returns the request and the reason; `request: null` when none shares a message, a tool id
 *   or a response id with it. Session calls O(calls); other files O(requests × messages).
 */
export function predecessorOf(listing: RequestListing, k: number): Lineage {
  const s = listing.session;
  if (s) {
    const me = s.calls[k];
    if (!me) return { request: null, reason: 'out of range' };
    for (let m = k - 1; m >= 0; m--) {
      const c = s.calls[m];
      if (c?.thread !== me.thread) continue;
      const shared = commonSpanPrefix(c.spans, me.spans);
      const why = me.compaction
        ? `the call before the ${me.compaction.kind} in the same thread`
        : `the previous call of the same thread (${shared} messages shared)`;
      return { request: m, reason: why };
    }
    return { request: null, reason: 'the first call of its thread' };
  }
  const n = listing.requests.length;
  if (k < 0 || k >= n) return { request: null, reason: 'out of range' };
  const me = listing.transcriptOf(k);
  const previous = bodyField(me, 'previous_response_id');
  let best: { m: number; prefix: number; ids: number } | null = null;
  const myIds = toolIds(me);
  for (let m = 0; m < n; m++) {
    if (m === k) continue;
    const t = listing.transcriptOf(m);
    if (previous !== undefined && bodyField(t, 'id') === previous)
      return { request: m, reason: 'previous_response_id' };
    // A predecessor is no longer than this request (a request continues a shorter one).
    if (t.messages.length > me.messages.length) continue;
    const prefix = prefixLength(t.messages, me.messages);
    let ids = 0;
    for (const id of toolIds(t)) if (myIds.has(id)) ids++;
    if (prefix === 0 && ids === 0) continue;
    const better =
      !best ||
      prefix > best.prefix ||
      (prefix === best.prefix && ids > best.ids) ||
      (prefix === best.prefix && ids === best.ids && Math.abs(k - m) < Math.abs(k - best.m));
    if (better) best = { m, prefix, ids };
  }
  if (!best) return { request: null, reason: 'no request shares a message or tool id with it' };
  return {
    request: best.m,
    reason:
      best.prefix > 0
        ? `shared prefix of ${best.prefix} message${best.prefix === 1 ? '' : 's'}`
        : `${best.ids} shared tool id${best.ids === 1 ? '' : 's'}`,
  };
}
