/**
 * Next-turn pairing, written once for every provider whose calls are answered by the turn after
 * them (Anthropic A1–A6b, Bedrock B1/B2, Gemini G1/G3). A provider is a `PairingSpec` (data);
 * these functions find what breaks it and hand each finding to the provider, which gives it its
 * code, path and exact text from the rule catalogue. Called turn by turn from the provider's own
 * scan, so findings keep the order in which the provider meets them.
 */
import type { Block, Message, ToolUseBlock } from '../../types.ts';
import type { RenderedItem, RuleId } from '../types.ts';
import { turnRole, type Turns } from './turns.ts';

/** How a provider pairs a turn's calls with the next turn's results. */
export interface PairingSpec {
  /**
   * Which results of the next turn answer the calls: the run of results that opens it
   * (`leading`, Anthropic A3: anything before a result leaves the calls unanswered) or every
   * result in it (`anywhere`: Bedrock, Gemini).
   */
  answers: 'leading' | 'anywhere';
  /**
   * A call is answered by a result naming its id (`id`: Anthropic, Bedrock), or the next turn
   * must hold as many results as the turn has calls (`count`: Gemini; which calls are open is
   * then told by id when every call and result has one, else by position).
   */
  match: 'id' | 'count';
  /**
   * How a result that answers nothing is found: each result whose id the previous turn does not
   * call (`each`: Anthropic A1); once per turn when it holds more results than the previous turn
   * has calls (`excess`: Bedrock B1); once per turn when the previous turn calls nothing
   * (`no-call-turn`: Gemini G1, which checks turn order, not ids).
   */
  orphans: 'each' | 'excess' | 'no-call-turn';
  /** Two results naming one call are an error (Anthropic A6b). */
  duplicateResults: boolean;
  /** A call must be the last block of its turn (Anthropic A5). */
  callsLast: boolean;
}

/** A block of a turn, with its position in the turn's content (`messages.N.content.M`). */
export interface TurnBlock extends RenderedItem {
  pos: number;
}

/** What breaks pairing, as the provider meets it. `n` is the turn holding the cause. */
export type PairFinding =
  | { kind: 'result_without_id'; n: number; at: TurnBlock }
  /** Results answering no call of the previous turn (one per result for `each`). */
  | { kind: 'orphan'; n: number; at: TurnBlock; results: TurnBlock[]; excess: boolean }
  /** Two results for one call: `first` is the content position of its first result. */
  | { kind: 'duplicate_result'; n: number; at: TurnBlock; id: string; first: number }
  /** More results in the next turn than the call turn has calls (`count` match). */
  | { kind: 'excess'; n: number; at: TurnBlock; results: TurnBlock[] }
  /** Calls of turn `n` left open; `rule` says how (trailing, partial, results not first, A5). */
  | {
      kind: 'open';
      n: number;
      rule: RuleId;
      /** The first open call (or, when a count cannot tell which, the turn's first call). */
      at: TurnBlock;
      calls: TurnBlock[];
      followedOnly: boolean;
    }
  /** Counts agree but a result names an id the call turn did not use (`count` match). */
  | { kind: 'stray_id'; n: number; at: TurnBlock; results: TurnBlock[] };

/**
 * Where the pairing functions put their findings: an array the provider drains after each call
 * (not a callback, so a check creates no closure per turn: issue 17).
 */
export type PairFindings = PairFinding[];

/** True for a tool_use the client runs (not an Anthropic server tool). */
export function isClientCall(b: Block): b is ToolUseBlock {
  return b.type === 'tool_use' && b.server !== true;
}

/** True for a client tool_use that carries an id. */
function isClientCallWithId(b: Block): boolean {
  return isClientCall(b) && b.id !== null;
}

/** True for a result of a client tool (not an Anthropic server tool's result). */
export function isClientResult(b: Block): boolean {
  return b.type === 'tool_result' && b.server === undefined;
}

/** The tool id a call or result carries, or null. */
export function idOf(b: Block): string | null {
  return b.type === 'tool_use' ? b.id : b.type === 'tool_result' ? b.toolUseId : null;
}

/** The ids of some blocks, skipping the ones without. */
export function idsOf(list: readonly TurnBlock[]): string[] {
  const out: string[] = [];
  for (const it of list) {
    const id = idOf(it.block);
    if (id !== null) out.push(id);
  }
  return out;
}

/**
 * Does assistant turn `n` call this id? A linear scan: a turn holds a handful of calls, and a Set
 * per turn costs more on 100k-message transcripts.
 */
export function callsId(T: Turns, n: number, id: string): boolean {
  if (n < 0 || n >= T.count || turnRole(T, n) !== 'assistant') return false;
  for (let s = T.start[n] as number; s < (T.start[n + 1] as number); s++) {
    const blocks = (T.msgs[s] as Message).blocks;
    for (let bi = 0; bi < blocks.length; bi++) {
      const b = blocks[bi] as Block;
      if (isClientCall(b) && b.id === id) return true;
    }
  }
  return false;
}

/** The blocks of turn `n` that pass `keep`, with their content positions. */
export function blocksOf(T: Turns, n: number, keep: (b: Block) => boolean): TurnBlock[] {
  const out: TurnBlock[] = [];
  if (n < 0 || n >= T.count) return out;
  let pos = 0;
  for (let s = T.start[n] as number; s < (T.start[n + 1] as number); s++) {
    const msg = T.msgs[s] as Message;
    for (let bi = 0; bi < msg.blocks.length; bi++, pos++) {
      const block = msg.blocks[bi] as Block;
      if (keep(block)) out.push({ block, msg, blockIndex: bi, pos });
    }
  }
  return out;
}

/** Scratch of `pairResultTurn`'s duplicate check (ids answered in the turn, their position). */
const ANSWERED: string[] = [];
const ANSWERED_AT: number[] = [];

/**
 * The results of turn `n` (a user turn) against the calls of the turn before it: results without
 * an id, orphans (by the spec's `orphans`) and, with `duplicateResults`, the first id answered
 * twice. Findings go to `found` in content order.
 */
export function pairResultTurn(T: Turns, n: number, spec: PairingSpec, found: PairFindings): void {
  if (spec.orphans !== 'each') return pairResultTurnByCount(T, n, spec, found);
  let answered = 0;
  let duplicateFound = false;
  let pos = 0;
  for (let s = T.start[n] as number; s < (T.start[n + 1] as number); s++) {
    const msg = T.msgs[s] as Message;
    for (let bi = 0; bi < msg.blocks.length; bi++, pos++) {
      const b = msg.blocks[bi] as Block;
      if (b.type !== 'tool_result' || b.server !== undefined) continue;
      const id = b.toolUseId;
      if (id === null) {
        found.push({ kind: 'result_without_id', n, at: { block: b, msg, blockIndex: bi, pos } });
        continue;
      }
      if (!callsId(T, n - 1, id)) {
        const at = { block: b, msg, blockIndex: bi, pos };
        found.push({ kind: 'orphan', n, at, results: [at], excess: false });
        continue;
      }
      if (!spec.duplicateResults || duplicateFound) continue;
      let k = 0;
      while (k < answered && ANSWERED[k] !== id) k++;
      if (k === answered) {
        ANSWERED[answered] = id;
        ANSWERED_AT[answered++] = pos;
        continue;
      }
      duplicateFound = true;
      const at = { block: b, msg, blockIndex: bi, pos };
      found.push({ kind: 'duplicate_result', n, at, id, first: ANSWERED_AT[k] as number });
    }
  }
}

/** `excess` and `no-call-turn` orphans: once per turn, decided by counts and turn order. */
function pairResultTurnByCount(T: Turns, n: number, spec: PairingSpec, found: PairFindings): void {
  const results = blocksOf(T, n, isClientResult);
  if (results.length === 0) return;
  const prevCalls =
    n > 0 && turnRole(T, n - 1) === 'assistant'
      ? blocksOf(T, n - 1, spec.match === 'count' ? isClientCall : isClientCallWithId)
      : [];
  if (spec.orphans === 'no-call-turn') {
    if (prevCalls.length === 0)
      found.push({ kind: 'orphan', n, at: results[0] as TurnBlock, results, excess: false });
    return;
  }
  if (results.length <= prevCalls.length) return;
  const called = new Set(idsOf(prevCalls));
  const stray = results.filter((r) => !called.has(idOf(r.block) as string));
  const at = (stray[0] ?? results[prevCalls.length]) as TurnBlock;
  found.push({
    kind: 'orphan',
    n,
    at,
    results: stray.length > 0 ? stray : results,
    excess: stray.length === 0,
  });
}

/** What a provider's scan of a call turn learnt while it walked the turn's blocks. */
export interface CallTurnStats {
  /** Client calls in the turn (with or without an id). */
  callCount: number;
  /** Content position of the turn's last block that is not a client call, or −1 (A5). */
  lastOther: number;
}

/**
 * Count a call turn's client calls and its last other block, for providers without a scan of
 * their own.
 * @param withId count only the calls that carry an id (Bedrock counts toolUse ids)
 */
export function callTurnStats(T: Turns, n: number, withId = false): CallTurnStats {
  let callCount = 0;
  let lastOther = -1;
  let pos = 0;
  for (let s = T.start[n] as number; s < (T.start[n + 1] as number); s++)
    for (const b of (T.msgs[s] as Message).blocks) {
      if (isClientCall(b)) {
        if (!withId || b.id !== null) callCount++;
      } else lastOther = pos;
      pos++;
    }
  return { callCount, lastOther };
}

/** Scratch list of the ids answered by the next turn (its first entries are overwritten). */
const ANSWER_IDS: (string | null)[] = [];

/**
 * The calls of assistant turn `n` against the results of the turn after it: the calls left open
 * (`open`, classified as the provider words it), or with a `count` match the results in excess
 * or with ids the turn did not use.
 */
export function pairCallTurn(
  T: Turns,
  n: number,
  spec: PairingSpec,
  stats: CallTurnStats,
  found: PairFindings,
): void {
  if (stats.callCount === 0) return;
  const hasNext = n + 1 < T.count;
  const nextIsUser = hasNext && turnRole(T, n + 1) === 'user';
  let answers = 0;
  let anyAnswer = false;
  let late = false;
  if (nextIsUser) {
    let inRun = true;
    for (let s = T.start[n + 1] as number; s < (T.start[n + 2] as number) && !late; s++) {
      const blocks = (T.msgs[s] as Message).blocks;
      for (let bi = 0; bi < blocks.length; bi++) {
        const b = blocks[bi] as Block;
        if (isClientResult(b) && (inRun || spec.answers === 'anywhere')) {
          const id = (b as { toolUseId: string | null }).toolUseId;
          ANSWER_IDS[answers++] = id;
          if (id !== null) anyAnswer = true;
        } else if (inRun) inRun = false;
        else if (isClientResult(b)) {
          late = true; // A3: a result after other content
          break;
        }
      }
    }
  }
  if (spec.match === 'count') return pairByCount(T, n, hasNext, answers, found);
  let open: TurnBlock[] | null = null;
  let unanswered = 0;
  let followedOnly = 0;
  let pos = 0;
  for (let s = T.start[n] as number; s < (T.start[n + 1] as number); s++) {
    const msg = T.msgs[s] as Message;
    for (let bi = 0; bi < msg.blocks.length; bi++, pos++) {
      const b = msg.blocks[bi] as Block;
      if (!isClientCall(b) || b.id === null) continue;
      let k = 0;
      while (k < answers && ANSWER_IDS[k] !== b.id) k++;
      const isOpen = k === answers;
      const followed = spec.callsLast && pos < stats.lastOther;
      if (!isOpen && !followed) continue;
      (open ??= []).push({ block: b, msg, blockIndex: bi, pos });
      if (isOpen) unanswered++;
      else followedOnly++;
    }
  }
  if (open === null) return;
  const rule: RuleId = !hasNext
    ? 'trailing_tool_use'
    : unanswered === 0
      ? 'content_after_tool_use'
      : late
        ? 'tool_result_not_first'
        : anyAnswer && unanswered < stats.callCount
          ? 'partial_answer'
          : 'unanswered_tool_use';
  const at = open[0] as TurnBlock;
  found.push({ kind: 'open', n, rule, at, calls: open, followedOnly: followedOnly > 0 });
}

/** `count` match (Gemini): the next turn must hold exactly one result per call. */
function pairByCount(
  T: Turns,
  n: number,
  hasNext: boolean,
  answers: number,
  found: PairFindings,
): void {
  const calls = blocksOf(T, n, isClientCall);
  if (!hasNext) {
    const at = calls[0] as TurnBlock;
    found.push({ kind: 'open', n, rule: 'trailing_tool_use', at, calls, followedOnly: false });
    return;
  }
  const results = answers > 0 ? blocksOf(T, n + 1, isClientResult) : [];
  if (results.length === calls.length) {
    const called = new Set(idsOf(calls));
    const stray = results.filter((r) => {
      const id = idOf(r.block);
      return id !== null && called.size > 0 && !called.has(id);
    });
    if (stray.length > 0)
      found.push({ kind: 'stray_id', n, at: stray[0] as TurnBlock, results: stray });
    return;
  }
  if (results.length > calls.length) {
    found.push({ kind: 'excess', n, at: results[calls.length] as TurnBlock, results });
    return;
  }
  const answered = new Set(idsOf(results));
  const byId =
    calls.every((c) => idOf(c.block) !== null) && results.every((r) => idOf(r.block) !== null);
  const open = byId
    ? calls.filter((c) => !answered.has(idOf(c.block) as string))
    : calls.slice(results.length);
  const rule = results.length === 0 ? 'unanswered_tool_use' : 'partial_answer';
  const at = (open[0] ?? calls[0]) as TurnBlock;
  found.push({ kind: 'open', n, rule, at, calls: open, followedOnly: false });
}
