/**
 * `provider-compaction`: what the providers' server-side compaction leaves — one summary that
 * replaces everything before a boundary, task included. The boundary is where the provider puts
 * its compaction: at the start of an assistant response (Anthropic `compact_20260112`: the
 * response opens with a `compaction` block and "the API drops all message blocks prior to the
 * compaction block"; OpenAI Responses `context_management` compaction: the output opens with the
 * encrypted `compaction` item, and the items before the latest one may be dropped). So the
 * boundary falls before an assistant message that starts a turn, never between a call and its
 * results; the newest turn is never summarised. Providers without native compaction get the
 * summary as a user message.
 * Sources: platform.claude.com/docs/en/build-with-claude/compaction;
 * developers.openai.com/api/docs/guides/compaction.
 */
import { isPinned } from '../../exchanges.ts';
import type { Message, ProviderId } from '../../types.ts';
import type { EvictionPolicy } from '../types.ts';
import type { EvictionContext } from '../policies.ts';
import { grown } from '../../grownArray.ts';

/** Assistant messages (ours) that start a turn: the previous non-pinned message is not an assistant. */
function turnStarts(messages: readonly Message[]): number[] {
  const out: number[] = [];
  let prev: Message | undefined;
  for (const m of messages) {
    if (isPinned(m)) continue;
    if (m.role === 'assistant' && prev?.role !== 'assistant') out.push(m.index);
    prev = m;
  }
  return out;
}

/**
 * `turnStarts` from the prepared context's typed arrays (no message object read): the non-pinned
 * messages in order, each an assistant when it is the next of `turnAssistants`; an assistant
 * starts a turn when the non-pinned message before it is not one.
 */
function turnStartsOf(nonPinned: Int32Array, turnAssistants: Int32Array): Int32Array {
  const out: number[] = [];
  let a = 0;
  let prevAssistant = false;
  for (let p = 0; p < nonPinned.length; p++) {
    const i = nonPinned[p] as number;
    const assistant = a < turnAssistants.length && turnAssistants[a] === i;
    if (assistant) {
      a++;
      if (!prevAssistant) out.push(i);
    }
    prevAssistant = assistant;
  }
  return Int32Array.from(out);
}

/**
 * What `turnStartsOf` keeps from one request of a chain for the next (`EvictionContext.resume`):
 * the messages it read (the first and the last are checked to be the next request's), how many
 * non-pinned messages and turn-pair assistants it consumed, whether the last was an assistant,
 * and the starts found (a buffer the next request appends to; each request reads a view).
 */
interface TurnStartsResume {
  messages: readonly Message[];
  n: number;
  np: number;
  a: number;
  prevAssistant: boolean;
  starts: Int32Array;
  count: number;
}

const RESUME_KEY = 'provider-compaction:turnStarts';

/**
 * `turnStartsOf(ctx.nonPinned, ctx.turnAssistants)`, resumed along a chain of requests that each
 * extend the one before (`ctx.resume`): only the new messages' entries are read. Equal to the
 * fresh list (evict/chain.property.test.ts: every policy's plan from a chain's contexts).
 */
function resumedTurnStarts(ctx: EvictionContext): Int32Array {
  const resume = ctx.resume;
  if (!resume) return turnStartsOf(ctx.nonPinned, ctx.turnAssistants);
  const ms = ctx.cuts.t.messages;
  const np = ctx.nonPinned;
  const ta = ctx.turnAssistants;
  let st = resume.get(RESUME_KEY) as TurnStartsResume | undefined;
  const m0 = st?.n ?? 0;
  if (
    !st ||
    ms.length < m0 ||
    np.length < st.np ||
    ta.length < st.a ||
    (m0 > 0 && (ms[0] !== st.messages[0] || ms[m0 - 1] !== st.messages[m0 - 1]))
  ) {
    st = {
      messages: ms,
      n: 0,
      np: 0,
      a: 0,
      prevAssistant: false,
      starts: new Int32Array(4),
      count: 0,
    };
    resume.set(RESUME_KEY, st);
  }
  // As turnStartsOf, from the first non-pinned message not read yet.
  st.starts = grown(st.starts, st.count, st.count + (np.length - st.np));
  let { a, prevAssistant, count } = st;
  const starts = st.starts;
  for (let p = st.np; p < np.length; p++) {
    const i = np[p] as number;
    const assistant = a < ta.length && ta[a] === i;
    if (assistant) {
      a++;
      if (!prevAssistant) starts[count++] = i;
    }
    prevAssistant = assistant;
  }
  Object.assign(st, { messages: ms, n: ms.length, np: np.length, a, prevAssistant, count });
  return starts.subarray(0, count);
}

/**
 * The compaction a provider returns, as the message the next request carries: Anthropic a
 * `compaction` block in an assistant message, Responses a `compaction` item (opaque, encrypted),
 * other providers a plain user message.
 * @param tokens the summary's size, stated in its text
 */
export function compactionMessage(provider: ProviderId, tokens: number): Message {
  const text = `[Compaction: summary of the earlier conversation, ${tokens} tokens]`;
  const base = { index: -1, rawIndex: -1, path: 'compaction', raw: undefined } as const;
  if (provider === 'anthropic')
    return {
      ...base,
      role: 'assistant',
      blocks: [{ type: 'other', label: 'compaction', raw: { type: 'compaction', content: text } }],
    };
  if (provider === 'openai-responses')
    return {
      ...base,
      role: 'assistant',
      blocks: [
        {
          type: 'other',
          label: 'compaction',
          raw: { type: 'compaction', encrypted_content: `<opaque: ${tokens} tokens>` },
        },
      ],
    };
  return { ...base, role: 'user', blocks: [{ type: 'text', text }] };
}

export const providerCompactionPolicy: EvictionPolicy = {
  help: "the provider's compaction: one summary replaces everything before an assistant turn, task included",
  options: ['summaryTokens'],
  keepsTask: false,
  summarises: true,
  monotone: false,
  summaryMessage: compactionMessage,
  // Anthropic merges the compaction block into the assistant turn it opens, and its rules read
  // past it (T1/T2); the cut is as valid without it.
  summaryTransparent: (provider) => provider === 'anthropic',
  cuts: (ctx) => {
    const starts = resumedTurnStarts(ctx);
    return { candidates: starts, floor: starts[starts.length - 1] ?? ctx.cuts.n, head: [] };
  },
  units: (messages) => {
    const starts = new Set(turnStarts(messages));
    const units: number[][] = [];
    let cur: number[] = [];
    for (const m of messages) {
      if (isPinned(m)) continue;
      if (starts.has(m.index) && cur.length > 0) {
        units.push(cur);
        cur = [];
      }
      cur.push(m.index);
    }
    if (cur.length > 0) units.push(cur);
    return units;
  },
};
