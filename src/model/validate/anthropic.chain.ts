/**
 * The Anthropic validator along a chain of requests (`ChainValidate`, issue 40): the turns a
 * request shares with the last one are not checked again.
 */
import type { Message, Transcript } from '../types.ts';
import { checkTrailing } from './anthropic.prefill.ts';
import { checkSystemRole } from './anthropic.systemRole.ts';
import { checkThinking, isResultTurn, type LoopFloor } from './anthropic.thinking.ts';
import { checkCompactionBlocks, checkCompactionHead } from './compaction.ts';
import { anthropicEnvelope } from './catalogue/index.ts';
import { hasError, type Push } from './rules/common.ts';
import { roleOf, turnRole, type Turns } from './rules/turns.ts';
import { emptyRequest, hasToolBlock, toolsGiven } from './rules/request.ts';
import { isPinned } from '../exchanges.ts';
import type { ChainValidate, Violation } from './types.ts';
import { checkToolsDefined, checkTurn, newWalk, pushInto, type Walk } from './anthropic.walk.ts';

/** A chain's state (`anthropicChain`): what the requests it saw settled. */
interface Chain {
  /** The fields every request of the chain shares (the same objects). */
  settings: Transcript['settings'];
  tools: Transcript['tools'];
  raw: unknown;
  format: Transcript['format'];
  toolsUnrecorded: boolean | undefined;
  /** The last request's messages (not copied: a caller never changes a list it passed). */
  src: readonly Message[];
  /** Per message of `src`: how many of `msgs` and of `comp` come before it. */
  msgAt: number[];
  compAt: number[];
  /** The turns of those messages (`buildTurns`, grown as messages come): `start` has spare room. */
  msgs: Message[];
  start: Int32Array;
  count: number;
  /** A7: where in `src` the first message with a tool block is (−1: none), and the first unpinned. */
  firstTool: number;
  firstUnpinnedTool: number;
  /** Turns 0 … sealed − 1 are checked for good (neither they nor the turn after can change). */
  sealed: number;
  /** Their findings: A18 (`ids`) and the others, in turn order; AC1–AC3 of every message seen. */
  ids: Violation[];
  loop: Violation[];
  comp: Violation[];
  walk: Walk;
  /** The walk back to the open tool loop stops at the sealed turns (`checkThinking`). */
  floor: LoopFloor;
  /** Per sealed turn, what it changed, so it can be undone (`rewind`). */
  undo: TurnUndo[];
}

/** The state before a sealed turn was checked, and the ids it added to the walk's set. */
interface TurnUndo {
  ids: number;
  loop: number;
  sig: number;
  sigAny: boolean;
  floorLast: number;
  deferred: Set<string> | null;
  added: string[];
}

function newChain(t: Transcript): Chain {
  return {
    settings: t.settings,
    tools: t.tools,
    raw: t.raw,
    format: t.format,
    toolsUnrecorded: t.toolsUnrecorded,
    src: [],
    msgAt: [0],
    compAt: [0],
    msgs: [],
    start: new Int32Array(64),
    count: 0,
    firstTool: -1,
    firstUnpinnedTool: -1,
    sealed: 0,
    ids: [],
    loop: [],
    comp: [],
    walk: newWalk(t, new Set()),
    floor: { upTo: 0, last: -1 },
    undo: [],
  };
}

/** True when the request's fields but its messages are the chain's own (the same objects). */
function sameFields(c: Chain, t: Transcript): boolean {
  return (
    t.settings === c.settings &&
    t.tools === c.tools &&
    t.raw === c.raw &&
    t.format === c.format &&
    t.toolsUnrecorded === c.toolsUnrecorded
  );
}

/**
 * How many first messages of `source` are the chain's last request's (the same objects): every
 * one is compared (a rewritten request may share its first and last message with the last one
 * and not one in between), a pointer comparison per message.
 */
function commonPrefix(c: Chain, source: readonly Message[]): number {
  const n = Math.min(c.src.length, source.length);
  let p = 0;
  while (p < n && source[p] === c.src[p]) p++;
  return p;
}

/** Forget every message from `src[p]` on: the turns they touched and what those settled. */
function rewind(c: Chain, p: number): void {
  if (p >= c.src.length) return;
  const q = c.msgAt[p] as number;
  c.msgAt.length = p + 1;
  c.compAt.length = p + 1;
  c.comp.length = c.compAt[p] as number;
  if (c.firstTool >= p) c.firstTool = -1;
  if (c.firstUnpinnedTool >= p) c.firstUnpinnedTool = -1;
  c.msgs.length = q;
  while (c.count > 0 && (c.start[c.count - 1] as number) >= q) c.count--;
  c.start[c.count] = q;
  // A turn stays settled while neither it nor the turn after it changed.
  const keep = Math.min(c.sealed, Math.max(0, c.count - 2));
  const w = c.walk;
  while (c.sealed > keep) {
    const u = c.undo.pop() as TurnUndo;
    c.sealed--;
    for (const id of u.added) w.seen?.delete(id);
    w.deferred = new Set(u.deferred ?? []);
    w.sig.found.length = u.sig;
    w.sig.foundTurn.length = u.sig;
    w.sig.any = u.sigAny;
    c.ids.length = u.ids;
    c.loop.length = u.loop;
    c.floor.last = u.floorLast;
    c.floor.upTo = c.sealed;
  }
}

/** Adds the request's new messages to the chain's turns, A7's and AC1–AC3's records. */
function growChain(c: Chain, source: readonly Message[]): void {
  const pushComp = pushInto(c.comp);
  let lastRole = c.msgs.length > 0 ? roleOf(c.msgs[c.msgs.length - 1] as Message) : '';
  for (let i = c.msgAt.length - 1; i < source.length; i++) {
    const m = source[i] as Message;
    if (hasToolBlock(m)) {
      if (c.firstTool < 0) c.firstTool = i;
      if (c.firstUnpinnedTool < 0 && !isPinned(m)) c.firstUnpinnedTool = i;
    }
    checkCompactionBlocks(m, pushComp);
    if (!isPinned(m)) {
      const role = roleOf(m);
      if (role !== lastRole) {
        if (c.count + 2 > c.start.length) {
          const grown = new Int32Array(c.start.length * 2);
          grown.set(c.start);
          c.start = grown;
        }
        c.start[c.count++] = c.msgs.length;
      }
      lastRole = role;
      c.msgs.push(m);
    }
    c.msgAt.push(c.msgs.length);
    c.compAt.push(c.comp.length);
  }
  c.start[c.count] = c.msgs.length;
  c.src = source;
}

/** Checks turn `n` for good, keeping what it changes in `c.undo`. */
function sealTurn(c: Chain, T: Turns, n: number, pushLoop: Push, pushIds: Push): void {
  const w = c.walk;
  const added: string[] = [];
  c.undo.push({
    ids: c.ids.length,
    loop: c.loop.length,
    sig: w.sig.found.length,
    sigAny: w.sig.any,
    floorLast: c.floor.last,
    deferred: w.deferred.size > 0 ? new Set(w.deferred) : null,
    added,
  });
  w.added = added;
  checkTurn(T, n, w, pushLoop, pushIds);
  w.added = null;
  if (turnRole(T, n) === 'user' && !isResultTurn(T, n)) c.floor.last = n;
  c.floor.upTo = n + 1;
}

/**
 * The Anthropic validator along a chain of requests (`ChainValidate`): a turn is checked once for
 * good when neither it nor the turn after it can change (every turn but the last two, since the
 * last turn may still grow by merging); the last two turns and the end-of-request rules (A12,
 * T1–T4, AC4) are checked on each request, with what they add to the walk's state undone after.
 * A request that shares only its first messages with the last one (a rewritten tail) undoes the
 * turns from the first message that differs. A request costs its new messages, its last two
 * turns and a copy of the findings (and, when it does not simply extend the last one, a
 * comparison of its messages with the last one's).
 */
export function anthropicChain(): ChainValidate {
  let c: Chain | null = null;
  return (t, opts = {}) => {
    const source = opts.messages ?? t.messages;
    if (c === null || !sameFields(c, t)) c = newChain(t);
    rewind(c, commonPrefix(c, source));
    growChain(c, source);
    const T: Turns = { msgs: c.msgs, start: c.start, count: c.count };
    const w = c.walk;
    const pushLoop = pushInto(c.loop);
    const pushIds = pushInto(c.ids);
    for (; c.sealed < T.count - 2; c.sealed++) sealTurn(c, T, c.sealed, pushLoop, pushIds);

    const notes: string[] = [];
    // A19, over the whole list: only an Anthropic body is checked, and a chain of those is rare.
    const roles: Violation[] = [];
    checkSystemRole(t, source, pushInto(roles));
    const head: Violation[] = [];
    const empty =
      c.msgs.length > 0 ? null : emptyRequest(source, 'A14', 'beside', anthropicEnvelope);
    if (empty) head.push(empty);
    const given = toolsGiven(t);
    checkToolsDefined(
      given === 'unknown'
        ? 'unknown'
        : given === 'some' || c.firstUnpinnedTool < 0
          ? null
          : (source[c.firstTool] as Message),
      pushInto(head),
      notes,
    );

    // The last turns, their changes to the walk's state undone after.
    const deferred = new Set(w.deferred);
    const sigFound = w.sig.found.length;
    const sigAny = w.sig.any;
    const added: string[] = [];
    w.added = added;
    const tail: Violation[] = [];
    const tailIds: Violation[] = [];
    const pushTail = pushInto(tail);
    const pushTailIds = pushInto(tailIds);
    for (let n = c.sealed; n < T.count; n++) checkTurn(T, n, w, pushTail, pushTailIds);
    w.added = null;
    const end: Violation[] = [];
    const pushEnd = pushInto(end);
    checkTrailing(t, T, opts, pushEnd, notes);
    checkThinking(t, T, w.sig, pushEnd, notes, c.floor);
    checkCompactionHead(t, source, pushEnd);
    for (const id of added) w.seen?.delete(id);
    w.deferred = deferred;
    w.sig.found.length = sigFound;
    w.sig.foundTurn.length = sigFound;
    w.sig.any = sigAny;

    // concat, not a spread: the settled findings are copied as a block (a chain's lists grow long).
    const violations = roles.concat(c.ids, tailIds, head, c.loop, tail, end, c.comp);
    return { provider: 'anthropic', valid: !hasError(violations), violations, notes };
  };
}
