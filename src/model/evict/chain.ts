/**
 * The token-independent eviction tables (`prepareEvictionParts`: the grouping, the non-pinned and
 * turn-pair indices, the cut context's tables) resumed along a chain of requests: requests whose
 * messages each extend the one before (the same message objects in the same places, more after
 * them) with the same system, settings, tools and provider — a session log's calls between two
 * compactions (scan/rows.ts). Each request's tables cost O(messages added + the run of messages
 * after the last of a kind), plus typed-array copies and views, where `prepareEvictionParts`
 * walks every message (and, for Anthropic, renders them all). The whole validation is the
 * caller's (`known.validation`), as are the tables read from it (its violations: O(violations)).
 *
 * Each request's parts are equal to `prepareEvictionParts` of the same transcript
 * (evict/chain.property.test.ts). The arrays of a request are views of buffers the next request
 * extends in place: the forward tables (indices, exchanges, window starts, provider indices) only
 * append, so a request's views keep their values; the 'first index ≥ i' tables rewrite entries
 * past the last of their kind, so a request's parts are read before the next request of the chain
 * is prepared.
 */
import type { Exchange, Grouping } from '../exchanges.ts';
import { isPinned, startsExchange } from '../exchanges.ts';
import type { Message, ProviderId, Transcript } from '../types.ts';
import { sentMessages, type ValidateOptions, type Validation } from '../validate/index.ts';
import {
  cutModel,
  fastFromFull,
  hasToolBlock,
  isToolish,
  merges,
  windowStartKind,
  type CutContext,
  type FastTables,
} from './cutTables.ts';
import type { EvictionParts, KnownParts } from './prepare.ts';
import { spansCutsOf } from './spansCuts.ts';
import { grown } from '../grownArray.ts';

/**
 * A "first index ≥ i with a property" table (`nextNonPinned`, `nextTool`, `syncNext`) kept over
 * a growing list: `at[i]` for i < n, and the positions that have the property, so that a longer
 * list rewrites only the entries after the last such position (they pointed past the end).
 */
class NextTable {
  at = new Int32Array(4);
  /** The last position with the property, or −1. */
  last = -1;

  /**
   * Extend from `m` to `n` entries. @param has whether position i has the property
   * @param none the value where no position ≥ i has it (n, or −1)
   * @param len the view's length (n + 1 or n + 2); entries from n on are `none`
   */
  extend(m: number, n: number, has: (i: number) => boolean, none: number, len: number): Int32Array {
    this.at = grown(this.at, m, len);
    const at = this.at;
    // Entries in (last, m) pointed past the old end; they and the new ones point to the first
    // position ≥ them with the property, or `none`.
    let next = none;
    for (let i = len - 1; i >= n; i--) at[i] = none;
    const stop = this.last;
    for (let i = n - 1; i > stop; i--) {
      if (i >= m && has(i)) {
        next = i;
        // The first found, walking back, is the largest.
        if (this.last === stop) this.last = i;
      }
      at[i] = next;
    }
    return at.subarray(0, len);
  }
}

/** Where each new message of a merged-turn provider (Anthropic) starts its turn, and the turns. */
interface MergedTurns {
  /** Turn count; the first message and role (1 assistant) of each; whether it holds a client result. */
  count: number;
  first: Int32Array;
  assistant: Uint8Array;
  result: Uint8Array;
  lastRole: number;
}

/**
 * The resumed tables of one chain (see the file comment). `parts` gives a request's
 * `EvictionParts`; a request that does not extend the last one starts the chain again.
 */
export class EvictionChain {
  private messages: readonly Message[] = [];
  private n = 0;
  private key: unknown[] = [];
  private nonPinned = new Int32Array(4);
  private npCount = 0;
  private pinned = new Int32Array(4);
  private pinnedCount = 0;
  private turnAssistants = new Int32Array(4);
  private taCount = 0;
  private exchanges: Exchange[] = [];
  private exchangeOf = new Int32Array(4);
  private exchangeStarts = new Int32Array(4);
  private indexed = true;
  private nextNonPinned = new NextTable();
  private nextTool = new NextTable();
  private nextToolNP = new NextTable();
  private syncNext = new NextTable();
  private renderedAt = new Int32Array(4);
  private start = new Uint8Array(4);
  private emptyBefore = new Int32Array(5);
  /**
   * `hasDetachedServerResultOf`'s walk (spansCuts.ts), resumed over messages: the ids of earlier
   * turns, the open turn's.
   */
  private detached = { earlier: new Set<string>(), turn: [] as string[], found: false };
  private turns: MergedTurns = {
    count: 0,
    first: new Int32Array(4),
    assistant: new Uint8Array(4),
    result: new Uint8Array(4),
    lastRole: -1,
  };
  /** Stand-in rendering (OpenAI family): the provider index of the next message. */
  private rendered = 0;
  /** How many messages the backward tables (`NextTable`) cover: they extend from there. */
  private prevN = 0;

  /** True when `t` extends the request prepared last with the same everything else. */
  private extendsLast(t: Transcript, key: unknown[]): boolean {
    const ms = t.messages;
    const m = this.n;
    if (ms.length < m || key.length !== this.key.length) return false;
    for (let i = 0; i < key.length; i++) if (key[i] !== this.key[i]) return false;
    return m === 0 || (ms[0] === this.messages[0] && ms[m - 1] === this.messages[m - 1]);
  }

  private reset(key: unknown[]): void {
    this.n = 0;
    this.key = key;
    // New buffers: the views given to the requests before keep what they held.
    this.nonPinned = new Int32Array(4);
    this.pinned = new Int32Array(4);
    this.turnAssistants = new Int32Array(4);
    this.exchangeOf = new Int32Array(4);
    this.exchangeStarts = new Int32Array(4);
    this.renderedAt = new Int32Array(4);
    this.start = new Uint8Array(4);
    this.emptyBefore = new Int32Array(5);
    this.npCount = 0;
    this.pinnedCount = 0;
    this.taCount = 0;
    this.exchanges = [];
    this.indexed = true;
    this.nextNonPinned = new NextTable();
    this.nextTool = new NextTable();
    this.nextToolNP = new NextTable();
    this.syncNext = new NextTable();
    this.detached = { earlier: new Set(), turn: [], found: false };
    this.turns = {
      count: 0,
      first: new Int32Array(4),
      assistant: new Uint8Array(4),
      result: new Uint8Array(4),
      lastRole: -1,
    };
    this.rendered = 0;
    this.prevN = 0;
  }

  /**
   * `prepareEvictionParts(t, provider, opts, known)`, resumed from the request before when `t`
   * extends it. @param known the whole validation of `t` (required: the chain never validates)
   */
  parts(
    t: Transcript,
    provider: ProviderId,
    opts: Omit<ValidateOptions, 'messages'>,
    known: KnownParts & { validation: Validation },
  ): EvictionParts {
    const key: unknown[] = [
      provider,
      t.system,
      t.settings,
      t.tools,
      t.format,
      ...Object.values(opts),
    ];
    if (!this.extendsLast(t, key)) this.reset(key);
    const ms = t.messages;
    const m = this.n;
    const n = ms.length;
    this.grow(ms, m, n, provider);
    this.messages = ms;
    this.n = n;
    // Views, not copies: the forward tables only append (a reset starts new buffers).
    const grouping: Grouping = {
      exchanges: this.exchanges.slice(),
      exchangeOf: this.exchangeOf.subarray(0, n),
    };
    return {
      cuts: this.cutContext(t, provider, opts, known.validation),
      grouping,
      exchangeStarts: this.exchangeStarts.subarray(0, this.exchanges.length),
      nonPinned: this.nonPinned.subarray(0, this.npCount),
      turnAssistants: this.turnAssistants.subarray(0, this.taCount),
    };
  }

  /** The forward tables over the messages [m, n). */
  private grow(ms: readonly Message[], m: number, n: number, provider: ProviderId): void {
    this.nonPinned = grown(this.nonPinned, this.npCount, n);
    this.pinned = grown(this.pinned, this.pinnedCount, n);
    this.turnAssistants = grown(this.turnAssistants, this.taCount, n);
    this.exchangeOf = grown(this.exchangeOf, m, n);
    this.exchangeStarts = grown(this.exchangeStarts, this.exchanges.length, n);
    this.renderedAt = grown(this.renderedAt, m, n);
    this.start = grown(this.start, m, n);
    this.emptyBefore = grown(this.emptyBefore, m + 1, n + 1);
    const anth = merges(provider);
    const T = this.turns;
    if (anth) {
      T.first = grown(T.first, T.count, n);
      T.assistant = grown(T.assistant, T.count, n);
      T.result = grown(T.result, T.count, n);
    }
    // The last exchange may grow: it is copied, the earlier ones are shared.
    const exs = this.exchanges;
    const lastEx = exs[exs.length - 1];
    if (lastEx && m < n) exs[exs.length - 1] = { ...lastEx, messages: lastEx.messages.slice() };
    let current = exs[exs.length - 1] ?? null;
    const d = this.detached;
    for (let i = m; i < n; i++) {
      const msg = ms[i] as Message;
      if (msg.index !== i) this.indexed = false;
      this.emptyBefore[i + 1] = (this.emptyBefore[i] as number) + (msg.blocks.length === 0 ? 1 : 0);
      this.start[i] = windowStartKind(msg, provider);
      // Stand-in rendering (renderOpenAIChat's provider indices), whatever the provider: cheap.
      if (!anth) {
        this.renderedAt[i] = this.rendered;
        let count = 0;
        let rest = false;
        for (const b of msg.blocks) {
          if (b.type === 'tool_result') count++;
          else rest = true;
        }
        this.rendered +=
          (msg.role === 'user' && count > 0) || (msg.role === 'tool' && count > 1)
            ? count + (rest ? 1 : 0)
            : 1;
      } else this.renderedAt[i] = -1;
      this.exchangeOf[i] = -1;
      if (isPinned(msg)) {
        this.pinned[this.pinnedCount++] = i;
        continue;
      }
      this.nonPinned[this.npCount++] = i;
      if (msg.role === 'assistant') {
        this.turnAssistants[this.taCount++] = i;
      }
      const starts = startsExchange(msg);
      if (current === null || starts) {
        current = {
          index: exs.length,
          key: `x${exs.length}`,
          messages: [],
          first: i,
          last: i,
          leading: !starts,
        };
        this.exchangeStarts[exs.length] = i;
        exs.push(current);
      }
      current.messages.push(i);
      current.last = i;
      this.exchangeOf[i] = current.index;
      if (anth) {
        const role = msg.role === 'assistant' ? 1 : 0;
        if (role !== T.lastRole) {
          T.first[T.count] = i;
          T.assistant[T.count] = role;
          T.result[T.count] = 0;
          this.renderedAt[i] = T.count;
          T.count++;
          T.lastRole = role;
        }
        if (
          role === 0 &&
          msg.blocks.some((b) => b.type === 'tool_result' && b.server === undefined)
        )
          T.result[T.count - 1] = 1;
      }
      // hasDetachedServerResultOf's walk, one message further.
      if (!d.found) {
        if (msg.role !== 'assistant') {
          for (const id of d.turn) d.earlier.add(id);
          d.turn = [];
        } else
          for (const b of msg.blocks) {
            if (b.type === 'tool_use' && b.server === true && b.id !== null) d.turn.push(b.id);
            else if (b.type === 'tool_result' && b.server !== undefined && b.toolUseId !== null)
              if (d.earlier.has(b.toolUseId) && !d.turn.includes(b.toolUseId)) d.found = true;
          }
      }
    }
  }

  /** `prepareCuts(t, provider, opts, full)` from the kept tables. */
  private cutContext(
    t: Transcript,
    provider: ProviderId,
    opts: Omit<ValidateOptions, 'messages'>,
    full: Validation,
  ): CutContext {
    const ms = t.messages;
    const n = this.n;
    const prev = this.prevN;
    const nextNonPinned = this.nextNonPinned.extend(
      prev,
      n,
      (i) => !isPinned(ms[i] as Message),
      n,
      n + 1,
    );
    const ctx: CutContext = {
      t,
      provider,
      opts,
      n,
      pinned: this.pinned.subarray(0, this.pinnedCount),
      nextNonPinned,
      full,
      fast: false,
      fx: null,
    };
    const anth = merges(provider);
    const requestWide = spansCutsOf(full, anth, this.detached.found);
    const rewritten = sentMessages(t, ms, provider) !== ms;
    const tools = this.extendTools(ms, prev, n);
    const sync = this.syncTables(t, ms, prev, n, anth);
    this.prevN = n;
    if (cutModel(provider) === undefined || !this.indexed || requestWide || rewritten) return ctx;
    const fx: FastTables = fastFromFull(t, provider, full, ms, {
      ...tools,
      ...sync,
      start: this.start.subarray(0, n),
      emptyBefore: this.emptyBefore.subarray(0, n + 1),
    });
    ctx.fx = fx;
    ctx.fast = true;
    return ctx;
  }

  private extendTools(
    ms: readonly Message[],
    m: number,
    n: number,
  ): { nextTool: Int32Array; nextToolNP: Int32Array } {
    return {
      nextTool: this.nextTool.extend(m, n, (i) => hasToolBlock(ms[i] as Message), n, n + 2),
      nextToolNP: this.nextToolNP.extend(
        m,
        n,
        (i) => hasToolBlock(ms[i] as Message) && !isPinned(ms[i] as Message),
        n,
        n + 2,
      ),
    };
  }

  /** `mergedTurnSync` / `standInSync` from the kept turns and provider indices. */
  private syncTables(
    t: Transcript,
    ms: readonly Message[],
    m: number,
    n: number,
    anth: boolean,
  ): { syncNext: Int32Array; renderedAt: Int32Array; loopFloor: number } {
    const renderedAt = this.renderedAt.subarray(0, n);
    if (!anth) {
      const syncNext = this.syncNext.extend(m, n, (i) => !isToolish(ms[i] as Message), -1, n + 2);
      return { syncNext, renderedAt, loopFloor: -1 };
    }
    // A sync candidate starts an assistant turn: the assistant turns' first messages.
    const syncNext = this.syncNext.extend(
      m,
      n,
      (i) => {
        const T = this.turns;
        // renderedAt[i] ≥ 0 marks a turn's first message; its turn is an assistant one.
        const g = this.renderedAt[i] as number;
        return g >= 0 && T.assistant[g] === 1;
      },
      -1,
      n + 2,
    );
    return { syncNext, renderedAt, loopFloor: this.loopFloor(t) };
  }

  /** `openLoopFloor` over the kept turns (walks back over the open tool loop only). */
  private loopFloor(t: Transcript): number {
    if (t.settings.thinking !== true) return -1;
    const T = this.turns;
    const isResult = (g: number) => T.assistant[g] === 0 && T.result[g] === 1;
    if (T.count === 0 || !isResult(T.count - 1)) return -1;
    for (let g = T.count - 2; g >= 0; g--)
      if (T.assistant[g] === 0 && !isResult(g)) return T.first[g] as number;
    return -2;
  }
}
