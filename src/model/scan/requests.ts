/**
 * A file's requests as a fleet scan reads them (issue 40): every request of a document, a session
 * log's calls made once per chain of calls that extend each other (`chainedCall`: a call costs
 * its new messages, not all of them), with what the chain's requests share (`ChainTables`, the
 * window memo, the chain's validation). Pure; rows.ts makes each request's row.
 */
import { chainValidation, type ChainValidator } from '../validate/index.ts';
import type { PolicyId } from '../evict/types.ts';
import type { StepChain } from '../evict/rewrite.ts';
import { listParsedRequests, type RequestInfo } from '../diff/requests.ts';
import { parseDocument } from '../parse/index.ts';
import type { SourceDoc } from '../parse/json.ts';
import type { TokenChain } from '../tokenCache.ts';
import type { Message, Result, Transcript, UsageRecord } from '../types.ts';
import { windowMemo, type WindowMemo } from '../evict/cutTables.ts';
import type { EvictionChain } from '../evict/chain.ts';
import type { ShapesChain } from '../evict/shapes.ts';
import {
  commonSpanPrefix,
  spanLength,
  type SessionCall,
  type SessionCalls,
  type Span,
} from '../parse/sessionCalls.ts';

/** One request of a file as the scan sees it: its transcript and the compactions it has seen. */
export interface ScanRequest {
  transcript: Transcript;
  /**
   * A session log's call: the compactions (not rollbacks) the listing reports before it in its
   * thread, this call's own included. Any other request: the compaction summaries it holds
   * (`meta.compactSummary`).
   */
  compactions: number;
  /**
   * The window validations of its chain (`WindowMemo`): set on a session log's call, shared by
   * the calls of its thread while each extends the one before (its messages the same objects).
   */
  memo?: WindowMemo;
  /**
   * What its chain's requests keep for the next one (`ChainTables`): set with `memo`, the same
   * object for every call of the chain, each call read in order after the one it extends.
   */
  tables?: ChainTables;
  /** True when a tool_use id is used twice in it (pairToolCalls' `duplicate_id`). */
  duplicateIds?: boolean;
  /**
   * The validation of its chain (`chainValidation`): set on a session log's call, shared by the
   * calls of its thread while each extends the one before, so a call's verdict costs its new
   * messages, not all of them.
   */
  validate?: ChainValidator;
  /** The rewriting policies' step validations of its chain, by policy (`StepChain`). */
  steps?: Map<PolicyId, StepChain>;
}

/**
 * The tables a chain's requests resume from the request before (each request of the chain extends
 * it: `chainedCall`): made by the first request that needs each, then extended by the next.
 */
export interface ChainTables {
  /** The token tables (`TokenChain`), for the counter of the scan that made it. */
  tokens?: TokenChain;
  /** The token-independent eviction tables (`EvictionChain`: grouping, cut tables). */
  parts?: EvictionChain;
  /** The messages' shapes the rewriting policies read (`ShapesChain`). */
  shapes?: ShapesChain;
  /** What the policies keep for the next request (`EvictionContext.resume`). */
  resume?: Map<string, unknown>;
}

/**
 * The calls of one thread of a session log while each extends the one before: the last call's
 * spans, its messages (renumbered copies, shared with the next call), where each of the session's
 * messages sits in it, and the chain's window validations.
 */
interface Chain {
  spans: readonly Span[];
  messages: Message[];
  at: Map<number, number>;
  memo: WindowMemo;
  tables: ChainTables;
  /** Every tool_use id of its messages, and whether one came twice (`duplicate_id`). */
  ids: Set<string>;
  duplicateIds: boolean;
  /** The chain's validation, resumed by each call (`chainValidation`). */
  validate: ChainValidator;
  /** Its rewriting policies' step validations, by policy (`StepChain`), made when first asked. */
  steps: Map<PolicyId, StepChain>;
  /**
   * The usage records of its messages, renumbered, in the session's order (`callUsage`), and
   * their positions in the session's `usage`: grown by each call's new messages. Null once a
   * session message came twice in the chain (its records are then renumbered per call).
   */
  usage: { records: UsageRecord[]; positions: number[] } | null;
}

/**
 * A session call's transcript, as `callTranscript` makes it (each message a copy renumbered to
 * its position), sharing the copies of the call before it in its thread when this call extends
 * that one: O(new messages), not O(call). A call that does not extend it (a compaction, a
 * rollback, the first call) starts a new chain, with a new `WindowMemo`.
 * @param prev the chain of the call before it in its thread, if any (its messages stay as they
 *   are; its id set and index map are shared, and grow)
 * @returns the chain this call ends: its messages are the call's
 */
function chainedCall(
  s: SessionCalls,
  call: SessionCall,
  prev: Chain | undefined,
  usageAt: ReadonlyMap<number, readonly number[]>,
): Chain {
  const t = s.transcript;
  const len = spanLength(call.spans);
  const extends_ =
    prev !== undefined &&
    prev.messages.length <= len &&
    commonSpanPrefix(prev.spans, call.spans) === prev.messages.length;
  const chain: Chain = extends_
    ? { ...prev, spans: call.spans, messages: prev.messages.slice() }
    : {
        spans: call.spans,
        messages: [],
        at: new Map(),
        memo: windowMemo(),
        tables: {},
        ids: new Set(),
        duplicateIds: false,
        validate: chainValidation(),
        steps: new Map(),
        usage: { records: [], positions: [] },
      };
  const from = chain.messages.length;
  const usage = chain.usage;
  let sorted = true;
  let k = 0;
  for (const [a, b] of call.spans)
    for (let i = a; i < b; i++, k++) {
      if (k < from) continue;
      const m = t.messages[i] as Message;
      chain.messages.push({ ...m, index: k });
      // A message placed twice renumbers its records to its last place, in every call after.
      if (chain.at.has(i)) chain.usage = null;
      chain.at.set(i, k);
      if (addIds(chain.ids, m)) chain.duplicateIds = true;
      const at = usage === null ? undefined : usageAt.get(i);
      if (at !== undefined && usage !== null)
        for (const p of at) {
          const last = usage.positions[usage.positions.length - 1];
          if (last !== undefined && last > p) sorted = false;
          usage.positions.push(p);
          usage.records.push({ ...(t.usage[p] as UsageRecord), messageIndex: k });
        }
    }
  if (!sorted && chain.usage !== null) chain.usage = sortedUsage(chain.usage);
  return chain;
}

/** Records and positions in the order of the positions (the session's). */
function sortedUsage(u: { records: UsageRecord[]; positions: number[] }): {
  records: UsageRecord[];
  positions: number[];
} {
  const pos = u.positions;
  const order = pos.map((_, i) => i).sort((a, b) => (pos[a] as number) - (pos[b] as number));
  return {
    records: order.map((i) => u.records[i] as UsageRecord),
    positions: order.map((i) => u.positions[i] as number),
  };
}

/** Where each of a session's messages has usage records: message index → their positions. */
function usageIndex(t: Transcript): Map<number, number[]> {
  const at = new Map<number, number[]>();
  t.usage.forEach((u, p) => {
    if (u.messageIndex === undefined) return;
    const list = at.get(u.messageIndex);
    if (list) list.push(p);
    else at.set(u.messageIndex, [p]);
  });
  return at;
}

/**
 * Adds a message's tool_use ids to `seen`. @returns true when one was there already (a second
 * call with an id: pairToolCalls' `duplicate_id`, whatever the role of the message holding it)
 */
export function addIds(seen: Set<string>, m: Message): boolean {
  let dup = false;
  for (const b of m.blocks) {
    if (b.type !== 'tool_use' || b.id === null) continue;
    const before = seen.size;
    if (seen.add(b.id).size === before) dup = true;
  }
  return dup;
}

/**
 * The usage records of a call's messages, renumbered (as `callTranscript` keeps them): the
 * chain's, grown with its messages (the records shared by the calls), or made again when a
 * message came twice.
 */
function callUsage(t: Transcript, chain: Chain): UsageRecord[] {
  if (chain.usage !== null) return chain.usage.records.slice();
  const n = chain.messages.length;
  const out: UsageRecord[] = [];
  for (const u of t.usage) {
    if (u.messageIndex === undefined) continue;
    const i = chain.at.get(u.messageIndex);
    // `at` is the chain's: every message it places is in this call (the calls extend each other).
    if (i !== undefined && i < n) out.push({ ...u, messageIndex: i });
  }
  return out;
}

/**
 * Every request of a document, numbered as `check --requests` lists them (issue 33's
 * `listParsedRequests`): a Claude Code, Codex or Gemini CLI log's model calls, an archive's or
 * container's requests, or the one request of any other file. A session log's calls are its
 * listing's `transcriptOf` (`callTranscript`), made once per chain of calls that extend each
 * other (`chainedCall`): a call costs its new messages, not all of them.
 * @returns the first parse's failure, or each request in the listing's order
 */
export function parseRequests(doc: SourceDoc, name: string): Result<ScanRequest[]> {
  const first = parseDocument(doc, { name });
  if (!first.ok) return first;
  const listing = listParsedRequests(doc, first.value, { name });
  const out: ScanRequest[] = [];
  const seen = new Map<string, number>();
  const session = listing.kind === 'session' ? listing.session : null;
  const chains = new Map<string, Chain>();
  const usageAt = session ? usageIndex(session.transcript) : new Map<number, number[]>();
  for (let k = 0; k < listing.requests.length; k++) {
    const info = listing.requests[k] as RequestInfo;
    const call = session?.calls[k];
    if (session && call) {
      const thread = info.thread ?? 'main';
      const n = (seen.get(thread) ?? 0) + (info.compaction?.kind === 'compaction' ? 1 : 0);
      seen.set(thread, n);
      const chain = chainedCall(session, call, chains.get(call.thread), usageAt);
      chains.set(call.thread, chain);
      const t = session.transcript;
      const transcript: Transcript = {
        ...t,
        messages: chain.messages,
        usage: callUsage(t, chain),
        warnings: [],
      };
      out.push({
        transcript,
        compactions: n,
        memo: chain.memo,
        tables: chain.tables,
        duplicateIds: chain.duplicateIds,
        validate: chain.validate,
        steps: chain.steps,
      });
    } else {
      const transcript = listing.transcriptOf(k);
      let n = 0;
      for (const m of transcript.messages) if (m.meta?.compactSummary) n++;
      out.push({ transcript, compactions: n });
    }
  }
  return { ok: true, value: out };
}
