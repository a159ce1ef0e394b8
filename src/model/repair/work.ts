/**
 * The repair's working state (`Work`): the message list being repaired, each message's origin in
 * the input, the changes noted so far, and the operations every fix uses (replace, remove,
 * insert, place results where the loop should have, validate again).
 */
import { derivedMessage, reindexForView, withMessages } from '../faults.ts';
import { answerRun, hasToolResult } from '../pairing.ts';
import { parserFor } from '../parse/registry.ts';
import type { Block, Message, ProviderId, ToolResultBlock, Transcript } from '../types.ts';
import {
  apiOf,
  validateTranscript,
  type RuleId,
  type Validation,
  type Violation,
} from '../validate/index.ts';
import type { RepairKind } from './types.ts';

/** A block inside the working messages: message position and block index. */
export interface Ref {
  message: number;
  block: number;
}

/**
 * Where new results go: the user turn after the call, `tool` messages of their own, or a user
 * message of results alone right after the call (`call`: the format stores them in the call).
 */
type Style = 'user' | 'tool' | 'call';

/** A tool_result the client wrote (not a server tool's result). */
export function isClientResult(b: Block): b is ToolResultBlock {
  return b.type === 'tool_result' && b.server === undefined;
}

/** A client tool_use (with that id, when given). */
export function isClientCall(b: Block, id?: string): boolean {
  return b.type === 'tool_use' && b.server !== true && (id === undefined || b.id === id);
}

/** Same role and the same blocks (a replayed copy). */
export function sameBlocks(a: Message, b: Message): boolean {
  return a.role === b.role && JSON.stringify(a.blocks) === JSON.stringify(b.blocks);
}

/** Mutable repair state: the working message list and each message's origin in the input. */
export class Work {
  /** The working messages, in order. */
  msgs: Message[];
  readonly origin = new Map<Message, number>();
  /** Tool ids (calls and results) of every message edited, inserted or removed in this round. */
  readonly touchedIds = new Set<string>();
  /** A replaced message → its replacement (null when removed), to resolve change targets. */
  readonly successor = new Map<Message, Message | null>();
  readonly input: readonly Message[];
  /** The rule of the violation being fixed (set by the repair loop before each fix). */
  rule: RuleId | null = null;
  readonly changes: {
    kind: RepairKind;
    rule: RuleId | null;
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
    const own = parserFor(t.format)?.resultStyle ?? 'user';
    this.style = t.messages.some((m) => m.role === 'tool') ? 'tool' : own;
  }

  /** The input position a working message stands for (0 when unknown). */
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

  /** Remove message `i`. */
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

  /** Insert a new message `m` at `i`, derived from `from` (its origin). */
  insert(i: number, m: Message, from: Message): void {
    this.touch(m);
    this.origin.set(m, this.originOf(from));
    this.msgs.splice(i, 0, m);
  }

  /**
   * Note a change: what kind, the message it is about (its origin), the message written (null for
   * a removal), the tool ids involved and one sentence; the input messages replaced or removed
   * since the last note are its `replaced`.
   */
  note(
    kind: RepairKind,
    about: Message | undefined,
    target: Message | null,
    ids: string[],
    note: string,
  ): void {
    this.changes.push({
      kind,
      rule: this.rule,
      origin: this.originOf(about),
      target,
      replaced: [...new Set(this.pending)].sort((a, b) => a - b),
      ids,
      note,
    });
    this.pending = [];
  }

  /** Remove the messages of a (leading, partial) exchange and note it as one change. */
  removeExchange(gone: readonly Message[], ids: string[], note: string): void {
    const set = new Set(gone);
    for (let i = this.msgs.length - 1; i >= 0; i--)
      if (set.has(this.msgs[i] as Message)) this.remove(i);
    this.note('exchange_removed', gone[0], null, ids, note);
  }

  /** The working messages as a transcript (untouched messages are the input's objects). */
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
    const api = apiOf(this.provider);
    if (api === 'openai-responses') return answerRun(this.msgs, c);
    let j = c + 1;
    if (api === 'anthropic-messages') {
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
   * one `tool` message per result, at the end of the call's tool run. A format that stores the
   * results in their call (`call`) gets them in the results-only message after the call, never
   * in the user's own next message.
   * @returns the message written
   */
  placeResults(c: number, blocks: ToolResultBlock[]): Message {
    const call = this.msgs[c] as Message;
    const [start, end] = this.run(c);
    const first = this.msgs[start];
    const joins =
      this.style === 'user' ||
      (this.style === 'call' && first?.blocks.every(isClientResult) === true);
    if (joins && first && first.role === 'user') {
      const lead = first.blocks.findIndex((b) => !isClientResult(b));
      const at = lead < 0 ? first.blocks.length : lead;
      return this.setBlocks(start, [
        ...first.blocks.slice(0, at),
        ...blocks,
        ...first.blocks.slice(at),
      ]) as Message;
    }
    if (this.style !== 'tool') {
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
 * Remove result blocks (from the last, so earlier refs stay valid), noting one change each.
 * @returns true when anything was removed
 */
export function removeResults(
  w: Work,
  refs: Ref[],
  id: string,
  kind: RepairKind,
  note: string,
): boolean {
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
