/**
 * Pairing: every tool call with its result, by id, with a status per pair.
 *
 * This view is provider-neutral (it drives the arcs); each provider's validator applies its own
 * adjacency rules on top. Calls without ids (legacy OpenAI `function_call`, Gemini before ids)
 * are paired by position and name, as those APIs do.
 */
import type { Message, ToolResultBlock, ToolUseBlock } from './types.ts';

/** A block inside the transcript: message index (ours) and block index. */
export interface BlockRef {
  message: number;
  block: number;
}

/**
 * - `answered`: the result sits in the messages right after the call (the answer run).
 * - `answered_late`: a result exists, but not right after the call.
 * - `unanswered`: the call has no result anywhere.
 * - `orphan`: a result whose id matches no earlier call.
 * - `duplicate_id`: a second call reusing an id already used by an earlier call.
 * - `duplicate_result`: a second result for a call that was already answered.
 */
export const PAIR_STATUSES = [
  'answered',
  'answered_late',
  'unanswered',
  'orphan',
  'duplicate_id',
  'duplicate_result',
] as const;
export type PairStatus = (typeof PAIR_STATUSES)[number];

export interface ToolPair {
  /** Stable key for this pair within the transcript (`p0`, `p1`, …). */
  key: string;
  /** The tool_use id / tool_call_id (null when the source carries none). */
  id: string | null;
  name: string;
  call: BlockRef | null;
  result: BlockRef | null;
  status: PairStatus;
  /** An unanswered call whose siblings (other calls of the same message) were answered. */
  partial: boolean;
  /** Anthropic server tool (paired inside the assistant turn). */
  server: boolean;
}

/** True when a message carries at least one (client) tool result. */
export function hasToolResult(m: Message): boolean {
  // A plain loop: this runs for every user message of every transcript, twice per load.
  const blocks = m.blocks;
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i] as Message['blocks'][number];
    if (b.type === 'tool_result' && !b.server) return true;
  }
  return false;
}

/** True for an assistant message that holds only tool calls (a Responses `function_call` item). */
function isCallOnly(m: Message): boolean {
  if (m.role !== 'assistant' || m.blocks.length === 0) return false;
  for (const b of m.blocks)
    if (b.type !== 'tool_use' && b.type !== 'redacted_thinking') return false;
  return true;
}

/**
 * The answer run of message `i`: the consecutive messages after it that carry tool results
 * (role `tool`, or a user message with a `tool_result`). Parallel calls stored as separate
 * call-only assistant messages (Responses `function_call` items, one per call) are skipped
 * first, so their shared answer run counts for each of them. Returns [start, end) indices.
 */
export function answerRun(messages: readonly Message[], i: number): [number, number] {
  const start = answerRunStart(messages, i);
  return [start, answerRunEnd(messages, start)];
}

/** The start of `answerRun(messages, i)`: past the call-only messages after `i`. */
function answerRunStart(messages: readonly Message[], i: number): number {
  let j = i + 1;
  while (j < messages.length && isCallOnly(messages[j] as Message)) j++;
  return j;
}

/** The end (exclusive) of the answer run that starts at `start`, without allocating. */
function answerRunEnd(messages: readonly Message[], start: number): number {
  let j = start;
  while (j < messages.length) {
    const m = messages[j] as Message;
    if (m.role === 'tool' || (m.role === 'user' && hasToolResult(m))) j++;
    else break;
  }
  return j;
}

/**
 * Pair every tool_use with its tool_result.
 * @param messages the transcript's messages (any subset keeps working: indices are positions in
 *   the given array)
 * @returns one `ToolPair` per call, plus one per orphan or duplicate result, in source order of
 *   their first end. O(n) in blocks; one Set insertion per call with an id.
 *
 * A result is first looked for among the calls of the latest batch (the calls made since the
 * last result before them), by a short scan; only a result answering an older call (a late
 * answer, or an orphan) builds the id → call Map, once. With tens of thousands of ids, each Map
 * operation on a string key costs a hash and a compare of strings scattered over the heap;
 * testing/pairing.reference.ts is the plain one-Map version this one is property-tested against.
 */
export function pairToolCalls(messages: readonly Message[]): ToolPair[] {
  const s: PairingState = {
    messages,
    pairs: [],
    seenIds: new Set<string>(),
    byId: null,
    batch: [],
    lastResultMessage: -1,
    lastCallMessage: -1,
    pendingNoId: [],
    runEnd: new Int32Array(messages.length).fill(-1),
  };
  // Plain loops and object literals, no per-call helper objects: this runs over every block of
  // 100k-message transcripts.
  for (let mi = 0; mi < messages.length; mi++) {
    const blocks = (messages[mi] as Message).blocks;
    for (let bi = 0; bi < blocks.length; bi++) {
      const b = blocks[bi] as Message['blocks'][number];
      if (b.type === 'tool_use') addCall(s, b, mi, bi);
      else if (b.type === 'tool_result') addResult(s, b, mi, bi);
    }
  }
  markPartial(s.pairs, messages.length);
  return s.pairs;
}

/** What pairToolCalls carries from block to block (one object per call of pairToolCalls). */
interface PairingState {
  messages: readonly Message[];
  pairs: ToolPair[];
  /** Every tool_use id seen so far (a second call with one of them is `duplicate_id`). */
  seenIds: Set<string>;
  /** The open call of each id, built the first time a result is not found in `batch`. */
  byId: Map<string, ToolPair> | null;
  /** The calls with ids of the latest batch (duplicates excluded: a result answers the first call). */
  batch: ToolPair[];
  lastResultMessage: number;
  lastCallMessage: number;
  /** Calls without ids, per assistant message, waiting for a result by position and name. */
  pendingNoId: ToolPair[];
  /** Per message with calls: the end (exclusive) of its answer run, -1 until needed. */
  runEnd: Int32Array;
}

/** A tool_use: a new pair, unanswered (or `duplicate_id`), open for the results that follow. */
function addCall(s: PairingState, b: ToolUseBlock, mi: number, bi: number): void {
  const { pairs, batch } = s;
  const id = b.id;
  let duplicate = false;
  if (id !== null) {
    const before = s.seenIds.size;
    duplicate = s.seenIds.add(id).size === before;
  }
  const pair: ToolPair = {
    key: 'p' + pairs.length,
    id,
    name: b.name,
    call: { message: mi, block: bi },
    result: null,
    status: duplicate ? 'duplicate_id' : 'unanswered',
    partial: false,
    server: b.server === true,
  };
  pairs.push(pair);
  if (duplicate) return;
  if (id !== null) {
    // A call after a result starts a new batch; a huge batch falls back to the Map.
    if (s.lastResultMessage > s.lastCallMessage || batch.length >= MAX_BATCH) batch.length = 0;
    batch.push(pair);
    s.lastCallMessage = mi;
    if (s.byId !== null) s.byId.set(id, pair);
  } else {
    if (s.pendingNoId.length > 0 && s.pendingNoId[0]?.call?.message !== mi) s.pendingNoId = [];
    s.pendingNoId.push(pair);
  }
  if (s.runEnd[mi] === -1) s.runEnd[mi] = answerRunEnd(s.messages, answerRunStart(s.messages, mi));
}

/**
 * A tool_result: answers its call (`answered` inside the call's answer run, else
 * `answered_late`), or adds an `orphan` or `duplicate_result` pair.
 */
function addResult(s: PairingState, b: ToolResultBlock, mi: number, bi: number): void {
  const { pairs, batch } = s;
  s.lastResultMessage = mi;
  const ref = { message: mi, block: bi };
  const server = b.server !== undefined;
  const id = b.toolUseId;
  let call: ToolPair | undefined;
  if (id !== null) {
    for (let k = 0; k < batch.length; k++)
      if ((batch[k] as ToolPair).id === id) {
        call = batch[k];
        break;
      }
    if (call === undefined && s.seenIds.has(id)) call = (s.byId ??= openCalls(pairs)).get(id);
  } else call = findCallWithoutId(b, s.pendingNoId, mi);
  if (!call) {
    pairs.push(newPair(pairs.length, id, b.name ?? '', null, ref, 'orphan', server));
    return;
  }
  if (call.result !== null) {
    pairs.push(newPair(pairs.length, id, call.name, call.call, ref, 'duplicate_result', server));
    return;
  }
  call.result = ref;
  const cm = (call.call as BlockRef).message;
  const adjacent = server ? cm === mi : mi > cm && mi < (s.runEnd[cm] ?? -1);
  call.status = adjacent ? 'answered' : 'answered_late';
  if (id === null) s.pendingNoId = s.pendingNoId.filter((c) => c !== call);
}

/** Partial answers: an unanswered call with an answered sibling in the same message. */
function markPartial(pairs: readonly ToolPair[], messageCount: number): void {
  const answeredIn = new Uint8Array(messageCount);
  for (const p of pairs) if (p.call && p.result && !p.server) answeredIn[p.call.message] = 1;
  for (const p of pairs)
    if (p.status === 'unanswered' && p.call && answeredIn[p.call.message] === 1) p.partial = true;
}

/** Calls per batch scanned before a result falls back to the id → call Map. */
const MAX_BATCH = 64;

/** The id → call Map of the calls so far (the first call of each id; duplicates are skipped). */
function openCalls(pairs: readonly ToolPair[]): Map<string, ToolPair> {
  const byId = new Map<string, ToolPair>();
  for (const p of pairs)
    if (p.call !== null && p.id !== null && p.status !== 'duplicate_id') byId.set(p.id, p);
  return byId;
}

function newPair(
  n: number,
  id: string | null,
  name: string,
  call: BlockRef | null,
  result: BlockRef | null,
  status: PairStatus,
  server: boolean,
): ToolPair {
  return { key: 'p' + n, id, name, call, result, status, partial: false, server };
}

/** A result without an id answers the first open id-less call of its name, else the first. */
function findCallWithoutId(
  b: ToolResultBlock,
  pendingNoId: ToolPair[],
  mi: number,
): ToolPair | undefined {
  const open = pendingNoId.filter((c) => c.result === null && (c.call as BlockRef).message < mi);
  return open.find((c) => b.name !== undefined && c.name === b.name) ?? open[0];
}

/** Count pairs by status. */
export function pairCounts(pairs: readonly ToolPair[]): Record<PairStatus, number> {
  const out: Record<PairStatus, number> = {
    answered: 0,
    answered_late: 0,
    unanswered: 0,
    orphan: 0,
    duplicate_id: 0,
    duplicate_result: 0,
  };
  for (const p of pairs) out[p.status]++;
  return out;
}

/** True when a pair is broken (drawn red). */
export function isBroken(p: ToolPair): boolean {
  return p.status !== 'answered';
}
