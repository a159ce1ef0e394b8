/**
 * `ai-sdk-prune`: what the AI SDK's `pruneMessages` does with the settings its docs show
 * (`reasoning: "before-last-message"`, `toolCalls: "before-last-2-messages"`,
 * `emptyMessages: "remove"`), applied when the request is over the budget. It counts the SDK's
 * messages (a user message with tool results is a `tool` message and, for its other parts, a
 * `user` message), removes reasoning from every message but the last, removes tool calls and
 * results outside the last two messages unless their id is in them, and drops emptied messages.
 * Checked against the `ai` package's `pruneMessages` in aiSdkPrune.test.ts, on the same view.
 */
import type { Block, Message } from '../../types.ts';
import type { EvictionContext } from '../policies.ts';
import { blockTokensGone, type RewritePlan, type RewriteStep } from '../rewrite.ts';
import { blockTokensAt, messageShapes, type MessageShapes, SHAPE } from '../shapes.ts';
import type { BlockEdit, EvictionPolicy } from '../types.ts';
import { pruneView, sdkView } from './sdkView.ts';
import { grown } from '../../grownArray.ts';

export { callNames, pruneView, sdkView, type SdkMessage, type SdkPart } from './sdkView.ts';

const {
  KIND_CALL,
  KIND_MASK,
  KIND_REASONING,
  KIND_RESULT,
  ROLE_ASSISTANT,
  ROLE_PINNED,
  ROLE_TOOL,
} = SHAPE;

/**
 * `pruneView(sdkView(ms))` as flags, without the view of the whole list: only our last two
 * messages (which hold the SDK's last two messages) are viewed; every message before them is
 * pruned by the rule for an SDK message outside the last two (reasoning and tool parts whose id
 * is not kept go; an emptied message goes), read from the shared shapes (shapes.ts: roles, block
 * kinds, ids), so no block object before the tail is read. aiSdkPrune.test.ts holds it
 * equal to the library; aiSdkPrune.property.test.ts to the view of the whole list.
 * @returns per block (flat, message i's blocks from `shapes.start[i]`) 1 when it stays, per
 *   message 1 when any SDK message of it stays
 */
function pruneFlags(
  ms: readonly Message[],
  sh: MessageShapes,
): { stays: Uint8Array; present: Uint8Array } {
  const n = ms.length;
  const start = sh.start;
  const stays = new Uint8Array(start[n] as number);
  const present = new Uint8Array(n);
  const tailFrom = Math.max(0, n - 2);
  const tail = tailFlags(ms, sh, tailFrom, stays, present, 0, 0);
  // With fewer than two SDK messages in the tail, pruneView saw the whole list: done.
  if (tail.count < 2) return { stays, present };
  for (let i = 0; i < tailFrom; i++)
    if (prefixFlags(ms, sh, i, tail.keptIds, stays)) present[i] = 1;
  return { stays, present };
}

/**
 * Our last messages (from `tailFrom`) as the SDK's view pruned (`pruneView`): sets the `stays`
 * of their blocks (at `sh.start[i] + j − off`) and the `present` of the messages (at `i − offMsg`).
 * @returns the ids the SDK's last two messages keep, and how many SDK messages the tail makes
 */
function tailFlags(
  ms: readonly Message[],
  sh: MessageShapes,
  tailFrom: number,
  stays: Uint8Array,
  present: Uint8Array,
  off: number,
  offMsg: number,
): { keptIds: Set<string>; count: number } {
  const start = sh.start;
  const tail = sdkView(ms.slice(tailFrom));
  const kept = pruneView(tail);
  const keptIds = new Set<string>();
  for (const s of tail.slice(-2))
    if (s.role === 'assistant' || s.role === 'tool')
      for (const p of s.parts ?? [])
        if (p.type === 'tool-call' || p.type === 'tool-result') keptIds.add(p.id ?? '');
  for (const s of kept) {
    present[s.ours - offMsg] = 1;
    for (const p of s.parts ?? []) stays[(start[p.m] as number) + p.b - off] = 1;
  }
  return { keptIds, count: tail.length };
}

/**
 * The rule for our message `i` before the last two (an SDK message outside the last two):
 * reasoning and tool parts whose id is not in `keptIds` go, and an emptied message goes. Sets the
 * `stays` of its blocks (flat, block b at `b − off`). @returns whether any SDK message of it stays
 */
function prefixFlags(
  ms: readonly Message[],
  sh: MessageShapes,
  i: number,
  keptIds: ReadonlySet<string>,
  stays: Uint8Array,
  off = 0,
): boolean {
  const { role, start, kind, idAt, ids } = sh;
  const r = role[i];
  const from = start[i] as number;
  const to = start[i + 1] as number;
  if (r === ROLE_PINNED) {
    // A system message stays when its text is not empty.
    let present = false;
    for (const b of (ms[i] as Message).blocks)
      if (b.type === 'text' && b.text.length > 0) present = true;
    return present;
  }
  const toolRole = r === ROLE_ASSISTANT || r === ROLE_TOOL;
  let any = false;
  let rest = false;
  for (let b = from; b < to; b++) {
    const k = (kind[b] as number) & KIND_MASK;
    let keep = true;
    if (k === KIND_REASONING) keep = r !== ROLE_ASSISTANT;
    else if (k === KIND_CALL) keep = !toolRole || keptIds.has(ids[idAt[b] as number] as string);
    else if (k === KIND_RESULT) keep = keptIds.has(ids[idAt[b] as number] as string);
    else rest = true;
    stays[b - off] = keep ? 1 : 0;
    if (keep) any = true;
  }
  // A tool message's run of reasoning goes with the tool parts after it when none of them
  // stays (pruneView's tool step); an assistant's reasoning is gone already.
  if (r === ROLE_TOOL && any) any = dropBareReasoning(kind, stays, from, to, off);
  // A user message with no block at all is an empty SDK user message: removed.
  return any || (rest && !toolRole);
}

/**
 * `keepTools`' rule on flags: a run of reasoning blocks in [from, to) loses its `stays` (block b
 * at `b − off`) when no block between it and the next run stays.
 * @returns whether any block of the range still stays
 */
function dropBareReasoning(
  kind: Uint8Array,
  stays: Uint8Array,
  from: number,
  to: number,
  off: number,
): boolean {
  for (let b = from; b < to; b++) {
    if (((kind[b] as number) & KIND_MASK) !== KIND_REASONING) continue;
    let end = b + 1;
    while (end < to && ((kind[end] as number) & KIND_MASK) === KIND_REASONING) end++;
    let f = end;
    let kept = false;
    for (; f < to && ((kind[f] as number) & KIND_MASK) !== KIND_REASONING; f++)
      if (stays[f - off] === 1) kept = true;
    if (f > end && !kept) stays.fill(0, b - off, end - off);
    b = f - 1;
  }
  for (let b = from; b < to; b++) if (stays[b - off] === 1) return true;
  return false;
}

/**
 * The plan: the request unchanged, then pruned. Built from the flags in one walk over typed
 * arrays: the tokens the pruned request frees (removed blocks' counts, dropped messages' counts)
 * and the dropped messages; the edits (one per removed block) are listed on first read, and the
 * pruned request is built from the flags when its verdict is asked (no edit objects in a sweep).
 * Messages are named by position (`Message.index` is the position).
 */
function prunePlan(ctx: EvictionContext): RewritePlan {
  const ms = ctx.cuts.t.messages;
  const sh = messageShapes(ctx.cuts);
  const { role, start } = sh;
  const { stays, present } = pruneFlags(ms, sh);
  const per = ctx.table.perMessage;
  const total = ctx.table.total;
  const n = ms.length;
  const evicted: number[] = [];
  let freed = 0;
  let removed = 0;
  let marker = -1;
  for (let i = 0; i < n; i++) {
    if (present[i] !== 1) {
      evicted.push(i);
      freed += per[i] ?? 0;
      marker = i;
      continue;
    }
    if (role[i] === ROLE_PINNED) continue;
    const from = start[i] as number;
    const to = start[i + 1] as number;
    let gone = 0;
    for (let b = from; b < to; b++) if (stays[b] !== 1) gone++;
    if (gone === 0) continue;
    // Message i is `ms[i]` (indexed): its removed blocks' tokens in one call; else block by block.
    if (sh.indexed) freed += blockTokensGone(ctx, ms[i] as Message, stays, from);
    else
      for (let b = from; b < to; b++)
        if (stays[b] !== 1) freed += blockTokensAt(ctx, sh, i, b - from);
    removed += gone;
    marker = i;
  }
  const unchanged: RewriteStep = { edits: [], evicted: [], tokensKept: total, marker: -1 };
  if (freed <= 0 || (removed === 0 && evicted.length === 0)) return { steps: [unchanged] };
  let edits: BlockEdit[] | null = null;
  const pruned: RewriteStep = {
    get edits() {
      if (!edits) {
        edits = [];
        for (let i = 0; i < n; i++) {
          if (present[i] !== 1 || role[i] === ROLE_PINNED) continue;
          const from = start[i] as number;
          const to = start[i + 1] as number;
          for (let b = from; b < to; b++)
            if (stays[b] !== 1)
              edits.push({
                index: i,
                block: b - from,
                kind: 'removed',
                tokens: blockTokensAt(ctx, sh, i, b - from),
              });
        }
      }
      return edits;
    },
    evicted,
    tokensKept: total - freed,
    marker,
  };
  return {
    steps: [unchanged, pruned],
    messages: () => {
      const out: Message[] = [];
      for (let i = 0; i < n; i++) {
        if (present[i] !== 1) continue;
        const m = ms[i] as Message;
        const from = start[i] as number;
        const to = start[i + 1] as number;
        let all = true;
        for (let b = from; b < to && all; b++) all = stays[b] === 1;
        if (all || role[i] === ROLE_PINNED) {
          out.push(m);
          continue;
        }
        // A loop, not `filter` with a closure: once per pruned message (most of a session log).
        const blocks: Block[] = [];
        for (let b = from; b < to; b++)
          if (stays[b] === 1) blocks.push(m.blocks[b - from] as Block);
        out.push({ ...m, blocks });
      }
      return out;
    },
  };
}

/**
 * What ai-sdk-prune keeps from one request of a chain for the next (`EvictionContext.resume`):
 * each message's verdict under the rule for a message before the last two with no id kept
 * (`prefixFlags` with an empty set) — whether it stays, which of its blocks stay, what it frees —
 * as prefix sums, and which messages hold a tool part of each id (the only ones a kept id
 * changes).
 */
interface PruneResume {
  messages: readonly Message[];
  n: number;
  /** Per message: 1 when it stays; per block (flat): 1 when it stays. */
  present: Uint8Array;
  stays: Uint8Array;
  /** Prefix sums over messages: tokens freed, blocks removed, messages dropped. */
  freed: Float64Array;
  removed: Int32Array;
  dropped: Int32Array;
  /** prevChanged[i] = the last message before i that is dropped or loses a block, or −1. */
  prevChanged: Int32Array;
  /** Messages (ascending, repeats possible) holding a call or result of each id. */
  byId: Map<string, number[]>;
  /** Each message as kept under the empty set (the same object, or a copy with fewer blocks). */
  kept: (Message | null)[];
}

const NO_IDS: ReadonlySet<string> = new Set();

/** What message i frees and removes with its flags (`present`, `stays` at `start[i] − off`). */
function contribution(
  ctx: EvictionContext,
  sh: MessageShapes,
  i: number,
  present: boolean,
  stays: Uint8Array,
  off: number,
): { freed: number; removed: number; dropped: number } {
  if (!present) return { freed: ctx.table.perMessage[i] ?? 0, removed: 0, dropped: 1 };
  if (sh.role[i] === ROLE_PINNED) return { freed: 0, removed: 0, dropped: 0 };
  const from = sh.start[i] as number;
  const to = sh.start[i + 1] as number;
  let freed = 0;
  let removed = 0;
  for (let b = from; b < to; b++)
    if (stays[b - off] !== 1) {
      freed += blockTokensAt(ctx, sh, i, b - from);
      removed++;
    }
  return { freed, removed, dropped: 0 };
}

/** Message i as the pruned request holds it, from its flags (null when it is dropped). */
function keptMessage(
  m: Message,
  sh: MessageShapes,
  i: number,
  present: boolean,
  stays: Uint8Array,
  off: number,
): Message | null {
  if (!present) return null;
  const from = sh.start[i] as number;
  const to = sh.start[i + 1] as number;
  let all = true;
  for (let b = from; b < to && all; b++) all = stays[b - off] === 1;
  return all || sh.role[i] === ROLE_PINNED
    ? m
    : { ...m, blocks: m.blocks.filter((_, j) => stays[from + j - off] === 1) };
}

/** The chain's state extended over the messages it has not seen (`PruneResume`). */
function extendPrune(
  ctx: EvictionContext,
  sh: MessageShapes,
  prev: PruneResume | undefined,
): PruneResume {
  const ms = ctx.cuts.t.messages;
  const n = ms.length;
  let st = prev;
  const m0 = st?.n ?? 0;
  if (!st || n < m0 || (m0 > 0 && (ms[0] !== st.messages[0] || ms[m0 - 1] !== st.messages[m0 - 1])))
    st = {
      messages: ms,
      n: 0,
      present: new Uint8Array(4),
      stays: new Uint8Array(4),
      freed: new Float64Array(5),
      removed: new Int32Array(5),
      dropped: new Int32Array(5),
      prevChanged: new Int32Array(5).fill(-1),
      byId: new Map(),
      kept: [],
    };
  const m = st.n;
  const blocks = sh.start[n] as number;
  st.present = grown(st.present, m, n);
  st.stays = grown(st.stays, sh.start[m] as number, blocks);
  st.freed = grown(st.freed, m + 1, n + 1);
  st.removed = grown(st.removed, m + 1, n + 1);
  st.dropped = grown(st.dropped, m + 1, n + 1);
  st.prevChanged = grown(st.prevChanged, m + 1, n + 1);
  const { role, start, kind, idAt, ids } = sh;
  for (let i = m; i < n; i++) {
    const present = prefixFlags(ms, sh, i, NO_IDS, st.stays);
    st.present[i] = present ? 1 : 0;
    const c = contribution(ctx, sh, i, present, st.stays, 0);
    st.freed[i + 1] = (st.freed[i] as number) + c.freed;
    st.removed[i + 1] = (st.removed[i] as number) + c.removed;
    st.dropped[i + 1] = (st.dropped[i] as number) + c.dropped;
    st.prevChanged[i + 1] = c.dropped > 0 || c.removed > 0 ? i : (st.prevChanged[i] as number);
    st.kept[i] = keptMessage(ms[i] as Message, sh, i, present, st.stays, 0);
    if (role[i] === ROLE_PINNED) continue;
    const toolRole = role[i] === ROLE_ASSISTANT || role[i] === ROLE_TOOL;
    for (let b = start[i] as number; b < (start[i + 1] as number); b++) {
      const k = (kind[b] as number) & KIND_MASK;
      if (k === KIND_RESULT || (k === KIND_CALL && toolRole)) {
        const id = ids[idAt[b] as number] as string;
        const list = st.byId.get(id);
        if (list) list.push(i);
        else st.byId.set(id, [i]);
      }
    }
  }
  st.kept.length = n;
  st.messages = ms;
  st.n = n;
  return st;
}

/**
 * `prunePlan(ctx)` from the chain's state (`PruneResume`): the messages before the last two are
 * read from their verdicts under no kept id, but those holding a tool part of an id the last two
 * keep (made again with the ids); the last two from the SDK's view. O(new messages + the kept
 * ids' messages + the last two), plus a copy of the kept messages' list when the verdict asks
 * for the pruned request. Equal to `prunePlan` (evict/chain.property.test.ts).
 */
function resumedPrunePlan(ctx: EvictionContext, resume: Map<string, unknown>): RewritePlan {
  const ms = ctx.cuts.t.messages;
  const n = ms.length;
  const sh = messageShapes(ctx.cuts);
  const st = extendPrune(ctx, sh, resume.get('ai-sdk-prune') as PruneResume | undefined);
  resume.set('ai-sdk-prune', st);
  const tailFrom = Math.max(0, n - 2);
  const start = sh.start;
  const off = start[tailFrom] as number;
  const tailStays = new Uint8Array((start[n] as number) - off);
  const tailPresent = new Uint8Array(n - tailFrom);
  const tail = tailFlags(ms, sh, tailFrom, tailStays, tailPresent, off, tailFrom);
  // With fewer than two SDK messages in the tail, the tail is the whole list (as pruneFlags).
  if (tail.count < 2 && tailFrom > 0) return prunePlan(ctx);
  // The messages before the tail that a kept id changes, each with its flags under the ids.
  const changed = new Map<number, { present: boolean; stays: Uint8Array; off: number }>();
  for (const id of tail.keptIds)
    for (const i of st.byId.get(id) ?? []) {
      if (i >= tailFrom || changed.has(i)) continue;
      const from = start[i] as number;
      const stays = new Uint8Array((start[i + 1] as number) - from);
      const present = prefixFlags(ms, sh, i, tail.keptIds, stays, from);
      changed.set(i, { present, stays, off: from });
    }
  let freed = st.freed[tailFrom] as number;
  let removed = st.removed[tailFrom] as number;
  let dropped = st.dropped[tailFrom] as number;
  let markerChanged = -1;
  for (const [i, f] of changed) {
    const c = contribution(ctx, sh, i, f.present, f.stays, f.off);
    freed += c.freed - ((st.freed[i + 1] as number) - (st.freed[i] as number));
    removed += c.removed - ((st.removed[i + 1] as number) - (st.removed[i] as number));
    dropped += c.dropped - ((st.dropped[i + 1] as number) - (st.dropped[i] as number));
    if ((c.dropped > 0 || c.removed > 0) && i > markerChanged) markerChanged = i;
  }
  let marker = -1;
  for (let i = tailFrom; i < n; i++) {
    const c = contribution(ctx, sh, i, tailPresent[i - tailFrom] === 1, tailStays, off);
    freed += c.freed;
    removed += c.removed;
    dropped += c.dropped;
    if (c.dropped > 0 || c.removed > 0) marker = i;
  }
  if (marker < 0) {
    let j = st.prevChanged[tailFrom] as number;
    while (j >= 0 && changed.has(j)) j = st.prevChanged[j] as number;
    marker = Math.max(j, markerChanged);
  }
  const total = ctx.table.total;
  const unchanged: RewriteStep = { edits: [], evicted: [], tokensKept: total, marker: -1 };
  if (freed <= 0 || (removed === 0 && dropped === 0)) return { steps: [unchanged] };
  // The lists a result shows are the fresh plan's, made on first read.
  let fresh: RewritePlan | null = null;
  const freshStep = () => (fresh ??= prunePlan(ctx)).steps[1] as RewriteStep;
  const pruned: RewriteStep = {
    get edits() {
      return freshStep().edits;
    },
    get evicted() {
      return freshStep().evicted;
    },
    tokensKept: total - freed,
    marker,
  };
  const present = st.present;
  const kept = st.kept;
  return {
    steps: [unchanged, pruned],
    messages: () => {
      const out: Message[] = [];
      for (let i = 0; i < tailFrom; i++) {
        const c = changed.get(i);
        const k = c
          ? keptMessage(ms[i] as Message, sh, i, c.present, c.stays, c.off)
          : present[i] === 1
            ? (kept[i] as Message)
            : null;
        if (k) out.push(k);
      }
      for (let i = tailFrom; i < n; i++) {
        const k = keptMessage(
          ms[i] as Message,
          sh,
          i,
          tailPresent[i - tailFrom] === 1,
          tailStays,
          off,
        );
        if (k) out.push(k);
      }
      return out;
    },
  };
}

export const aiSdkPrunePolicy: EvictionPolicy = {
  help: 'AI SDK pruneMessages (reasoning before the last message, tool calls before the last 2 messages, empty messages removed)',
  options: [],
  keepsTask: false,
  summarises: false,
  monotone: true,
  cuts: (ctx) => ({ candidates: Int32Array.of(), floor: ctx.cuts.n }),
  units: () => [],
  rewrite: (ctx) =>
    ctx.resume && messageShapes(ctx.cuts).indexed
      ? resumedPrunePlan(ctx, ctx.resume)
      : prunePlan(ctx),
};
