/**
 * Repair: for each violation of the chosen provider, the fix that keeps the most history, done
 * the way the agent loop should have done it (rule codes from the rule catalogue, docs/rules.md):
 *
 * - an unanswered call (A2, O2) gets an error result (`is_error: true`; a `tool` message for the
 *   OpenAI family) with a short message naming the cause, at the start of the next user message
 *   or in a new message right after the call — unless its real result exists elsewhere, which is
 *   then moved there (re-attached; split parallel results are merged the same way, B2);
 * - text placed before the tool results (A3) is moved after them; content after a tool_use in its
 *   assistant turn (A5) is moved in front of the calls;
 * - an orphan result (A1, O1, O3) is re-attached where its call is still present; when the call
 *   is gone it is removed — with its whole exchange when it sits in a leading partial exchange
 *   (a trim cut the exchange's head) and a later exchange exists;
 * - duplicate results (A6b, O6) are collapsed to the one next to the call;
 * - a replayed turn (duplicate tool_use ids, A6) is removed, or the repeated calls in it;
 * - empty messages and empty or whitespace-only text blocks (A10, A11) are removed; a prefill's
 *   trailing whitespace (A12) is trimmed;
 * - what cannot be repaired without inventing content (a stripped thinking block, a lost
 *   reasoning item, missing tool definitions, a rejected prefill) is explained in `unrepaired`.
 *
 * Messages the repair does not touch keep their objects (see the identity contract in
 * `faults.ts`); new or changed messages have `raw: undefined`.
 */
import { groupExchanges } from './exchanges.ts';
import { derivedMessage, reindexForView, withMessages } from './faults.ts';
import { answerRun, hasToolResult, pairToolCalls } from './pairing.ts';
import { parserFor } from './parse/registry.ts';
import type { Block, Message, ProviderId, ToolResultBlock, Transcript } from './types.ts';
import {
  DEFAULT_PROVIDER,
  validateTranscript,
  type RuleId,
  type Validation,
  type Violation,
} from './validate/index.ts';

export type RepairKind =
  | 'error_result_added'
  | 'result_reattached'
  | 'results_merged'
  | 'text_moved'
  | 'orphan_removed'
  | 'exchange_removed'
  | 'duplicate_result_removed'
  | 'replayed_turn_removed'
  | 'duplicate_call_removed'
  | 'empty_removed'
  | 'whitespace_trimmed'
  | 'error_result_filled'
  | 'item_id_dropped'
  | 'reasoning_removed';

export interface RepairChange {
  kind: RepairKind;
  /** Position in the input transcript of the message the change is about (the call's message for an added result, the removed or edited message). */
  messageIndex: number;
  /** Position in the repaired transcript of the message written (new or changed), or null for a pure removal. */
  outputIndex: number | null;
  /** Input positions of the input messages this change replaced (by an edited copy) or removed; every other input message is kept as the same object. */
  replaced: number[];
  /** Tool ids involved. */
  ids: string[];
  /** One sentence: what was done and why. */
  note: string;
}

export interface Unrepaired {
  rule: RuleId;
  /** Provider rule code (`T1`, `R3`, …). */
  code: string;
  /** Raw index of the message (as the validator reports it). */
  messageIndex: number;
  ids: string[];
  /** The provider's error text, verbatim. */
  message: string;
  /** Why the repair did not fix it, and what would. */
  note: string;
}

export interface RepairResult {
  transcript: Transcript;
  changes: RepairChange[];
  /** Errors still present after repair, each explained. Empty when `validation.valid`. */
  unrepaired: Unrepaired[];
  /** Validation of the repaired transcript for the provider. */
  validation: Validation;
  provider: ProviderId;
}

/** Why a rule is not repaired automatically, and what would fix it. */
export const UNREPAIRABLE_NOTES: Partial<Record<RuleId, string>> = {
  thinking_missing:
    'The thinking block that opened this tool loop was stripped. Its signature is opaque and cannot be recreated, so the repair does not fake one: keep the original thinking blocks, disable thinking for this request, or close the tool loop with a new user turn.',
  thinking_last:
    'The assistant message ends with a thinking block; the text or calls it led to are lost and cannot be invented. Restore the original response or drop the thinking block by hand.',
  thinking_when_disabled:
    'The final assistant message carries thinking while thinking is disabled. Enable thinking (the signed block is needed) or remove the block by hand; the repair does not decide which.',
  invalid_signature:
    "A thinking signature belongs to another model or conversation; it cannot be re-signed. Drop that turn's thinking blocks or send it to the model that produced them.",
  reasoning_missing:
    'The encrypted reasoning item this item depended on is lost and cannot be rebuilt. Replay the items without their ids (content only) or include the original reasoning item.',
  reasoning_without_following:
    'A reasoning item lost the item that followed it; the output it led to cannot be invented. Drop the reasoning item or restore its output item.',
  duplicate_item:
    'The same item id is sent twice (or an item already held by previous_response_id is re-sent); send each item once.',
  thought_signature_missing:
    'The thought signature of this function call was dropped; it is opaque and cannot be recreated. Keep the signatures from the original response, or start a new turn.',
  mixed_result_and_text:
    'Some Bedrock model families refuse text next to tool results in one user turn; splitting it would put two user messages in a row (B4), so it is left to you.',
  tools_not_defined:
    'The request holds tool blocks but defines no tools; the repair cannot invent tool schemas. Add the original `tools` definitions.',
  missing_tool_id: 'The block has no id, so the repair cannot tell which call it belongs to.',
  duplicate_tool_use_id:
    'Two calls in the same assistant turn share one id, so a result cannot say which of them it answers; the repair does not guess. Give each call its own id (as the model did) or drop the copy by hand.',
  trailing_assistant:
    'The request ends on an assistant message, which this model refuses as a prefill. The next message must come from the user; the repair does not invent what the user said.',
  server_tool_unanswered:
    'Server tool results are produced by the provider; the repair cannot create one. Drop the server_tool_use or keep its result in the same turn.',
  server_tool_orphan:
    'This server tool result lost its server_tool_use; the repair does not invent provider-side calls.',
  first_message_role:
    'The first message is not from the user and no later exchange starts with one; the repair does not invent a user message.',
  role_order:
    'The roles are out of the order this provider accepts (Mistral, for one, wants an assistant message between tool results and the next user message); the repair does not invent messages to fix the order.',
  same_role_neighbours:
    'Two messages with the same role are neighbours; merging them changes what the model saw, so it is left to you.',
  count_mismatch:
    'The number of results differs from the number of calls and the calls carry no ids to match them by.',
  empty_request:
    'The request holds no message (a trim or converter left nothing); the repair does not invent one. Keep at least the last exchange.',
};

const DEFAULT_NOTE = 'No automatic repair for this rule.';

interface Ref {
  message: number;
  block: number;
}

type Style = 'user' | 'tool';

function isClientResult(b: Block): b is ToolResultBlock {
  return b.type === 'tool_result' && b.server === undefined;
}

function isClientCall(b: Block, id?: string): boolean {
  return b.type === 'tool_use' && b.server !== true && (id === undefined || b.id === id);
}

function sameBlocks(a: Message, b: Message): boolean {
  return a.role === b.role && JSON.stringify(a.blocks) === JSON.stringify(b.blocks);
}

/** Short cause text for a synthetic error result, by the shape around the call. */
function causeText(rule: RuleId, next: Message | undefined): string {
  if (!next)
    return 'Error: no result was recorded. The loop stopped (or the history was cut) before this tool call returned.';
  if (rule === 'partial_answer')
    return 'Error: no result was recorded for this call while its parallel siblings returned (it timed out or raised).';
  if (next.role === 'user' && !next.blocks.some(isClientResult))
    return "Error: the tool call was interrupted before it returned; the user's next message came first.";
  return 'Error: the tool did not return a result (it raised, or the loop never stored its output).';
}

/** Mutable repair state: the working message list and each message's origin in the input. */
class Work {
  msgs: Message[];
  readonly origin = new Map<Message, number>();
  /** Tool ids (calls and results) of every message edited, inserted or removed in this round. */
  readonly touchedIds = new Set<string>();
  /** A replaced message → its replacement (null when removed), to resolve change targets. */
  readonly successor = new Map<Message, Message | null>();
  readonly input: readonly Message[];
  readonly changes: {
    kind: RepairKind;
    origin: number;
    target: Message | null;
    replaced: number[];
    ids: string[];
    note: string;
  }[] = [];
  private readonly inputSet: ReadonlySet<Message>;
  private pending: number[] = [];
  readonly style: Style;
  readonly t: Transcript;
  readonly provider: ProviderId;

  constructor(t: Transcript, provider: ProviderId) {
    this.t = t;
    this.provider = provider;
    this.input = t.messages;
    this.msgs = [...t.messages];
    this.msgs.forEach((m, i) => this.origin.set(m, i));
    this.inputSet = new Set(t.messages);
    this.style =
      t.messages.some((m) => m.role === 'tool') || parserFor(t.format)?.resultStyle === 'tool'
        ? 'tool'
        : 'user';
  }

  originOf(m: Message | undefined): number {
    return m ? (this.origin.get(m) ?? 0) : 0;
  }

  /** Note the tool ids of a message that is being edited, inserted or removed. */
  touch(m: Message | undefined): void {
    if (!m) return;
    for (const b of m.blocks) {
      if (b.type === 'tool_use' && b.id !== null) this.touchedIds.add(b.id);
      else if (b.type === 'tool_result' && b.toolUseId !== null) this.touchedIds.add(b.toolUseId);
    }
  }

  /** Replace message `i` by a derived copy with new blocks (removed when left empty). */
  setBlocks(i: number, blocks: Block[]): Message | null {
    const m = this.msgs[i] as Message;
    this.touch(m);
    for (const b of blocks) this.touch({ ...m, blocks: [b] });
    if (blocks.length === 0) {
      this.remove(i);
      return null;
    }
    const n = derivedMessage(m, { blocks });
    if (this.inputSet.has(m)) this.pending.push(this.originOf(m));
    this.origin.set(n, this.originOf(m));
    this.successor.set(m, n);
    this.msgs[i] = n;
    return n;
  }

  /** Replace message `i` by `n` (derived from it). */
  replace(i: number, n: Message): void {
    const m = this.msgs[i] as Message;
    this.touch(m);
    if (this.inputSet.has(m)) this.pending.push(this.originOf(m));
    this.origin.set(n, this.originOf(m));
    this.successor.set(m, n);
    this.msgs[i] = n;
  }

  remove(i: number): void {
    const [m] = this.msgs.splice(i, 1);
    if (!m) return;
    this.touch(m);
    if (this.inputSet.has(m)) this.pending.push(this.originOf(m));
    this.successor.set(m, null);
  }

  /** The message that now stands for `m` (after later edits), or null when it was removed. */
  resolve(m: Message | null): Message | null {
    let cur = m;
    const seen = new Set<Message>();
    while (cur && this.successor.has(cur) && !seen.has(cur)) {
      seen.add(cur);
      cur = this.successor.get(cur) ?? null;
    }
    return cur;
  }

  insert(i: number, m: Message, from: Message): void {
    this.touch(m);
    this.origin.set(m, this.originOf(from));
    this.msgs.splice(i, 0, m);
  }

  note(
    kind: RepairKind,
    about: Message | undefined,
    target: Message | null,
    ids: string[],
    note: string,
  ): void {
    this.changes.push({
      kind,
      origin: this.originOf(about),
      target,
      replaced: [...new Set(this.pending)].sort((a, b) => a - b),
      ids,
      note,
    });
    this.pending = [];
  }

  transcript(): Transcript {
    return withMessages(this.t, this.msgs, this.input);
  }

  /** The working messages as of the last `check()`: a violation's `index` is a position here. */
  private checked: readonly Message[] = [];

  /**
   * Validate the working messages for the provider. The validated view numbers each message by
   * its position (`reindexForView`), so a violation's `index` names one working message even
   * where indices repeat (an un-reindexed retry copy or inserted result) or raw indices repeat
   * (retry copies, split Vercel AI / Gemini CLI messages). Messages are not copied in `msgs`.
   * @returns the provider's validation of the working transcript
   */
  check(): Validation {
    const t = this.transcript();
    this.checked = [...this.msgs];
    return validateTranscript(reindexForView(t), this.provider);
  }

  /**
   * The working message that held a violation's cause (`Violation.index`) at the last `check()`
   * (it may have been removed since), or undefined for index −1.
   */
  causeOf(v: Violation): Message | undefined {
    return this.checked[v.index];
  }

  /**
   * Where the answer to the calls of message `c` goes, as [start, end): `start` is the message
   * that must carry the results (Anthropic merges consecutive assistant messages into one turn;
   * the Responses API lets parallel call items share one run; everyone else wants the very next
   * message), `end` the end of the run of result-carrying messages from there.
   */
  run(c: number): [number, number] {
    if (this.provider === 'openai-responses') return answerRun(this.msgs, c);
    let j = c + 1;
    if (this.provider === 'anthropic') {
      while (j < this.msgs.length) {
        const r = (this.msgs[j] as Message).role;
        if (r === 'assistant' || r === 'system' || r === 'developer') j++;
        else break;
      }
    }
    const start = j;
    while (j < this.msgs.length) {
      const m = this.msgs[j] as Message;
      if (m.role === 'tool' || (m.role === 'user' && hasToolResult(m))) j++;
      else break;
    }
    return [start, j];
  }

  /** The assistant message holding the client call `id` (the first, when duplicated). */
  callMessage(id: string): number {
    return this.msgs.findIndex(
      (m) => m.role === 'assistant' && m.blocks.some((b) => isClientCall(b, id)),
    );
  }

  /** Every client tool_result answering `id`. */
  resultsFor(id: string): Ref[] {
    const out: Ref[] = [];
    this.msgs.forEach((m, mi) =>
      m.blocks.forEach((b, bi) => {
        if (isClientResult(b) && b.toolUseId === id) out.push({ message: mi, block: bi });
      }),
    );
    return out;
  }

  /** Remove one block; returns the removed block. Messages left empty are removed. */
  takeBlock(r: Ref): Block {
    const m = this.msgs[r.message] as Message;
    const b = m.blocks[r.block] as Block;
    this.setBlocks(
      r.message,
      m.blocks.filter((_, k) => k !== r.block),
    );
    return b;
  }

  /**
   * Put result blocks where the loop should have: at the start of the next user message (after
   * the results already there), or in a new message right after the call; the OpenAI family gets
   * one `tool` message per result, at the end of the call's tool run.
   * @returns the message written
   */
  placeResults(c: number, blocks: ToolResultBlock[]): Message {
    const call = this.msgs[c] as Message;
    const [start, end] = this.run(c);
    const first = this.msgs[start];
    if (this.style === 'user' && first && first.role === 'user') {
      const lead = first.blocks.findIndex((b) => !isClientResult(b));
      const at = lead < 0 ? first.blocks.length : lead;
      return this.setBlocks(start, [
        ...first.blocks.slice(0, at),
        ...blocks,
        ...first.blocks.slice(at),
      ]) as Message;
    }
    if (this.style === 'user') {
      const m = derivedMessage(call, { role: 'user', blocks }, true);
      this.insert(start, m, call);
      return m;
    }
    let last: Message = call;
    blocks.forEach((b, k) => {
      const m = derivedMessage(call, { role: 'tool', blocks: [b] }, true);
      this.insert(end + k, m, call);
      last = m;
    });
    return last;
  }
}

/**
 * Unanswered, partial, trailing, text-first: answer every id the provider reports missing. The
 * validator decides what is missing; this decides how: reorder the answering message when the
 * result is in it behind other content, move the real result there when it sits elsewhere, or
 * add an error result naming the cause.
 */
function fixMissing(w: Work, v: Violation): boolean {
  let changed = false;
  // The cause is read from the shape before this fix adds anything.
  const causes = new Map<string, string>();
  for (const id of v.ids) {
    const c = w.callMessage(id);
    if (c >= 0) causes.set(id, causeText(v.rule, w.msgs[w.run(c)[0]]));
  }
  for (const id of v.ids) {
    const c = w.callMessage(id);
    if (c < 0) continue;
    const [start, end] = w.run(c);
    const results = w.resultsFor(id);
    const firstAnswer = w.msgs[start];
    const lead = firstAnswer ? firstAnswer.blocks.findIndex((b) => !isClientResult(b)) : -1;
    // Text before the results in the answering message: move the text after them (A3).
    const inFirst = results.find((r) => r.message === start);
    if (firstAnswer && inFirst && firstAnswer.role === 'user') {
      if (lead >= 0 && inFirst.block > lead) {
        const others = firstAnswer.blocks.filter((b) => !isClientResult(b));
        const n = w.setBlocks(start, [...firstAnswer.blocks.filter(isClientResult), ...others]);
        w.note(
          'text_moved',
          firstAnswer,
          n,
          firstAnswer.blocks.filter(isClientResult).map((b) => b.toolUseId ?? ''),
          `Moved ${others.length} block${others.length === 1 ? '' : 's'} after the tool results: results must come first in the message that answers the calls.`,
        );
        changed = true;
      }
      continue;
    }
    // A real result elsewhere: move it next to its call.
    const away =
      results.find((r) => r.message !== start && r.message > c) ??
      results.find((r) => r.message !== start);
    if (away) {
      const from = w.msgs[away.message] as Message;
      const merged = away.message > c && away.message <= end;
      const block = w.takeBlock(away) as ToolResultBlock;
      const target = w.placeResults(w.callMessage(id), [block]);
      if (merged)
        w.note(
          'results_merged',
          from,
          target,
          [id],
          `Moved the result for ${id} into the message that answers its parallel siblings: the results of one turn belong together, first in that message.`,
        );
      else
        w.note(
          'result_reattached',
          from,
          target,
          [id],
          `Re-attached the result for ${id} right after its call; it sat ${away.message < c ? 'before the call' : 'further down'}.`,
        );
      changed = true;
      continue;
    }
    const call = w.msgs[c] as Message;
    const text = causes.get(id) ?? causeText(v.rule, w.msgs[start]);
    const block: ToolResultBlock = {
      type: 'tool_result',
      toolUseId: id,
      isError: true,
      content: [{ type: 'text', text }],
    };
    const target = w.placeResults(c, [block]);
    w.note(
      'error_result_added',
      call,
      target,
      [id],
      `Added an error result for ${id}: ${text.replace(/^Error: /, '')}`,
    );
    changed = true;
  }
  return changed;
}

/**
 * Calls and results differ in number (Gemini G3, Mistral): answer the calls named that have no
 * result next to them, and treat results named that answer no call as orphans.
 */
function fixCountMismatch(w: Work, v: Violation): boolean {
  const missing: string[] = [];
  let changed = false;
  for (const id of v.ids) {
    const c = w.callMessage(id);
    if (c < 0) {
      changed = fixOrphan(w, { ...v, ids: [id] }) || changed;
      continue;
    }
    const [start, end] = w.run(c);
    if (!w.resultsFor(id).some((r) => r.message >= start && r.message < end)) missing.push(id);
  }
  if (missing.length > 0) changed = fixMissing(w, { ...v, ids: missing }) || changed;
  return changed;
}

/**
 * A `tool` message that does not start with a tool_result (content around the result, or no
 * result at all): fold the stray content into the result, or make it a user message when there is
 * no result to fold it into. Keeps every word.
 */
function fixStrayToolContent(w: Work): boolean {
  const i = w.msgs.findIndex((m) => m.role === 'tool' && m.blocks[0]?.type !== 'tool_result');
  const m = w.msgs[i];
  if (!m) return false;
  const result = m.blocks.find(isClientResult);
  const others = m.blocks.filter((b) => b !== result);
  if (!result) {
    const n = derivedMessage(m, { role: 'user' });
    w.replace(i, n);
    w.note(
      'text_moved',
      m,
      n,
      [],
      'A tool message carried no tool result; its content was kept as a user message.',
    );
    return true;
  }
  const n = w.setBlocks(i, [
    { ...result, content: [...result.content, ...others.filter((b) => b.type !== 'tool_result')] },
    ...others.filter((b) => b.type === 'tool_result'),
  ]);
  w.note(
    'text_moved',
    m,
    n,
    result.toolUseId ? [result.toolUseId] : [],
    'A tool message must start with its result; the content around it was moved into the result.',
  );
  return true;
}

/** Orphan or wrong-id result: re-attach where its call is, else remove it (or its leading exchange). */
function fixOrphan(w: Work, v: Violation): boolean {
  const id = v.ids[0];
  if (id === undefined) return fixStrayToolContent(w);
  const c = w.callMessage(id);
  const results = w.resultsFor(id);
  if (c >= 0) {
    const [start, end] = w.run(c);
    const proper = results.filter((r) => r.message >= start && r.message < end);
    const improper = results.filter((r) => !(r.message >= start && r.message < end));
    if (improper.length === 0) return false;
    if (proper.length > 0)
      return removeResults(
        w,
        improper,
        id,
        'duplicate_result_removed',
        `Removed a second result for ${id}; the one right after the call stays.`,
      );
    return fixMissing(w, { ...v, ids: [id] });
  }
  if (results.length === 0) return false;
  const { exchanges, exchangeOf } = groupExchanges(w.msgs);
  const r0 = results[0] as Ref;
  const x = exchanges[exchangeOf[r0.message] ?? -1];
  if (x && x.leading && exchanges.length > 1) {
    const gone = x.messages.map((i) => w.msgs[i] as Message);
    const ids = gone.flatMap((m) =>
      m.blocks.flatMap((b) =>
        b.type === 'tool_use' && b.id
          ? [b.id]
          : isClientResult(b) && b.toolUseId
            ? [b.toolUseId]
            : [],
      ),
    );
    const set = new Set(gone);
    for (let i = w.msgs.length - 1; i >= 0; i--) if (set.has(w.msgs[i] as Message)) w.remove(i);
    w.note(
      'exchange_removed',
      gone[0],
      null,
      [...new Set(ids)],
      `Removed the ${gone.length} message${gone.length === 1 ? '' : 's'} left of an exchange whose start was cut: the result for ${id} answers a call that is gone, and the exchange is the unit to drop.`,
    );
    return true;
  }
  return removeResults(
    w,
    results,
    id,
    'orphan_removed',
    `Removed the result for ${id}: its call is no longer in the transcript.`,
  );
}

function removeResults(w: Work, refs: Ref[], id: string, kind: RepairKind, note: string): boolean {
  // Remove from the last to keep earlier refs valid.
  const sorted = [...refs].sort((a, b) => b.message - a.message || b.block - a.block);
  for (const r of sorted) {
    const m = w.msgs[r.message] as Message;
    const before = w.msgs.length;
    w.takeBlock(r);
    const target = w.msgs.length < before ? null : (w.msgs[r.message] as Message);
    w.note(kind, m, target, [id], note);
  }
  return sorted.length > 0;
}

/**
 * A5: content after a client tool_use in one (merged) assistant turn. The content that follows
 * the first call, in this message and in the assistant messages merged with it, moves in front of
 * that call (order kept), so the calls end the turn and their results follow immediately.
 */
function fixContentAfterCall(w: Work, v: Violation): boolean {
  const c = w.msgs.indexOf(w.causeOf(v) as Message);
  if (c < 0) return false;
  let end = c + 1;
  while (end < w.msgs.length && (w.msgs[end] as Message).role === 'assistant') end++;
  const head = w.msgs[c] as Message;
  const at = head.blocks.findIndex((b) => isClientCall(b));
  if (at < 0) return false;
  const calls: Block[] = [];
  const moved: Block[] = [];
  for (let i = c; i < end; i++)
    for (const [bi, b] of (w.msgs[i] as Message).blocks.entries())
      if (i === c && bi < at) continue;
      else if (isClientCall(b)) calls.push(b);
      else moved.push(b);
  if (moved.length === 0) return false;
  for (let i = end - 1; i > c; i--) w.remove(i);
  const n = w.setBlocks(c, [...head.blocks.slice(0, at), ...moved, ...calls]);
  w.note(
    'text_moved',
    head,
    n,
    v.ids,
    `Moved ${moved.length} block(s) that followed a tool_use in front of the calls: a tool_use must end its assistant message so that its tool_result follows immediately.`,
  );
  return true;
}

/** The same result twice: keep the one next to the call. */
function fixDuplicateResult(w: Work, v: Violation): boolean {
  const id = v.ids[0];
  if (id === undefined) return false;
  const c = w.callMessage(id);
  const results = w.resultsFor(id);
  if (results.length < 2) return false;
  let keep = results[0] as Ref;
  if (c >= 0) {
    const [start, end] = w.run(c);
    keep =
      results.find((r) => r.message >= start && r.message < end) ??
      results.find((r) => r.message > c) ??
      keep;
  }
  return removeResults(
    w,
    results.filter((r) => r !== keep),
    id,
    'duplicate_result_removed',
    `Collapsed duplicate results for ${id}: one result per call, the one right after the call stays.`,
  );
}

/** Duplicate tool_use id: drop the replayed turn (or the repeated calls in it). */
function fixDuplicateCall(w: Work, v: Violation): boolean {
  const id = v.ids[0];
  if (id === undefined) return false;
  const occ = w.msgs.flatMap((m, i) =>
    m.role === 'assistant' && m.blocks.some((b) => isClientCall(b, id)) ? [i] : [],
  );
  if (occ.length < 2) return false;
  const results = w.resultsFor(id);
  const answered = occ.filter((c) => {
    const [s, e] = w.run(c);
    return results.some((r) => r.message >= s && r.message < e);
  });
  let keep = answered.length > 0 ? (answered[answered.length - 1] as number) : (occ[0] as number);
  const keepMsg = w.msgs[keep] as Message;
  // A full replay right before the kept copy: keep the older object (it carries `raw`).
  const prev = occ[occ.indexOf(keep) - 1];
  if (
    prev !== undefined &&
    sameBlocks(w.msgs[prev] as Message, keepMsg) &&
    w.msgs.slice(prev + 1, keep).every((m) => m.role === 'assistant')
  )
    keep = prev;
  const kept = w.msgs[keep] as Message;
  const drop = occ.filter((c) => c !== keep).sort((a, b) => b - a);
  for (const c of drop) {
    const m = w.msgs[c] as Message;
    if (sameBlocks(m, kept)) {
      w.remove(c);
      const ids = m.blocks.flatMap((b) => (b.type === 'tool_use' && b.id ? [b.id] : []));
      w.note(
        'replayed_turn_removed',
        m,
        null,
        ids,
        `Removed a replayed copy of an assistant turn (a retry stored it twice): tool_use ids must be unique.`,
      );
    } else {
      const n = w.setBlocks(
        c,
        m.blocks.filter((b) => !isClientCall(b, id)),
      );
      w.note(
        'duplicate_call_removed',
        m,
        n,
        [id],
        `Removed a repeated tool_use ${id}; the copy next to its result stays.`,
      );
    }
  }
  return true;
}

function isEmpty(m: Message): boolean {
  return m.blocks.length === 0 || m.blocks.every((b) => b.type === 'text' && b.text === '');
}

/** Empty messages (A10). The final assistant message may be empty. */
function fixEmpty(w: Work): boolean {
  let changed = false;
  for (let i = w.msgs.length - 1; i >= 0; i--) {
    const m = w.msgs[i] as Message;
    if (m.role === 'system' || m.role === 'developer') continue;
    if (!isEmpty(m) || (i === w.msgs.length - 1 && m.role === 'assistant')) continue;
    w.remove(i);
    w.note(
      'empty_removed',
      m,
      null,
      [],
      'Removed an empty message: every message but a final assistant prefill needs content.',
    );
    changed = true;
  }
  return changed;
}

/** Empty or whitespace-only text blocks (A11). */
function fixEmptyText(w: Work): boolean {
  let changed = false;
  for (let i = w.msgs.length - 1; i >= 0; i--) {
    const m = w.msgs[i] as Message;
    if (m.role === 'system' || m.role === 'developer') continue;
    if (m.stringContent && m.blocks.length === 1) continue; // empty string content is A10, handled there
    const blocks = m.blocks.filter((b) => !(b.type === 'text' && b.text.trim() === ''));
    if (blocks.length === m.blocks.length) continue;
    const n = w.setBlocks(i, blocks);
    w.note('empty_removed', m, n, [], 'Removed empty or whitespace-only text blocks.');
    changed = true;
  }
  return changed;
}

/** A12 whitespace variant: trim the prefill's trailing whitespace. */
function fixTrailingWhitespace(w: Work, v: Violation): boolean {
  if (!/trailing whitespace/.test(v.message)) return false;
  for (let i = w.msgs.length - 1; i >= 0; i--) {
    const m = w.msgs[i] as Message;
    if (m.role === 'system' || m.role === 'developer') continue;
    if (m.role !== 'assistant') return false;
    const k = m.blocks.map((b) => b.type).lastIndexOf('text');
    const b = m.blocks[k];
    if (!b || b.type !== 'text' || !/\s$/.test(b.text)) return false;
    const n = w.setBlocks(
      i,
      m.blocks.map((x, j) => (j === k && x.type === 'text' ? { ...x, text: x.text.trimEnd() } : x)),
    );
    w.note(
      'whitespace_trimmed',
      m,
      n,
      [],
      'Trimmed trailing whitespace from the final assistant text (a prefill must not end in whitespace).',
    );
    return true;
  }
  return false;
}

/** B6: an error result with no content gets a short text. */
function fixErrorResultEmpty(w: Work, v: Violation): boolean {
  let changed = false;
  w.msgs.forEach((m, i) => {
    if (
      !m.blocks.some(
        (b) =>
          isClientResult(b) &&
          b.isError &&
          b.content.length === 0 &&
          (v.ids.length === 0 || v.ids.includes(b.toolUseId ?? '')),
      )
    )
      return;
    const blocks = m.blocks.map(
      (b): Block =>
        isClientResult(b) && b.isError && b.content.length === 0
          ? { ...b, content: [{ type: 'text', text: 'Error: the tool failed without a message.' }] }
          : b,
    );
    const n = w.setBlocks(i, blocks);
    w.note(
      'error_result_filled',
      m,
      n,
      v.ids,
      'Gave an empty error result a short message: an error result needs content.',
    );
    changed = true;
  });
  return changed;
}

/** Messages (and block) carrying a Responses item id: `meta.sourceId` or a block's `itemId`. */
function itemRefs(w: Work, itemId: string): { message: number; block: number | null }[] {
  const out: { message: number; block: number | null }[] = [];
  w.msgs.forEach((m, i) => {
    if (m.meta?.sourceId === itemId) out.push({ message: i, block: null });
    m.blocks.forEach((b, k) => {
      if ((b.type === 'tool_use' || b.type === 'redacted_thinking') && b.itemId === itemId)
        out.push({ message: i, block: k });
    });
  });
  return out;
}

/** Replace message `i` by a copy without the item id `itemId` (meta and blocks). */
function dropItemId(w: Work, i: number, itemId: string): Message | null {
  const m = w.msgs[i] as Message;
  const blocks = m.blocks.map((b): Block => {
    if ((b.type === 'tool_use' || b.type === 'redacted_thinking') && b.itemId === itemId) {
      const rest: Block = { ...b };
      delete (rest as { itemId?: string }).itemId;
      return rest;
    }
    return b;
  });
  const n = w.setBlocks(i, blocks);
  if (n && n.meta?.sourceId === itemId) {
    const meta = { ...n.meta };
    delete meta.sourceId;
    if (Object.keys(meta).length > 0) n.meta = meta;
    else delete n.meta;
  }
  return n;
}

/** R3/R4: replay the item without its server id (content only), which the API accepts. */
function fixReasoningMissing(w: Work, v: Violation): boolean {
  const id = v.ids[0];
  if (id === undefined) return false;
  const refs = itemRefs(w, id);
  const r = refs[0];
  if (!r) return false;
  const m = w.msgs[r.message] as Message;
  const n = dropItemId(w, r.message, id);
  w.note(
    'item_id_dropped',
    m,
    n,
    [id],
    `The reasoning item before ${id} is lost and cannot be rebuilt; the item is replayed without its server id (content only), which the API accepts. The model no longer sees that reasoning.`,
  );
  return true;
}

/** R5: a reasoning item whose output item is gone cannot be sent alone: remove it. */
function fixReasoningAlone(w: Work, v: Violation): boolean {
  const id = v.ids[0];
  if (id === undefined) return false;
  const r = itemRefs(w, id).find(
    (x) =>
      x.block !== null &&
      (w.msgs[x.message] as Message).blocks[x.block]?.type === 'redacted_thinking',
  );
  if (!r || r.block === null) return false;
  const m = w.msgs[r.message] as Message;
  const n = w.setBlocks(
    r.message,
    m.blocks.filter((_, k) => k !== r.block),
  );
  w.note(
    'reasoning_removed',
    m,
    n,
    [id],
    `Removed reasoning item ${id}: the output item it led to is gone, and a reasoning item cannot be sent without it.`,
  );
  return true;
}

/** R6: an item sent twice: remove the replayed copy, or the id of the later one. */
function fixDuplicateItem(w: Work, v: Violation): boolean {
  const id = v.ids[0];
  if (id === undefined) return false;
  const refs = itemRefs(w, id);
  const first = refs[0];
  const later = refs.slice(1).filter((r) => r.message !== first?.message);
  if (!first || later.length === 0) return false;
  const keep = w.msgs[first.message] as Message;
  for (const r of [...later].sort((a, b) => b.message - a.message)) {
    const m = w.msgs[r.message] as Message;
    if (sameBlocks(m, keep)) {
      w.remove(r.message);
      w.note(
        'replayed_turn_removed',
        m,
        null,
        [id],
        `Removed a second copy of item ${id}: item ids must be unique in a request.`,
      );
    } else {
      const n = dropItemId(w, r.message, id);
      w.note(
        'item_id_dropped',
        m,
        n,
        [id],
        `Sent the later item with id ${id} without its id: item ids must be unique in a request.`,
      );
    }
  }
  return true;
}

/**
 * G2 / B3: the history starts with the model's call (a trim cut the exchange's head): drop that
 * leading partial exchange when a later exchange exists.
 */
function fixLeadingExchange(w: Work, v: Violation): boolean {
  const { exchanges } = groupExchanges(w.msgs);
  const x = exchanges[0];
  if (!x || !x.leading || exchanges.length < 2) return false;
  const gone = x.messages.map((i) => w.msgs[i] as Message);
  // Only when the violation is about this leading group (by its ids, else by its message).
  const named =
    v.ids.length > 0
      ? gone.some((m) =>
          m.blocks.some(
            (b) =>
              (b.type === 'tool_use' && b.id !== null && v.ids.includes(b.id)) ||
              (isClientResult(b) && v.ids.includes(b.toolUseId ?? '')),
          ),
        )
      : gone.some((m) => m === w.causeOf(v));
  if (!named) return false;
  const set = new Set(gone);
  for (let i = w.msgs.length - 1; i >= 0; i--) if (set.has(w.msgs[i] as Message)) w.remove(i);
  w.note(
    'exchange_removed',
    gone[0],
    null,
    v.ids,
    `Removed the ${gone.length} message${gone.length === 1 ? '' : 's'} of an exchange whose start was cut: the history must start with a user turn, and the exchange is the unit to drop.`,
  );
  return true;
}

function fix(w: Work, v: Violation): boolean {
  switch (v.rule) {
    case 'unanswered_tool_use':
    case 'partial_answer':
    case 'trailing_tool_use':
    case 'tool_result_not_first':
      return fixMissing(w, v);
    case 'orphan_tool_result':
    case 'tool_result_wrong_id':
      return fixOrphan(w, v);
    case 'count_mismatch':
      return fixCountMismatch(w, v);
    case 'content_after_tool_use':
      return fixContentAfterCall(w, v);
    case 'duplicate_tool_result':
      return fixDuplicateResult(w, v);
    case 'missing_tool_id':
      return fixStrayToolContent(w);
    case 'duplicate_tool_use_id':
      return fixDuplicateCall(w, v);
    case 'empty_content':
      return fixEmpty(w);
    case 'empty_text':
      return fixEmptyText(w);
    case 'trailing_assistant':
      return fixTrailingWhitespace(w, v);
    case 'error_result_empty':
      return fixErrorResultEmpty(w, v);
    case 'reasoning_missing':
      return fixReasoningMissing(w, v);
    case 'reasoning_without_following':
      return fixReasoningAlone(w, v);
    case 'duplicate_item':
      return fixDuplicateItem(w, v);
    case 'role_order':
    case 'first_message_role':
      return fixLeadingExchange(w, v);
    default:
      return false;
  }
}

/** Warnings the repair fixes too: a replayed turn and a doubled result are bugs even where accepted. */
const FIX_WARNINGS: ReadonlySet<RuleId> = new Set<RuleId>([
  'duplicate_tool_use_id',
  'duplicate_tool_result',
]);

function priority(v: Violation): number {
  return v.rule === 'duplicate_tool_use_id' ? 0 : v.rule === 'duplicate_tool_result' ? 1 : 2;
}

function keyOf(v: Violation): string {
  return `${v.rule}|${v.code}|${v.ids.join(',')}|${v.messageIndex}|${v.blockIndex ?? ''}`;
}

/**
 * Repair a transcript for a provider: fix the provider's first violation (replayed turns and
 * doubled results first), validate again, and repeat until the validator says valid or nothing
 * more can be fixed.
 * @param t the transcript (faulted, trimmed or as pasted)
 * @param provider which provider's rules (default: the format's own provider)
 * @returns the repaired transcript (untouched messages are the same objects), the list of
 *   changes in the order made, what is still wrong with an explanation, and the final validation.
 *   Never throws. Cost: O(fixes × n) validations.
 */
export function repairTranscript(t: Transcript, provider?: ProviderId): RepairResult {
  const p = provider ?? DEFAULT_PROVIDER[t.format];
  const w = new Work(t, p);
  const attempts = new Map<string, number>();
  const blocks = t.messages.reduce((s, m) => s + m.blocks.length, 0);
  const cap = 20 + 4 * (t.messages.length + blocks);
  let validation = w.check();
  // A replayed turn or a doubled result is a bug whichever way the provider words the error
  // (Gemini and Mistral report it as a count mismatch): when the request is refused, remove the
  // replay first, so the other fixes do not answer the copies.
  if (!validation.valid) {
    const dup = (rule: RuleId, id: string): Violation => ({
      rule,
      code: 'pairing',
      severity: 'warning',
      messageIndex: 0,
      index: -1,
      blockIndex: null,
      ids: [id],
      providerPath: null,
      status: null,
      error: null,
      message: '',
      title: '',
      why: '',
      confidence: 'I',
    });
    const pairs = pairToolCalls(w.msgs);
    let any = false;
    for (const id of new Set(
      pairs
        .filter((q) => q.status === 'duplicate_id' && q.id !== null && !q.server)
        .map((q) => q.id as string),
    ))
      any = fixDuplicateCall(w, dup('duplicate_tool_use_id', id)) || any;
    for (const id of new Set(
      pairToolCalls(w.msgs)
        .filter((q) => q.status === 'duplicate_result' && q.id !== null && !q.server)
        .map((q) => q.id as string),
    ))
      any = fixDuplicateResult(w, dup('duplicate_tool_result', id)) || any;
    if (any) validation = w.check();
  }
  for (let iter = 0; iter < cap; iter++) {
    const candidates = validation.violations
      .filter((v) => v.severity === 'error' || FIX_WARNINGS.has(v.rule))
      .filter((v) => (attempts.get(keyOf(v)) ?? 0) < 3)
      .map((v, i) => ({ v, i }))
      .sort((a, b) => priority(a.v) - priority(b.v) || a.i - b.i);
    // Several fixes per validation round, as long as they touch different calls: a violation is
    // left for the next round when a fix of this round touched one of its ids (its report may be
    // stale), when it names no ids (a global fix), or when it is of a lower priority group.
    let progressed = false;
    w.touchedIds.clear();
    const group = candidates[0] ? priority(candidates[0].v) : 0;
    for (const { v } of candidates) {
      if (priority(v) !== group) break;
      if (progressed && (v.ids.length === 0 || v.ids.some((id) => w.touchedIds.has(id)))) continue;
      const k = keyOf(v);
      if (fix(w, v)) {
        attempts.set(k, (attempts.get(k) ?? 0) + 1);
        progressed = true;
        if (v.ids.length === 0) break;
      } else if (!progressed) attempts.set(k, 3);
    }
    if (!progressed) break;
    validation = w.check();
  }
  const transcript = w.transcript();
  validation = validateTranscript(transcript, p);
  const pos = new Map<Message, number>();
  transcript.messages.forEach((m, i) => pos.set(m, i));
  const changes: RepairChange[] = w.changes.map((c) => ({
    kind: c.kind,
    messageIndex: c.origin,
    outputIndex: pos.get(w.resolve(c.target) as Message) ?? null,
    replaced: c.replaced,
    ids: c.ids,
    note: c.note,
  }));
  const unrepaired: Unrepaired[] = validation.violations
    .filter((v) => v.severity === 'error')
    .map((v) => ({
      rule: v.rule,
      code: v.code,
      messageIndex: v.messageIndex,
      ids: v.ids,
      message: v.message,
      note: UNREPAIRABLE_NOTES[v.rule] ?? DEFAULT_NOTE,
    }));
  return { transcript, changes, unrepaired, validation, provider: p };
}
