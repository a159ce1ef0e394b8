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
 * The tables are prepared once per transcript and provider in cutTables.ts (`prepareCuts`).
 * Only providers whose registry entry gives a cut model (`ProviderValidator.cuts`: their fast path
 * is property-tested against testing/simulate.reference.ts in simulate.test.ts) take the fast path;
 * others are validated directly. This file names no provider: it reads the cut model.
 */
import { ownRecord } from '../own.ts';
import { isPinned } from '../exchanges.ts';
import type { Message } from '../types.ts';
import {
  isSchemaError,
  schemaFirst,
  validateTranscript,
  type CutModel,
  type Validation,
  type Violation,
} from '../validate/index.ts';
import {
  cutModel,
  hasToolBlock,
  merges,
  NO_HEAD,
  occurrenceIds,
  type CutContext,
  type CutHead,
  keptMessages,
  type FastTables,
  type WindowEntry,
  type WindowMemo,
  type WindowRules,
} from './cutTables.ts';

export { keptMessages, NO_HEAD, prepareCuts, type CutContext, type CutHead } from './cutTables.ts';

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

/** A head that cannot interact with the window: one plain user message (plus the summary). */
function plainHead(head: CutHead, fx: FastTables): boolean {
  const m = head.messages[0];
  return head.messages.length === 1 && m !== undefined && fx.cache.start[m.index] === 1;
}

/** The resync point for a (normalised) cut, or -1 when the kept array must be validated directly. */
function resyncPoint(ctx: CutContext, fx: FastTables, k: number, head: CutHead): number {
  const anth = fx.merged;
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
  const anth = fx.merged;
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

/**
 * The window map of a head in a `WindowMemo`: by its key (its messages' indices and its summary,
 * if any), found once per head object.
 */
function headWindows(memo: WindowMemo, head: CutHead): Map<number, WindowEntry> {
  if (memo.last?.head === head) return memo.last.windows;
  let windows = memo.heads.get(head);
  if (windows === undefined) {
    let key = head.messages.map((m) => m.index).join(',');
    if (head.summary) key += `|${head.summary.role}|${JSON.stringify(head.summary.blocks)}`;
    windows = memo.windows.get(key);
    if (windows === undefined) {
      windows = new Map();
      memo.windows.set(key, windows);
    }
    memo.heads.set(head, windows);
  }
  memo.last = { head, windows };
  return windows;
}

/** Windows are memoised while k, r < 2^26 (`windowKey`). */
const WINDOW_KEY_SCALE = 2 ** 26;
/** Below 2^15 a window's key is k · 2^15 + r: a small integer (no boxed number to hash). */
const SMALL_KEY_SCALE = 2 ** 15;

/**
 * A window's key in its head's map (`WindowMemo.windows`), one per (k, r) with k, r < 2^26:
 * `k · 2^15 + r` (≥ 0) when both are below 2^15, else `−(k · 2^26 + r) − 1` (< 0).
 */
function windowKey(k: number, r: number): number {
  return k < SMALL_KEY_SCALE && r < SMALL_KEY_SCALE
    ? k * SMALL_KEY_SCALE + r
    : -(k * WINDOW_KEY_SCALE + r) - 1;
}

/** The chain's window map of a head, when the context has a `WindowMemo` and r is in its range. */
function memoWindows(
  ctx: CutContext,
  head: CutHead,
  r: number,
): Map<number, WindowEntry> | undefined {
  const memo = ctx.memo;
  return memo && r < WINDOW_KEY_SCALE && r >= 0 ? headWindows(memo, head) : undefined;
}

/**
 * The validation of a cut's window (its head and `[k, r)`, and for OpenAI a stand-in for `r`),
 * from the chain's `WindowMemo` when the context has one and an earlier request of the chain
 * validated the same window, as the memo's entry. @param made the window's messages when the
 * caller has them; else they are made (`windowMessages`) only when the window is not memoised
 */
function windowEntry(
  ctx: CutContext,
  fx: FastTables,
  k: number,
  head: CutHead,
  r: number,
  made: Message[] | null = null,
): WindowEntry {
  const windows = memoWindows(ctx, head, r);
  const key = windowKey(k, r);
  const hit = windows?.get(key);
  if (hit) return hit;
  const messages = made ?? windowMessages(ctx, k, head, r);
  const validation = validateTranscript(fx.cache.winT, ctx.provider, { ...ctx.opts, messages });
  const entry: WindowEntry = { validation, rules: null };
  windows?.set(key, entry);
  return entry;
}

function validateWindow(
  ctx: CutContext,
  fx: FastTables,
  k: number,
  head: CutHead,
  r: number,
): boolean {
  const vw = windowEntry(ctx, fx, k, head, r).validation;
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
  const anth = fx.merged;
  const r = resyncPoint(ctx, fx, k, head);
  if (r < 0) return direct();
  // The window's messages, made when a window is validated, or A7 or the shift asks for them.
  let made: Message[] | null = null;
  const winMsgs = (): Message[] => (made ??= windowMessages(ctx, k, head, r));
  let a7: Violation | null = null;
  const win: Violation[] = [];
  if (!anth || windowHasNonPinned(ctx, k, head, r)) {
    const vw = windowEntry(ctx, fx, k, head, r, made).validation;
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
      winMsgs().find(hasToolBlock) ?? (ctx.t.messages[fx.nextTool[r] as number] as Message);
    a7 = { ...fx.a7, messageIndex: first.rawIndex, index: first.index };
  }
  const headIds = headIdsOf(ctx, fx, head);
  const aPos = lowerBoundAt(fx.restAt, null, r);
  let shift: number | null = null;
  const delta = () => {
    if (shift === null) {
      // Provider index of r in the kept request: the number of provider messages before it.
      // The OpenAI window ends on a stand-in for r, which is not before r.
      const rendered = (cutModel(ctx.provider) as CutModel).render(winMsgs()).length;
      const before = anth ? rendered : rendered - 1;
      shift = (fx.renderedAt[r] as number) - before;
    }
    return shift;
  };
  return { direct: null, a7, win, aPos, r, delta, headIds, k };
}

/**
 * A cut's window: the kept messages before r (`keptMessages` up to r − 1). Anthropic: the window
 * stops before r (nothing before r looks at r's turn, since the message before r is a user turn).
 * OpenAI: an assistant before r needs to see that its tool run ends, so r is stood in for by a
 * plain user message (one provider index, no violations of its own).
 */
function windowMessages(ctx: CutContext, k: number, head: CutHead, r: number): Message[] {
  const winMsgs = keptMessages(ctx, k, head, r - 1);
  if (!merges(ctx.provider)) winMsgs.push(standIn(ctx.t.messages[r] as Message));
  return winMsgs;
}

/**
 * `windowMessages(ctx, k, head, r).some((m) => !isPinned(m))` for a merged-turn provider (no
 * stand-in), without making the window: its pinned messages before k are pinned.
 */
function windowHasNonPinned(ctx: CutContext, k: number, head: CutHead, r: number): boolean {
  for (const m of head.messages) if (!isPinned(m)) return true;
  if (head.summary && !isPinned(head.summary)) return true;
  const ms = ctx.t.messages;
  for (let i = k; i <= r - 1 && i < ms.length; i++) if (!isPinned(ms[i] as Message)) return true;
  return false;
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

/**
 * Whether the full validation's violation at `pos` holds in a cut at k keeping a head with the
 * tool ids `headIds` (a duplicate id's is dropped when its earlier occurrence was evicted).
 */
function survives(fx: FastTables, pos: number, k: number, headIds: Set<string> | null): boolean {
  const d = fx.dupPrev.get(pos);
  if (!d) return true;
  return d.prev >= k || (headIds !== null && headIds.has(d.id));
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
    const out: Record<string, unknown> = ownRecord();
    for (const [key, val] of Object.entries(x as Record<string, unknown>))
      out[key] = key === 'param' && typeof val === 'string' ? shiftText(val, delta) : fix(val);
    return out;
  };
  return { ...v, message, providerPath, error: fix(v.error) };
}

/** `FastTables.schemaNext`, made on first use. */
function schemaNext(fx: FastTables): Int32Array {
  if (!fx.schemaNext) {
    const m = fx.errPos.length;
    const next = new Int32Array(m + 1);
    next[m] = m;
    for (let e = m - 1; e >= 0; e--)
      next[e] = isSchemaError(fx.rest[fx.errPos[e] as number] as Violation)
        ? e
        : (next[e + 1] as number);
    fx.schemaNext = next;
  }
  return fx.schemaNext;
}

/**
 * The position in `fx.rest` of the first schema error from error `from` on (positions in
 * `errPos`) that the cut keeps, or -1. Steps from schema error to schema error (`schemaNext`).
 */
function schemaErrorFrom(
  fx: FastTables,
  from: number,
  k: number,
  headIds: Set<string> | null,
): number {
  const next = schemaNext(fx);
  for (let e = next[from] as number; e < fx.errPos.length; e = next[e + 1] as number) {
    const pos = fx.errPos[e] as number;
    if (survives(fx, pos, k, headIds)) return pos;
  }
  return -1;
}

/** The first schema error (`isSchemaError`) the cut keeps: met before any other error. */
function schemaErrorOf(fx: FastTables, p: Parts): Violation | null {
  for (const v of p.win) if (isSchemaError(v) && v.severity === 'error') return v;
  const pos = schemaErrorFrom(fx, lowerBoundAt(fx.restAt, fx.errPos, p.r), p.k, p.headIds);
  return pos < 0 ? null : renumber(fx.rest[pos] as Violation, p.delta());
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
    schemaErrorOf(fx, p) ??
    (p.a7 && p.a7.severity === 'error'
      ? p.a7
      : (p.win.find((v) => v.severity === 'error') ?? null));
  if (!firstError) {
    for (let e = lowerBoundAt(fx.restAt, fx.errPos, p.r); e < fx.errPos.length; e++) {
      const pos = fx.errPos[e] as number;
      if (survives(fx, pos, p.k, p.headIds)) {
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
      if (survives(fx, pos, p.k, p.headIds))
        violations.push(renumber(fx.rest[pos] as Violation, delta));
    memo = {
      provider: ctx.full.provider,
      valid: !violations.some((v) => v.severity === 'error'),
      violations: schemaFirst(violations),
      notes: ctx.full.notes,
    };
    return memo;
  };
  return { k: p.k, valid: firstError === null, firstError, validation };
}

/** The tool ids of a head, when the full validation has duplicate ids to drop; else null. */
function headIdsOf(ctx: CutContext, fx: FastTables, head: CutHead): Set<string> | null {
  if (fx.dupPrev.size === 0) return null;
  const ids = new Set<string>();
  for (const m of head.messages) for (const id of occurrenceIds(m, ctx.provider)) ids.add(id);
  return ids;
}

/** A window entry's `WindowRules` for r (kept on the entry: a memoised one is shared). */
function windowRules(entry: WindowEntry, r: number, anth: boolean): WindowRules {
  const kept = entry.rules;
  if (kept !== null && kept.r === r && kept.anth === anth) return kept;
  const w: WindowRules = { r, anth, schema: null, error: null, a7: null };
  for (const v of entry.validation.violations) {
    // As computeParts: the window's own violations before r, A7 apart.
    if (v.rule === 'empty_request') continue;
    if (anth && v.rule === 'tools_not_defined') {
      w.a7 = v;
      continue;
    }
    if (v.rule === 'thinking_missing' || v.index >= r || v.severity !== 'error') continue;
    if (w.schema === null && isSchemaError(v)) w.schema = v.rule;
    if (w.error === null) w.error = v.rule;
  }
  entry.rules = w;
  return w;
}

/**
 * Only the rule of the 400 a cut gives (`checkCut(ctx, k, head).firstError?.rule`), or null when
 * the cut is valid: the same search for the first error as `checkCut` over `computeParts`, read
 * from the window's `WindowRules` (its violations walked once per memoised window) and without
 * renumbering provider paths (a fleet scan's rows keep the rule alone). O(window + log V).
 */
export function cutFirstRule(ctx: CutContext, kIn: number, head: CutHead = NO_HEAD): string | null {
  const fx = ctx.fx;
  const k = normaliseCut(ctx, kIn);
  const r = fx ? resyncPoint(ctx, fx, k, head) : -1;
  if (!fx || r < 0) {
    const d = computeParts(ctx, kIn, head).direct as Validation;
    return d.violations.find((v) => v.severity === 'error')?.rule ?? null;
  }
  const anth = fx.merged;
  let w: WindowRules | null = null;
  if (!anth || windowHasNonPinned(ctx, k, head, r))
    w = windowRules(windowEntry(ctx, fx, k, head, r), r, anth);
  // A7 from r on when the window has none (computeParts: its rule and severity are fx.a7's).
  const a7 = w?.a7 ?? (anth && fx.a7 && (fx.nextToolNP[r] as number) < ctx.n ? fx.a7 : null);
  const headIds = headIdsOf(ctx, fx, head);
  // As checkCut: a schema error first (the window's, then the reused suffix's) …
  if (w?.schema) return w.schema;
  const from = lowerBoundAt(fx.restAt, fx.errPos, r);
  const schema = schemaErrorFrom(fx, from, k, headIds);
  if (schema >= 0) return (fx.rest[schema] as Violation).rule;
  // … then A7, the window's first error, the suffix's first surviving error.
  if (a7 && a7.severity === 'error') return a7.rule;
  if (w?.error) return w.error;
  for (let e = from; e < fx.errPos.length; e++) {
    const pos = fx.errPos[e] as number;
    if (survives(fx, pos, k, headIds)) return (fx.rest[pos] as Violation).rule;
  }
  return null;
}

/**
 * Only whether a cut is valid, without building error objects (the sweep's inner loop).
 * @returns true when the kept request would be accepted
 */
export function isCutValid(ctx: CutContext, kIn: number, head: CutHead = NO_HEAD): boolean {
  const fx = ctx.fx;
  const k = normaliseCut(ctx, kIn);
  const hasHead = head.messages.length > 0 || head.summary !== null;
  // Without a head the resync point is a function of k alone, so a cached verdict is read before
  // it is looked for (the sweep asks the same cuts for several policies).
  const cached = fx && !hasHead ? fx.cache.cutNoHead[k] : 0;
  if (cached) return cached === 1;
  const r = fx ? resyncPoint(ctx, fx, k, head) : -1;
  if (!fx || r < 0) return (computeParts(ctx, k, head).direct as Validation).valid;
  if (!hasHead) {
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
