/**
 * The cut engine's tables, prepared once per transcript and provider (`prepareCuts`): one full
 * validation, then O(n) tables that let `checkCut` (simulate.ts) validate a prefix cut from a
 * small window around its boundary. See simulate.ts for the argument.
 */
import { isPinned } from '../exchanges.ts';
import type { Message, ProviderId, Transcript } from '../types.ts';
import { buildTurns, turnHead, turnRole, type Turns } from '../validate/rules/turns.ts';
import { hasDetachedServerResultOf, spansCutsOf } from './spansCuts.ts';
import { messageShapes, SHAPE, type MessageShapes } from './shapes.ts';
import {
  positionOrder,
  sentMessages,
  validateTranscript,
  validatorFor,
  type CutModel,
  type ValidateOptions,
  type Validation,
  type Violation,
} from '../validate/index.ts';

const {
  FLAG_SERVER_RULE,
  KIND_CALL,
  KIND_FILE,
  KIND_MASK,
  KIND_RESULT,
  KIND_TEXT,
  ROLE_PINNED,
  ROLE_TOOL,
  ROLE_USER,
} = SHAPE;

/** The provider's cut model (validate/types.ts), or undefined: its cuts are validated directly. */
export function cutModel(provider: ProviderId): CutModel | undefined {
  return validatorFor(provider)?.cuts;
}

/** True for a provider whose turns merge (its windows end before a turn, not at a stand-in). */
export function merges(provider: ProviderId): boolean {
  return cutModel(provider)?.kind === 'merged-turns';
}

/** What is kept before the cut besides pinned messages. */
export interface CutHead {
  /** Non-pinned messages (ours, ascending) kept although they lie before the cut. */
  messages: readonly Message[];
  /** A synthetic message inserted right before the cut (the `summary` policy), or null. */
  summary: Message | null;
}

export const NO_HEAD: CutHead = { messages: [], summary: null };

/** Precomputed per transcript + provider (+ validation options): O(n) once. */
export interface CutContext {
  t: Transcript;
  provider: ProviderId;
  opts: Omit<ValidateOptions, 'messages'>;
  n: number;
  /** Indices (ours) of pinned messages, ascending. */
  pinned: Int32Array;
  /** nextNonPinned[i] = first non-pinned index ≥ i, or n. Length n + 1. */
  nextNonPinned: Int32Array;
  /** Validation of the whole transcript. */
  full: Validation;
  /** False when the fast path does not apply (provider not proven, `Message.index` ≠ position). */
  fast: boolean;
  /** @internal fast-path tables */
  fx: FastTables | null;
  /**
   * Window validations shared with the other requests of one chain (`WindowMemo`), when the
   * caller keeps one (a fleet scan's session log); absent: every window is validated.
   */
  memo?: WindowMemo;
}

/**
 * Window validations (`validateTranscript` over a cut's head and `[k, r)`) kept across the
 * requests of one chain: requests whose messages each extend the one before (same messages,
 * same positions) and whose other fields (system, tools, settings, format, …) are the same
 * objects. A window lies before its resync point `r`, inside every later request of the chain,
 * so its validation is the same there. Keyed by the cut, `r` and the head
 * (`windowKey`). Whoever keeps one starts a new one when the chain breaks (a compaction).
 */
export interface WindowMemo {
  /**
   * By the head's key (its messages' indices and its summary), then by the cut and `r`
   * (simulate.ts `windowKey`: a small integer below 2^15 messages, exact below 2^26): a number
   * key, not a string built per lookup.
   */
  windows: Map<string, Map<number, WindowEntry>>;
  /** Each head object's window map (heads are made per plan: keyed by what they hold). */
  heads: WeakMap<CutHead, Map<number, WindowEntry>>;
  /** The head looked up last and its map (a plan asks for one head at cut after cut). */
  last: { head: CutHead; windows: Map<number, WindowEntry> } | null;
}

/** A window's validation, and what a cut's first error reads from it (made when first asked). */
export interface WindowEntry {
  validation: Validation;
  rules: WindowRules | null;
}

/**
 * What a cut's first error reads from its window's validation (simulate.ts `computeParts`' `win`
 * and `a7`, for the window's `r` and whether the provider merges turns): the rules of the first
 * schema error and of the first error among its violations before r (not `empty_request`,
 * `thinking_missing`, nor Anthropic's A7), and A7 (the last one).
 */
export interface WindowRules {
  r: number;
  anth: boolean;
  schema: string | null;
  error: string | null;
  a7: Violation | null;
}

/** An empty `WindowMemo`, for a new chain. */
export function windowMemo(): WindowMemo {
  return { windows: new Map(), heads: new WeakMap(), last: null };
}

/** Per-context caches of window validity (the sweep asks the same window many times). */
export interface WindowCache {
  /** Without a head: 0 unknown, 1 the window at cut k has no error, 2 it has one. */
  noHead: Uint8Array;
  /** With a head and nothing between the cut and r: the window is the head alone. */
  headOnly: WeakMap<CutHead, boolean>;
  /** The transcript with `thinking` unknown: a window's end is not the request's end (T1/T2). */
  winT: Transcript;
  /**
   * Per message, what a window starting there is known to give without validating it:
   * 1 = a plain user message (text/media only, no blank text) — alone it raises nothing;
   * 2 = it opens the window with a tool result — an orphan (A1 / O1) or a missing id, a 400;
   * 0 = unknown, validate.
   */
  start: Uint8Array;
  /** emptyBefore[i] = number of messages with no blocks in [0, i). */
  emptyBefore: Int32Array;
  /** Whole verdict of the cut at k without a head: 0 unknown, 1 valid, 2 a 400. */
  cutNoHead: Uint8Array;
}

export interface FastTables {
  /**
   * `merges(provider)`, looked up once (issue 38: the cut checks asked the validator registry
   * for it two or three times per cut, hundreds of thousands of times in a first sweep).
   */
  merged: boolean;
  /** Full violations except Anthropic's A7, in provider order. */
  rest: Violation[];
  /** Message index (ours) holding each violation in `rest`. */
  restAt: Int32Array;
  /** Positions in `rest` of errors (severity 'error'), ascending. */
  errPos: Int32Array;
  /** For duplicate-id violations (position in `rest`): the previous occurrence's message and id. */
  dupPrev: Map<number, { prev: number; id: string }>;
  /** The full validation's A7 violation, if any. */
  a7: Violation | null;
  /** First message ≥ i holding a tool_use/tool_result block, or n. Length n + 2. */
  nextTool: Int32Array;
  /** The same, non-pinned messages only (A7 fires only for those; it names the first of any). */
  nextToolNP: Int32Array;
  /** Resync candidates: syncNext[i] = first candidate ≥ i, or -1. Length n + 2. */
  syncNext: Int32Array;
  /** Provider index (after rendering) of the provider message starting at message i, or -1. */
  renderedAt: Int32Array;
  /** Anthropic with thinking on and a trailing result turn: start of the open loop's floor; else -1. */
  loopFloor: number;
  cache: WindowCache;
  /**
   * schemaNext[e] = the first e' ≥ e whose error `rest[errPos[e']]` is a schema error
   * (`isSchemaError`), or errPos.length; length errPos.length + 1. Made on first use
   * (`schemaErrorsFrom`, simulate.ts): a cut's first schema error without a walk over its errors.
   */
  schemaNext?: Int32Array;
}

/** A tool message, or a user message carrying tool results. */
export function isToolish(m: Message): boolean {
  return m.role === 'tool' || (m.role === 'user' && m.blocks.some((b) => b.type === 'tool_result'));
}

/**
 * True when the message holds a client tool_use or tool_result block (A7's, as
 * validate/rules/request.ts `hasToolBlock`: a server tool's blocks are not).
 */
export function hasToolBlock(m: Message): boolean {
  // A loop, not `some` with a closure: it runs once per message, cold, while a load prepares.
  for (const b of m.blocks)
    if (
      (b.type === 'tool_use' && b.server !== true) ||
      (b.type === 'tool_result' && b.server === undefined)
    )
      return true;
  return false;
}

/**
 * Tool ids that count as "already used" for the duplicate-id rules (A6 / OW1): server calls too
 * where turns merge (Anthropic counts every tool_use id), client calls only otherwise.
 */
export function occurrenceIds(m: Message, provider: ProviderId): string[] {
  if (m.role !== 'assistant') return [];
  const out: string[] = [];
  const merged = merges(provider);
  for (const b of m.blocks) {
    if (b.type !== 'tool_use' || b.id === null) continue;
    if (!merged && b.server === true) continue;
    out.push(b.id);
  }
  return out;
}

/** See `WindowCache.start`. */
export function windowStartKind(m: Message, provider: ProviderId): number {
  return startKind(m, merges(provider));
}

/** `windowStartKind` with `merges(provider)` given (`merged`): a walk over every message asks. */
function startKind(m: Message, merged: boolean): number {
  if (merged) {
    // A loop, not `some` with a closure: once per message, cold, while a load prepares.
    if (m.role === 'user' || m.role === 'tool')
      for (const b of m.blocks) if (b.type === 'tool_result' && b.server === undefined) return 2;
  } else if (isToolish(m)) return 2;
  if (m.role !== 'user' || m.blocks.length === 0) return 0;
  for (const b of m.blocks) {
    if (b.type === 'text') {
      if (b.text.trim() === '') return 0;
    } else if (b.type !== 'image' && b.type !== 'document') return 0;
  }
  return 1;
}

/**
 * Prepare the cut engine for a transcript and provider: one full validation plus O(n) tables.
 * @param t the transcript
 * @param provider whose rules apply
 * @param opts validation options (e.g. `prefill`); `messages` is ignored
 * @param known `validateTranscript(t, provider, opts)`, when the caller has it (an analysis):
 *   used instead of validating again
 * @returns a context for `checkCut`; never throws
 */
export function prepareCuts(
  t: Transcript,
  provider: ProviderId,
  opts: Omit<ValidateOptions, 'messages'> = {},
  known?: Validation,
): CutContext {
  const ms = t.messages;
  const n = ms.length;
  const pinnedList: number[] = [];
  const nextNonPinned = new Int32Array(n + 1);
  nextNonPinned[n] = n;
  for (let i = n - 1; i >= 0; i--)
    nextNonPinned[i] = isPinned(ms[i] as Message) ? (nextNonPinned[i + 1] as number) : i;
  for (let i = 0; i < n; i++) if (isPinned(ms[i] as Message)) pinnedList.push(i);
  const full = known ?? validateTranscript(t, provider, opts);
  const ctx: CutContext = {
    t,
    provider,
    opts,
    n,
    pinned: Int32Array.from(pinnedList),
    nextNonPinned,
    full,
    fast: false,
    fx: null,
  };
  if (cutModel(provider) === undefined) return ctx;
  // One walk over every block for the tables below and the sweep's policies (shapes.ts, kept
  // for this context): the walks each table made over the scattered blocks were most of
  // preparing them (issue 38).
  const sh = messageShapes(ctx);
  // The fast path places a violation by its `index` (our index, `Message.index`), so every
  // message's index must be its position (raw indices may repeat or be in any order: a fault's
  // copy, a split source message, a log reordered by parentUuid).
  if (!sh.indexed) return ctx;
  const merged = merges(provider);
  if (spansCutsOf(full, merged, () => hasDetachedServerResultOf(sh))) return ctx;
  // A client library's input that its client changes before sending (the AI SDK drops empty tool
  // messages, moves tool calls last) has other provider indices than the tables below assume.
  if (sentMessages(t, ms, provider) !== ms) return ctx;
  ctx.fx = buildFast(t, provider, full, sh);
  ctx.fast = true;
  return ctx;
}

/** Previous occurrence of each duplicated id (by its position in `rest`), for A6 / OW1. */
function duplicatePrev(
  ms: readonly Message[],
  rest: readonly Violation[],
  restAt: Int32Array,
  anth: boolean,
): Map<number, { prev: number; id: string }> {
  const dupKeys = new Map<string, number>();
  rest.forEach((v, i) => {
    if (v.rule === 'duplicate_tool_use_id' && v.blockIndex !== null)
      dupKeys.set(`${restAt[i]}:${v.blockIndex}`, i);
  });
  const dupPrev = new Map<number, { prev: number; id: string }>();
  if (dupKeys.size === 0) return dupPrev;
  const last = new Map<string, number>();
  ms.forEach((m, mi) => {
    if (isPinned(m) || m.role !== 'assistant') return;
    m.blocks.forEach((b, bi) => {
      if (b.type !== 'tool_use' || b.id === null) return;
      if (!anth && b.server === true) return;
      const pos = dupKeys.get(`${mi}:${bi}`);
      const prev = last.get(b.id);
      if (pos !== undefined && prev !== undefined) dupPrev.set(pos, { prev, id: b.id });
      last.set(b.id, mi);
    });
  });
  return dupPrev;
}

/** `nextTool` and `nextToolNP` (see `FastTables`), from the messages' shapes. */
function toolTablesOf(sh: MessageShapes): { nextTool: Int32Array; nextToolNP: Int32Array } {
  const { role, start, kind } = sh;
  const n = role.length;
  const nextTool = new Int32Array(n + 2).fill(n);
  const nextToolNP = new Int32Array(n + 2).fill(n);
  for (let i = n - 1; i >= 0; i--) {
    // `hasToolBlock`: a client call or result among its blocks (no server tool's).
    let tool = false;
    for (let b = start[i] as number; b < (start[i + 1] as number) && !tool; b++) {
      const k = (kind[b] as number) & (KIND_MASK | FLAG_SERVER_RULE);
      tool = k === KIND_CALL || k === KIND_RESULT;
    }
    nextTool[i] = tool ? i : (nextTool[i + 1] as number);
    nextToolNP[i] = tool && role[i] !== ROLE_PINNED ? i : (nextToolNP[i + 1] as number);
  }
  return { nextTool, nextToolNP };
}

export interface SyncTables {
  syncNext: Int32Array;
  renderedAt: Int32Array;
  loopFloor: number;
}

/**
 * Where turns merge (Anthropic): resync candidates start a merged turn; provider indices are the
 * turns of the provider's rendering (`renderAnthropic`'s grouping, `buildTurns(ms, true)`: pinned
 * messages leave, consecutive messages of one role merge), read from the turns' starts without
 * rendering an item object per block (issue 38: the rendered list was half of what preparing the
 * eviction parts of the 115 MB log allocated); with thinking on, the open tool loop's floor.
 */
function mergedTurnSync(t: Transcript): SyncTables {
  const ms = t.messages;
  const n = ms.length;
  const syncNext = new Int32Array(n + 2).fill(-1);
  const renderedAt = new Int32Array(n).fill(-1);
  let prevRole: string | null = null;
  const cand = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const m = ms[i] as Message;
    if (isPinned(m)) continue;
    if (m.role === 'assistant' && prevRole !== 'assistant') cand[i] = 1;
    prevRole = m.role === 'assistant' ? 'assistant' : 'user';
  }
  for (let i = n - 1; i >= 0; i--) syncNext[i] = cand[i] ? i : (syncNext[i + 1] as number);
  const T = buildTurns(ms, true);
  for (let g = 0; g < T.count; g++) renderedAt[turnHead(T, g).index] = g;
  return { syncNext, renderedAt, loopFloor: openLoopFloor(t, T) };
}

/** True when turn `g` is a user turn holding a tool result that is not a server tool's. */
function isResultTurn(T: Turns, g: number): boolean {
  if (turnRole(T, g) !== 'user') return false;
  for (let s = T.start[g] as number; s < (T.start[g + 1] as number); s++)
    for (const b of (T.msgs[s] as Message).blocks)
      if (b.type === 'tool_result' && b.server === undefined) return true;
  return false;
}

/**
 * The open tool loop of checkThinking, when thinking is on and the last turn holds results: walk
 * back from the last turn over assistant turns and result turns; the first user turn that is
 * neither stops it. @returns its message index, -2 when it reaches the first turn, -1 for none
 */
function openLoopFloor(t: Transcript, T: Turns): number {
  if (t.settings.thinking !== true) return -1;
  if (T.count === 0 || !isResultTurn(T, T.count - 1)) return -1;
  for (let g = T.count - 2; g >= 0; g--)
    if (turnRole(T, g) !== 'assistant' && !isResultTurn(T, g)) return turnHead(T, g).index;
  return -2;
}

/**
 * Where each message is its own provider message (the OpenAI family): a resync candidate is a
 * message that is not tool-ish; provider indices mirror renderOpenAIChat (a user message with
 * results, or a tool message with several, becomes one tool message per result, plus one for the
 * rest of its content).
 */
function standInSync(ms: readonly Message[]): SyncTables {
  const n = ms.length;
  const syncNext = new Int32Array(n + 2).fill(-1);
  const renderedAt = new Int32Array(n).fill(-1);
  for (let i = n - 1; i >= 0; i--)
    syncNext[i] = !isToolish(ms[i] as Message) ? i : (syncNext[i + 1] as number);
  let r = 0;
  for (let i = 0; i < n; i++) {
    const m = ms[i] as Message;
    renderedAt[i] = r;
    let count = 0;
    let rest = false;
    for (const b of m.blocks) {
      if (b.type === 'tool_result') count++;
      else rest = true;
    }
    if ((m.role === 'user' && count > 0) || (m.role === 'tool' && count > 1)) {
      r += count + (rest ? 1 : 0);
    } else r++;
  }
  return { syncNext, renderedAt, loopFloor: -1 };
}

/** What each message is known to give as a window's start, and the empty messages before it. */
export interface StartTables {
  /** `WindowCache.start` (length n). */
  start: Uint8Array;
  /** `WindowCache.emptyBefore` (length n + 1). */
  emptyBefore: Int32Array;
}

/**
 * `StartTables` of a transcript's messages, from their shapes: only a user message whose blocks
 * are all text, images or documents is read (its texts, for a blank one). O(n).
 */
function startTablesOf(ms: readonly Message[], sh: MessageShapes, merged: boolean): StartTables {
  const { role, start: first } = sh;
  const n = role.length;
  const start = new Uint8Array(n);
  const emptyBefore = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) {
    const from = first[i] as number;
    const to = first[i + 1] as number;
    emptyBefore[i + 1] = (emptyBefore[i] as number) + (from === to ? 1 : 0);
    start[i] = startKindOf(ms, sh, i, from, to, merged);
  }
  return { start, emptyBefore };
}

/** `startKind(ms[i], merged)` from the shapes (message i's blocks are [from, to)). */
function startKindOf(
  ms: readonly Message[],
  sh: MessageShapes,
  i: number,
  from: number,
  to: number,
  merged: boolean,
): number {
  const r = sh.role[i];
  const kind = sh.kind;
  if (merged) {
    // A result with no server kind, in a user or tool message.
    if (r === ROLE_USER || r === ROLE_TOOL)
      for (let b = from; b < to; b++)
        if (((kind[b] as number) & (KIND_MASK | FLAG_SERVER_RULE)) === KIND_RESULT) return 2;
  } else if (r === ROLE_TOOL) return 2;
  else if (r === ROLE_USER)
    // `isToolish`: a user message carrying a result.
    for (let b = from; b < to; b++) if (((kind[b] as number) & KIND_MASK) === KIND_RESULT) return 2;
  if (r !== ROLE_USER || from === to) return 0;
  let texts = false;
  for (let b = from; b < to; b++) {
    const k = (kind[b] as number) & KIND_MASK;
    if (k === KIND_TEXT) texts = true;
    else if (k !== KIND_FILE) return 0;
  }
  if (texts)
    for (const b of (ms[i] as Message).blocks)
      if (b.type === 'text' && b.text.trim() === '') return 0;
  return 1;
}

/**
 * `t` with `thinking` unknown (a window's end is not the request's end: T1/T2), for validating
 * windows. Its `raw`, when `t` carries one as a value, is read from `t` on each read rather than
 * copied: a holder that replaces `t.raw` (the worker releasing a long log's records,
 * engine/releaseRecords.ts) leaves no old value alive through this copy (issue 38: the 100,000
 * records of the 115 MB log stayed in the worker's heap after their release). A `raw` that `t`
 * defines lazily and not enumerable (the page's streamed transcript) is not carried, as a spread
 * does not carry it.
 */
export function windowTranscript(t: Transcript): Transcript {
  const settings = { ...t.settings };
  delete settings.thinking;
  const w: Transcript = { ...t, settings };
  if (Object.hasOwn(w, 'raw'))
    Object.defineProperty(w, 'raw', { enumerable: true, configurable: true, get: () => t.raw });
  return w;
}

/** Fresh window caches over a transcript's `StartTables`. */
function windowCache(t: Transcript, st: StartTables): WindowCache {
  const n = t.messages.length;
  return {
    noHead: new Uint8Array(n + 1),
    headOnly: new WeakMap(),
    winT: windowTranscript(t),
    start: st.start,
    emptyBefore: st.emptyBefore,
    cutNoHead: new Uint8Array(n + 1),
  };
}

/** The fast tables that depend on the messages alone (not on the whole validation). */
export type MessageTables = { nextTool: Int32Array; nextToolNP: Int32Array } & SyncTables &
  StartTables;

function buildFast(
  t: Transcript,
  provider: ProviderId,
  full: Validation,
  sh: MessageShapes,
): FastTables {
  const ms = t.messages;
  const anth = merges(provider);
  return fastFromFull(t, provider, full, ms, {
    ...toolTablesOf(sh),
    ...(anth ? mergedTurnSync(t) : standInSync(ms)),
    ...startTablesOf(ms, sh, anth),
  });
}

/**
 * The fast tables from the whole validation and the message tables (`MessageTables`, made by
 * `buildFast` or resumed along a chain by evict/chain.ts). O(violations), plus a walk over the
 * messages when a tool id is used twice (`duplicatePrev`).
 */
export function fastFromFull(
  t: Transcript,
  provider: ProviderId,
  full: Validation,
  ms: readonly Message[],
  tables: MessageTables,
): FastTables {
  const anth = merges(provider);
  const a7 = anth ? (full.violations.find((v) => v.rule === 'tools_not_defined') ?? null) : null;
  // In message order (`restAt` is searched by bisection): the schema errors a validation lists
  // first go back to their messages; `checkCut` puts them first again.
  const listed = positionOrder(full.violations);
  const rest = anth ? listed.filter((v) => v.rule !== 'tools_not_defined') : listed;
  const restAt = new Int32Array(rest.length);
  rest.forEach((v, i) => (restAt[i] = v.index));
  const errPos = Int32Array.from(rest.flatMap((v, i) => (v.severity === 'error' ? [i] : [])));
  const { start, emptyBefore, ...rows } = tables;
  return {
    merged: anth,
    rest,
    restAt,
    errPos,
    dupPrev: duplicatePrev(ms, rest, restAt, anth),
    a7,
    ...rows,
    cache: windowCache(t, { start, emptyBefore }),
  };
}

/**
 * The kept array for a cut (the slow path's input and the reference's definition).
 * @param k cut point: non-pinned messages before `k` are dropped, except `head.messages`
 * @returns pinned messages before k and the head in message order, the summary, then messages ≥ k
 */
export function keptMessages(
  ctx: CutContext,
  k: number,
  head: CutHead,
  upTo = ctx.n - 1,
): Message[] {
  const ms = ctx.t.messages;
  const out: Message[] = [];
  let h = 0;
  const hm = head.messages;
  for (let p = 0; p < ctx.pinned.length; p++) {
    const pi = ctx.pinned[p] as number;
    if (pi >= k) break;
    while (h < hm.length && (hm[h] as Message).index < pi) out.push(hm[h++] as Message);
    out.push(ms[pi] as Message);
  }
  while (h < hm.length) out.push(hm[h++] as Message);
  if (head.summary) out.push(head.summary);
  for (let i = k; i <= upTo && i < ms.length; i++) out.push(ms[i] as Message);
  return out;
}
