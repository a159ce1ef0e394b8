/**
 * Fast validation of prefix cuts, the engine under the eviction policies, the cut markers and the
 * sweep.
 *
 * A cut at `k` keeps: every pinned (system/developer) message, an optional head (the task
 * message, the messages before the first droppable turn pair, a summary message), and every
 * message from `k` on. Validating that kept array from scratch is O(n) per cut — far too slow for
 * a slider on 100,000 messages, and quadratic for a sweep. But a prefix cut only changes validity
 * near its boundary, so:
 *
 * 1. The full transcript is validated once (`prepareCuts`), and each violation is mapped to the
 *    message (ours) that holds its cause.
 * 2. For a cut at `k`, a *resync point* `r ≥ k` is found: the first message from which the
 *    provider's scan sees the same messages with the same neighbours as in the full transcript
 *    (Anthropic: an assistant message that starts a merged turn in both; OpenAI Chat: a message
 *    that is neither `tool` nor carries tool results, so no tool run crosses it).
 * 3. The kept head plus `[k, r]` is validated (a few messages). Its violations before `r` are
 *    exact. The full validation's violations from `r` on are reused: duplicate-id violations
 *    whose earlier occurrence was evicted are dropped, and provider paths are renumbered by the
 *    constant shift of provider indices at `r` (done lazily, only for the violations shown).
 *    Anthropic's A7 (tool blocks without tools) is recomputed from the first kept tool block.
 * 4. Where that argument does not hold (no resync point: the cut is inside the last turn; or the
 *    open tool loop that the thinking rules T1/T2 inspect reaches back past `r`), the kept array
 *    is validated directly — still cheap, since it is the tail after `k`.
 *
 * Only providers whose registry entry gives a cut model (`ProviderValidator.cuts`: their fast path
 * is property-tested against simulate.reference.ts in simulate.test.ts) take the fast path;
 * others are validated directly. This file names no provider: it reads the cut model.
 */
import { isPinned } from '../exchanges.ts';
import type { Message, ProviderId, Transcript } from '../types.ts';
import type { RenderedMessage } from '../validate/types.ts';
import {
  sentMessages,
  validateTranscript,
  validatorFor,
  type CutModel,
  type ValidateOptions,
  type Validation,
  type Violation,
} from '../validate/index.ts';

/** The provider's cut model (validate/types.ts), or undefined: its cuts are validated directly. */
function cutModel(provider: ProviderId): CutModel | undefined {
  return validatorFor(provider)?.cuts;
}

/** True for a provider whose turns merge (its windows end before a turn, not at a stand-in). */
function merges(provider: ProviderId): boolean {
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
}

/** Per-context caches of window validity (the sweep asks the same window many times). */
interface WindowCache {
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

interface FastTables {
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
}

function isToolish(m: Message): boolean {
  return m.role === 'tool' || (m.role === 'user' && m.blocks.some((b) => b.type === 'tool_result'));
}

function hasToolBlock(m: Message): boolean {
  return m.blocks.some((b) => b.type === 'tool_use' || b.type === 'tool_result');
}

/**
 * Tool ids that count as "already used" for the duplicate-id rules (A6 / OW1): server calls too
 * where turns merge (Anthropic counts every tool_use id), client calls only otherwise.
 */
function occurrenceIds(m: Message, provider: ProviderId): string[] {
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

/**
 * Prepare the cut engine for a transcript and provider: one full validation plus O(n) tables.
 * @param t the transcript
 * @param provider whose rules apply
 * @param opts validation options (e.g. `prefill`); `messages` is ignored
 * @returns a context for `checkCut`; never throws
 */
export function prepareCuts(
  t: Transcript,
  provider: ProviderId,
  opts: Omit<ValidateOptions, 'messages'> = {},
): CutContext {
  const ms = t.messages;
  const n = ms.length;
  const pinnedList: number[] = [];
  const nextNonPinned = new Int32Array(n + 1);
  nextNonPinned[n] = n;
  for (let i = n - 1; i >= 0; i--)
    nextNonPinned[i] = isPinned(ms[i] as Message) ? (nextNonPinned[i + 1] as number) : i;
  for (let i = 0; i < n; i++) if (isPinned(ms[i] as Message)) pinnedList.push(i);
  const full = validateTranscript(t, provider, opts);
  // The fast path places a violation by its `index` (our index, `Message.index`), so every
  // message's index must be its position (raw indices may repeat or be in any order: a fault's
  // copy, a split source message, a log reordered by parentUuid).
  let indexed = true;
  for (let i = 0; i < n && indexed; i++) if ((ms[i] as Message).index !== i) indexed = false;
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
  // A rule that compares two messages anywhere in the request (O6: a second tool message for an
  // id) cannot be reused across a cut from the full validation: such rare transcripts take the
  // direct path.
  // A5 (content after a tool_use inside a merged turn) depends on how a cut or a kept head
  // merges the turn; those rare transcripts take the direct path too.
  const requestWide = full.violations.some(
    (v) => (v.rule === 'duplicate_tool_result' && !merges(provider)) || v.code === 'A5',
  );
  // A client library's input that its client changes before sending (the AI SDK drops empty tool
  // messages, moves tool calls last) has other provider indices than the tables below assume.
  const rewritten = sentMessages(t, ms) !== ms;
  if (cutModel(provider) === undefined || !indexed || requestWide || rewritten) return ctx;
  ctx.fx = buildFast(t, provider, full);
  ctx.fast = true;
  return ctx;
}

function buildFast(t: Transcript, provider: ProviderId, full: Validation): FastTables {
  const ms = t.messages;
  const n = ms.length;
  const anth = merges(provider);
  const a7 = anth ? (full.violations.find((v) => v.rule === 'tools_not_defined') ?? null) : null;
  const rest = anth
    ? full.violations.filter((v) => v.rule !== 'tools_not_defined')
    : full.violations;
  const restAt = new Int32Array(rest.length);
  rest.forEach((v, i) => (restAt[i] = v.index));
  const errPos = Int32Array.from(rest.flatMap((v, i) => (v.severity === 'error' ? [i] : [])));

  // Previous occurrence of each duplicated id, keyed by (message, block).
  const dupKeys = new Map<string, number>();
  rest.forEach((v, i) => {
    if (v.rule === 'duplicate_tool_use_id' && v.blockIndex !== null)
      dupKeys.set(`${restAt[i]}:${v.blockIndex}`, i);
  });
  const dupPrev = new Map<number, { prev: number; id: string }>();
  if (dupKeys.size > 0) {
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
  }

  const nextTool = new Int32Array(n + 2).fill(n);
  const nextToolNP = new Int32Array(n + 2).fill(n);
  for (let i = n - 1; i >= 0; i--) {
    const m = ms[i] as Message;
    nextTool[i] = hasToolBlock(m) ? i : (nextTool[i + 1] as number);
    nextToolNP[i] = hasToolBlock(m) && !isPinned(m) ? i : (nextToolNP[i + 1] as number);
  }

  const syncNext = new Int32Array(n + 2).fill(-1);
  const renderedAt = new Int32Array(n).fill(-1);
  let loopFloor = -1;
  if (anth) {
    let prevRole: string | null = null;
    const cand = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      const m = ms[i] as Message;
      if (isPinned(m)) continue;
      if (m.role === 'assistant' && prevRole !== 'assistant') cand[i] = 1;
      prevRole = m.role === 'assistant' ? 'assistant' : 'user';
    }
    for (let i = n - 1; i >= 0; i--) syncNext[i] = cand[i] ? i : (syncNext[i + 1] as number);
    const rendered = (cutModel(provider) as CutModel).render(ms) as RenderedMessage[];
    rendered.forEach((g, gi) => {
      const s = g.sources[0];
      if (s) renderedAt[s.index] = gi;
    });
    if (t.settings.thinking === true) {
      // The open tool loop of checkThinking: walk back from the last turn over assistant turns and
      // result turns; the first user turn that is neither stops it.
      const isResultTurn = (g: (typeof rendered)[number]) =>
        g.role === 'user' &&
        g.items.some((it) => it.block.type === 'tool_result' && it.block.server === undefined);
      const lastG = rendered[rendered.length - 1];
      if (lastG && isResultTurn(lastG)) {
        // -2: the loop reaches the first turn, so every cut touches it.
        loopFloor = -2;
        for (let g = rendered.length - 2; g >= 0; g--) {
          const gg = rendered[g] as (typeof rendered)[number];
          if (gg.role !== 'assistant' && !isResultTurn(gg)) {
            loopFloor = (gg.sources[0] as Message).index;
            break;
          }
        }
      }
    }
  } else {
    for (let i = n - 1; i >= 0; i--)
      syncNext[i] = !isToolish(ms[i] as Message) ? i : (syncNext[i + 1] as number);
    let r = 0;
    for (let i = 0; i < n; i++) {
      const m = ms[i] as Message;
      renderedAt[i] = r;
      // Mirrors renderOpenAIChat: a user message with results, or a tool message with several,
      // becomes one tool message per result (plus one for the rest of its content).
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
  }
  const winSettings = { ...t.settings };
  delete winSettings.thinking;
  const start = new Uint8Array(n);
  const emptyBefore = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) {
    const m = ms[i] as Message;
    emptyBefore[i + 1] = (emptyBefore[i] as number) + (m.blocks.length === 0 ? 1 : 0);
    start[i] = windowStartKind(m, provider);
  }
  const cache: WindowCache = {
    noHead: new Uint8Array(n + 1),
    headOnly: new WeakMap(),
    winT: { ...t, settings: winSettings },
    start,
    emptyBefore,
    cutNoHead: new Uint8Array(n + 1),
  };
  return {
    rest,
    restAt,
    errPos,
    dupPrev,
    a7,
    nextTool,
    nextToolNP,
    syncNext,
    renderedAt,
    loopFloor: anth && t.settings.thinking === true ? loopFloor : -1,
    cache,
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

/** The verdict of one cut. `violations()` renumbers provider paths on first call only. */
export interface CutVerdict {
  /** The normalised cut (first non-pinned index ≥ the requested one, or n). */
  k: number;
  valid: boolean;
  /** The 400 the request gets (the first error), exact; null when valid. */
  firstError: Violation | null;
  /** The whole validation of the kept request, computed lazily. */
  validation: () => Validation;
}

interface Parts {
  /** Direct validation (slow path), when used. */
  direct: Validation | null;
  a7: Violation | null;
  /** Window violations before r (exact). */
  win: Violation[];
  /** First position in fx.rest that belongs to the reused suffix. */
  aPos: number;
  r: number;
  /** Provider-index shift at r: full index − kept index. */
  delta: () => number;
  headIds: Set<string> | null;
  k: number;
}

function lowerBoundAt(restAt: Int32Array, positions: Int32Array | null, r: number): number {
  // positions: indexes into restAt (monotone predicate restAt[pos] >= r along them)
  let lo = 0;
  let hi = positions ? positions.length : restAt.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const at = restAt[positions ? (positions[mid] as number) : mid] as number;
    if (at >= r) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

function normaliseCut(ctx: CutContext, kIn: number): number {
  return kIn >= ctx.n ? ctx.n : (ctx.nextNonPinned[Math.max(0, kIn)] as number);
}

/** See `WindowCache.start`. */
function windowStartKind(m: Message, provider: ProviderId): number {
  if (merges(provider)) {
    if (
      (m.role === 'user' || m.role === 'tool') &&
      m.blocks.some((b) => b.type === 'tool_result' && b.server === undefined)
    )
      return 2;
  } else if (isToolish(m)) return 2;
  if (m.role !== 'user' || m.blocks.length === 0) return 0;
  for (const b of m.blocks) {
    if (b.type === 'text') {
      if (b.text.trim() === '') return 0;
    } else if (b.type !== 'image' && b.type !== 'document') return 0;
  }
  return 1;
}

/** A head that cannot interact with the window: one plain user message (plus the summary). */
function plainHead(head: CutHead, fx: FastTables): boolean {
  const m = head.messages[0];
  return head.messages.length === 1 && m !== undefined && fx.cache.start[m.index] === 1;
}

/** The resync point for a (normalised) cut, or -1 when the kept array must be validated directly. */
function resyncPoint(ctx: CutContext, fx: FastTables, k: number, head: CutHead): number {
  const anth = merges(ctx.provider);
  let r = k < ctx.n ? (fx.syncNext[k] as number) : -1;
  if (anth && r === k && r >= 0) {
    // r must start a merged turn in the kept array too: not if the head ends on an assistant.
    const hm = head.messages;
    const lastHead = head.summary ?? hm[hm.length - 1];
    if (lastHead && lastHead.role === 'assistant') r = fx.syncNext[k + 1] as number;
  }
  if (r < 0 || (anth && fx.loopFloor !== -1 && fx.loopFloor < r)) return -1;
  return r;
}

/** True when the window (head + [k, r)) has no error of its own (A7 in the window included). */
function windowOk(ctx: CutContext, fx: FastTables, k: number, head: CutHead, r: number): boolean {
  const anth = merges(ctx.provider);
  const hasHead = head.messages.length > 0 || head.summary !== null;
  const span = k < r; // k is non-pinned (normalised), so [k, r) holds a non-pinned message iff k < r
  if (!hasHead && !span && anth) return true;
  if (!hasHead) {
    // Known without validating: a tool result first is an orphan; a lone plain user message is fine.
    const kind = fx.cache.start[k];
    if (kind === 2) return false;
    if (kind === 1 && (anth ? r === k + 1 || ctx.nextNonPinned[k + 1] === r : r === k)) return true;
    const c = fx.cache.noHead[k];
    if (c) return c === 1;
    const ok = validateWindow(ctx, fx, k, head, r);
    fx.cache.noHead[k] = ok ? 1 : 2;
    return ok;
  }
  // One plain user message (the task, maybe with the summary) merges with the window's first
  // user turn but adds no tool blocks, ids or neighbours: the two are valid iff each is, unless
  // the window holds an empty message (which the merge would hide).
  if (span && plainHead(head, fx) && fx.cache.emptyBefore[r] === fx.cache.emptyBefore[k])
    return windowOk(ctx, fx, k, head, k) && windowOk(ctx, fx, k, NO_HEAD, r);
  if (!span) {
    const c = fx.cache.headOnly.get(head);
    if (c !== undefined) return c;
    const ok = validateWindow(ctx, fx, k, head, r);
    fx.cache.headOnly.set(head, ok);
    return ok;
  }
  return validateWindow(ctx, fx, k, head, r);
}

function validateWindow(
  ctx: CutContext,
  fx: FastTables,
  k: number,
  head: CutHead,
  r: number,
): boolean {
  const winMsgs = keptMessages(ctx, k, head, r - 1);
  if (!merges(ctx.provider)) winMsgs.push(standIn(ctx.t.messages[r] as Message));
  const vw = validateTranscript(fx.cache.winT, ctx.provider, { ...ctx.opts, messages: winMsgs });
  for (const v of vw.violations) {
    if (v.severity !== 'error' || v.rule === 'thinking_missing' || v.rule === 'empty_request')
      continue;
    if (v.rule === 'tools_not_defined' || v.index < r) return false;
  }
  return true;
}

function computeParts(ctx: CutContext, kIn: number, head: CutHead): Parts {
  const k = normaliseCut(ctx, kIn);
  const fx = ctx.fx;
  const direct = (): Parts => ({
    direct: validateTranscript(ctx.t, ctx.provider, {
      ...ctx.opts,
      messages: keptMessages(ctx, k, head),
    }),
    a7: null,
    win: [],
    aPos: 0,
    r: ctx.n,
    delta: () => 0,
    headIds: null,
    k,
  });
  if (!fx) return direct();
  const anth = merges(ctx.provider);
  const r = resyncPoint(ctx, fx, k, head);
  if (r < 0) return direct();
  // Anthropic: the window stops before r (nothing before r looks at r's turn, since the message
  // before r is a user turn). OpenAI: an assistant before r needs to see that its tool run ends, so
  // r is stood in for by a plain user message (one provider index, no violations of its own).
  const winMsgs = keptMessages(ctx, k, head, r - 1);
  if (!anth) winMsgs.push(standIn(ctx.t.messages[r] as Message));
  let a7: Violation | null = null;
  const win: Violation[] = [];
  if (!anth || winMsgs.some((m) => !isPinned(m))) {
    const vw = validateTranscript(fx.cache.winT, ctx.provider, { ...ctx.opts, messages: winMsgs });
    for (const v of vw.violations) {
      // A window is not a whole request: the request is empty only when nothing from r on is kept.
      if (v.rule === 'empty_request') continue;
      if (anth && v.rule === 'tools_not_defined') {
        a7 = v;
        continue;
      }
      // The window's end is not the request's end: the open-loop thinking rule is decided by the
      // reused full validation (checked against loopFloor above).
      if (v.rule === 'thinking_missing') continue;
      // v.index: our index of the cause (−1 for the synthetic summary, before any r).
      if (v.index < r) win.push(v);
    }
  }
  if (anth && !a7 && fx.a7 && (fx.nextToolNP[r] as number) < ctx.n) {
    // A7 fires for a non-pinned tool block from r on; it names the first kept message (pinned
    // ones included) that holds any tool block.
    const first =
      winMsgs.find(hasToolBlock) ?? (ctx.t.messages[fx.nextTool[r] as number] as Message);
    a7 = { ...fx.a7, messageIndex: first.rawIndex, index: first.index };
  }
  let headIds: Set<string> | null = null;
  if (fx.dupPrev.size > 0) {
    headIds = new Set();
    for (const m of head.messages) for (const id of occurrenceIds(m, ctx.provider)) headIds.add(id);
  }
  const aPos = lowerBoundAt(fx.restAt, null, r);
  let shift: number | null = null;
  const delta = () => {
    if (shift === null) {
      // Provider index of r in the kept request: the number of provider messages before it.
      // The OpenAI window ends on a stand-in for r, which is not before r.
      const rendered = (cutModel(ctx.provider) as CutModel).render(winMsgs).length;
      const before = anth ? rendered : rendered - 1;
      shift = (fx.renderedAt[r] as number) - before;
    }
    return shift;
  };
  return { direct: null, a7, win, aPos, r, delta, headIds, k };
}

/** A plain user message in r's place (OpenAI window): same provider index, no violations. */
function standIn(m: Message): Message {
  return {
    index: m.index,
    rawIndex: m.rawIndex,
    path: m.path,
    role: 'user',
    blocks: [{ type: 'text', text: '.' }],
    raw: undefined,
  };
}

function survives(fx: FastTables, pos: number, p: Parts): boolean {
  const d = fx.dupPrev.get(pos);
  if (!d) return true;
  return d.prev >= p.k || (p.headIds !== null && p.headIds.has(d.id));
}

const INDEX_RE = /messages(\.\[|\[|\.)(\d+)/;

function shiftText(s: string, delta: number): string {
  return s.replace(
    INDEX_RE,
    (_m, sep: string, num: string) => `messages${sep}${Number(num) - delta}`,
  );
}

/** Renumber a reused violation's provider paths for the kept array (shift by `delta`). */
function renumber(v: Violation, delta: number): Violation {
  if (delta === 0) return v;
  const message = shiftText(v.message, delta);
  const providerPath = v.providerPath === null ? null : shiftText(v.providerPath, delta);
  const fix = (x: unknown): unknown => {
    if (typeof x === 'string') return x === v.message ? message : x;
    if (x === null || typeof x !== 'object' || Array.isArray(x)) return x;
    const out: Record<string, unknown> = {};
    for (const [key, val] of Object.entries(x as Record<string, unknown>))
      out[key] = key === 'param' && typeof val === 'string' ? shiftText(val, delta) : fix(val);
    return out;
  };
  return { ...v, message, providerPath, error: fix(v.error) };
}

/**
 * Verdict for one cut, fast (see the file comment).
 * @param ctx from `prepareCuts`
 * @param k cut point (message index, ours, 0..n): non-pinned messages before it are dropped
 * @param head what is kept before the cut besides pinned messages (head messages must lie before `k`)
 * @returns validity, the exact first error, and a lazy full validation. Cost: O(window + log V).
 */
export function checkCut(ctx: CutContext, k: number, head: CutHead = NO_HEAD): CutVerdict {
  const p = computeParts(ctx, k, head);
  if (p.direct) {
    const d = p.direct;
    return {
      k: p.k,
      valid: d.valid,
      firstError: d.violations.find((v) => v.severity === 'error') ?? null,
      validation: () => d,
    };
  }
  const fx = ctx.fx as FastTables;
  let firstError: Violation | null =
    p.a7 && p.a7.severity === 'error' ? p.a7 : (p.win.find((v) => v.severity === 'error') ?? null);
  if (!firstError) {
    for (let e = lowerBoundAt(fx.restAt, fx.errPos, p.r); e < fx.errPos.length; e++) {
      const pos = fx.errPos[e] as number;
      if (survives(fx, pos, p)) {
        firstError = renumber(fx.rest[pos] as Violation, p.delta());
        break;
      }
    }
  }
  let memo: Validation | null = null;
  const validation = (): Validation => {
    if (memo) return memo;
    const violations: Violation[] = [];
    if (p.a7) violations.push(p.a7);
    violations.push(...p.win);
    const delta = p.delta();
    for (let pos = p.aPos; pos < fx.rest.length; pos++)
      if (survives(fx, pos, p)) violations.push(renumber(fx.rest[pos] as Violation, delta));
    memo = {
      provider: ctx.full.provider,
      valid: !violations.some((v) => v.severity === 'error'),
      violations,
      notes: ctx.full.notes,
    };
    return memo;
  };
  return { k: p.k, valid: firstError === null, firstError, validation };
}

/**
 * Only whether a cut is valid, without building error objects (the sweep's inner loop).
 * @returns true when the kept request would be accepted
 */
export function isCutValid(ctx: CutContext, kIn: number, head: CutHead = NO_HEAD): boolean {
  const fx = ctx.fx;
  const k = normaliseCut(ctx, kIn);
  const r = fx ? resyncPoint(ctx, fx, k, head) : -1;
  if (!fx || r < 0) return (computeParts(ctx, k, head).direct as Validation).valid;
  const hasHead = head.messages.length > 0 || head.summary !== null;
  if (!hasHead) {
    const c = fx.cache.cutNoHead[k];
    if (c) return c === 1;
    const ok = cutValidFast(ctx, fx, k, head, r);
    fx.cache.cutNoHead[k] = ok ? 1 : 2;
    return ok;
  }
  // A plain task head adds no tool blocks, ids or neighbours (see windowOk): the cut is valid iff
  // the head alone is and the same cut without the head is.
  if (plainHead(head, fx) && (k >= r || fx.cache.emptyBefore[r] === fx.cache.emptyBefore[k]))
    return windowOk(ctx, fx, k, head, k) && isCutValid(ctx, k, NO_HEAD);
  return cutValidFast(ctx, fx, k, head, r);
}

function cutValidFast(
  ctx: CutContext,
  fx: FastTables,
  k: number,
  head: CutHead,
  r: number,
): boolean {
  if (!windowOk(ctx, fx, k, head, r)) return false;
  if (fx.a7 && fx.a7.severity === 'error' && (fx.nextToolNP[r] as number) < ctx.n) return false;
  let headIds: Set<string> | null = null;
  for (let e = lowerBoundAt(fx.restAt, fx.errPos, r); e < fx.errPos.length; e++) {
    const pos = fx.errPos[e] as number;
    const d = fx.dupPrev.get(pos);
    if (!d || d.prev >= k) return false;
    if (!headIds) {
      headIds = new Set();
      for (const m of head.messages)
        for (const id of occurrenceIds(m, ctx.provider)) headIds.add(id);
    }
    if (headIds.has(d.id)) return false;
  }
  return true;
}
