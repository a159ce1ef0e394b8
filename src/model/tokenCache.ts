/**
 * Incremental, cached token counting for large transcripts (issue 7).
 *
 * The expensive part of `countTokens` is running a BPE over every block's text. This module keeps
 * the raw count of each block (before the provider's content factor) in a per-encoding cache
 * keyed by the block object, so:
 * - switching the provider re-scales cached counts instead of re-tokenising (the factor is
 *   applied when summing, as in tokens.ts);
 * - counting can be done in slices (`countSlice`) between other work in a Web Worker, with
 *   progress, and resumed;
 * - the transcript's own usage figures replace the estimate for a reply where the log carries
 *   them (`MessageMeta.usageOutputTokens`, docs/formats.md#usage: the provider's output
 *   tokens of that reply), when `preferUsage` is on.
 *
 * Pure TypeScript (runs in the worker, Node and tests). Results are the same `TokenTable` shape
 * as tokens.ts (typed arrays: per-message counts and prefix sums), so everything downstream
 * (eviction, exchanges) is unchanged. Without usage figures the counts equal `countTokens`.
 */
import {
  basisLabel,
  blockStarts,
  CHARS_PER_4,
  claudeFactor,
  countableFixed,
  countableLength,
  countableText,
  countingPieces,
  hardCutCount,
  hardCutNote,
  MESSAGE_OVERHEAD,
  tokenizerFamily,
  type TextCounter,
  type TokenTable,
} from './tokens.ts';
import type { Block, Message, ProviderId, Transcript } from './types.ts';
import { grown } from './grownArray.ts';

/** Raw (unscaled) counts per block, one map per encoding. Blocks are the parse's own objects. */
export class TokenCache {
  private readonly byEncoding = new Map<string, WeakMap<Block, number>>();
  /** Hard cuts per block and piece length (`hardCutCount`), for the basis label. */
  private readonly cuts = new Map<number, WeakMap<Block, number>>();

  /** Hard cuts `countingPieces(text, pieceChars)` makes in a block's text (cached). */
  hardCuts(pieceChars: number, b: Block, text: string): number {
    let m = this.cuts.get(pieceChars);
    if (!m) {
      m = new WeakMap();
      this.cuts.set(pieceChars, m);
    }
    let n = m.get(b);
    if (n === undefined) {
      n = hardCutCount(text, pieceChars);
      m.set(b, n);
    }
    return n;
  }

  /** Raw count of a block's countable text with `counter` (tokens, before any factor). */
  raw(counter: TextCounter, b: Block, text: string): number {
    let m = this.byEncoding.get(counter.encoding);
    if (!m) {
      m = new WeakMap();
      this.byEncoding.set(counter.encoding, m);
    }
    const hit = m.get(b);
    if (hit !== undefined) return hit;
    const n = counter.count(text);
    m.set(b, n);
    return n;
  }

  /** Cached raw count of a block with `counter`'s encoding, or undefined. */
  get(counter: TextCounter, b: Block): number | undefined {
    return this.byEncoding.get(counter.encoding)?.get(b);
  }

  /** Store a block's raw count (tokens, before any factor) for `counter`'s encoding. */
  set(counter: TextCounter, b: Block, n: number): void {
    let m = this.byEncoding.get(counter.encoding);
    if (!m) {
      m = new WeakMap();
      this.byEncoding.set(counter.encoding, m);
    }
    m.set(b, n);
  }
}

/**
 * Default text budget of one `countSlice` (UTF-16 code units of text handed to the counter).
 * Measured with o200k on Node 20: ordinary prose ≈ 0.15 µs per char (250,000 chars ≈ 40 ms);
 * the worst case, long runs of random letters in 2,000-char pieces, ≈ 3 µs per char (≈ 0.75 s).
 */
export const SLICE_CHARS = 250_000;

/** A block being counted piece by piece across slices. */
interface PartialBlock {
  message: number;
  block: number;
  pieces: string[];
  next: number;
  raw: number;
  /** Message sum so far (framing + earlier blocks). */
  sum: number;
}

/** Options of `TokenCounting`. */
export interface CountingOptions {
  /**
   * Use a reply's reported output tokens (`meta.usageOutputTokens`) as its count, plus the
   * per-message framing. Default false (the same numbers as `countTokens`).
   */
  preferUsage?: boolean;
}

/**
 * A resumable count of one transcript for one provider and counter.
 * Usage: `const c = new TokenCounting(t, p, counter, cache); while (!c.done) c.countSlice(5000);
 * c.table()`.
 */
export class TokenCounting {
  readonly perMessage: Uint32Array;
  /** Tokens per block (`BlockTokens`): −1 for a message counted from its usage figure. */
  private readonly blockStart: Uint32Array;
  private readonly perBlock: Int32Array;
  private next = 0;
  private partial: PartialBlock | null = null;
  /** Messages whose count came from the transcript's usage figures. */
  fromUsage = 0;
  /** Hard cuts (`hardCutCount`) in the blocks counted so far. */
  hardCuts = 0;
  private readonly scale: (n: number, cls: 'prose' | 'json' | 'other') => number;

  private readonly t: Transcript;
  private readonly provider: ProviderId;
  private readonly counter: TextCounter;
  private readonly cache: TokenCache;
  private readonly opts: CountingOptions;

  constructor(
    t: Transcript,
    provider: ProviderId,
    counter: TextCounter,
    cache: TokenCache,
    opts: CountingOptions = {},
  ) {
    this.t = t;
    this.provider = provider;
    this.counter = counter;
    this.cache = cache;
    this.opts = opts;
    this.perMessage = new Uint32Array(t.messages.length);
    this.blockStart = blockStarts(t.messages);
    this.perBlock = new Int32Array(this.blockStart[t.messages.length] as number);
    const fam = tokenizerFamily(provider);
    const model = t.settings.model;
    this.scale = (n, cls) =>
      counter.encoding === 'chars/4'
        ? n
        : fam === 'claude'
          ? n * claudeFactor(cls, model)
          : fam === 'gemini'
            ? n * 1.08
            : n;
  }

  /** Messages counted so far. */
  get counted(): number {
    return this.next;
  }

  get done(): boolean {
    return this.next >= this.t.messages.length;
  }

  /**
   * Count up to `maxMessages` more messages, stopping early once about `maxChars` of text have
   * been handed to the counter in this slice (checked between messages and, for a counter with
   * `pieceChars` such as the BPE, between the pieces of one long block: one huge message then
   * spans several slices, so a worker can yield and notice a newer request between them). At
   * least one piece is counted per call, so repeated calls always finish.
   * @param maxMessages message limit of this slice
   * @param maxChars text budget in UTF-16 code units; default SLICE_CHARS for a counter with
   *   `pieceChars` (the BPE), unlimited for `chars/4` (cheap: one call counts everything)
   * @returns the number of messages completed in this slice (0 while inside one long message)
   */
  countSlice(maxMessages: number, maxChars?: number): number {
    const end = Math.min(this.t.messages.length, this.next + maxMessages);
    const start = this.next;
    let budget = maxChars ?? (this.counter.pieceChars !== undefined ? SLICE_CHARS : Infinity);
    while (this.next < end) {
      const i = this.next;
      const r = this.countMessage(this.t.messages[i] as Message, i, budget);
      budget -= r.chars;
      if (r.sum === undefined) break;
      this.perMessage[i] = r.sum;
      this.next = i + 1;
      if (budget <= 0) break;
    }
    return this.next - start;
  }

  /** Count message `i`; `sum` is undefined when the budget ran out inside a long block. */
  private countMessage(
    m: Message,
    i: number,
    budget: number,
  ): { sum: number | undefined; chars: number } {
    const usage = m.meta?.usageOutputTokens;
    if (this.opts.preferUsage && m.role === 'assistant' && usage !== undefined && usage > 0) {
      this.fromUsage++;
      this.perBlock.fill(-1, this.blockStart[i], this.blockStart[i + 1]);
      return { sum: MESSAGE_OVERHEAD + usage, chars: 0 };
    }
    if (this.counter === CHARS_PER_4) return this.countQuick(m, i);
    const p = this.partial?.message === i ? this.partial : null;
    const piece = this.counter.pieceChars;
    let sum = p ? p.sum : MESSAGE_OVERHEAD;
    let chars = 0;
    for (let k = p ? p.block : 0; k < m.blocks.length; k++) {
      const b = m.blocks[k] as Block;
      const { text, cls, fixed } = countableText(b);
      let raw = this.cache.get(this.counter, b);
      if (raw === undefined) {
        if (piece === undefined || text.length <= piece) {
          raw = this.cache.raw(this.counter, b, text);
          chars += text.length;
        } else {
          const q: PartialBlock =
            p && p.block === k
              ? p
              : { message: i, block: k, pieces: countingPieces(text, piece), next: 0, raw: 0, sum };
          while (q.next < q.pieces.length) {
            if (chars > 0 && chars >= budget) {
              this.partial = q;
              return { sum: undefined, chars };
            }
            const s = q.pieces[q.next++] as string;
            q.raw += this.counter.count(s);
            chars += s.length;
          }
          raw = q.raw;
          this.cache.set(this.counter, b, raw);
        }
      }
      this.partial = null;
      if (piece !== undefined && text.length > piece)
        this.hardCuts += this.cache.hardCuts(piece, b, text);
      const tok = Math.round(this.scale(raw, cls)) + fixed;
      this.perBlock[(this.blockStart[i] as number) + k] = tok;
      sum += tok;
    }
    this.partial = null;
    return { sum, chars };
  }

  /**
   * Message `i` counted with `CHARS_PER_4`: each block ⌈length ÷ 4⌉ of its countable text plus
   * its fixed tokens (what the general path gives: chars/4 scales nothing, cuts nothing), from
   * the texts' lengths, without building a text or caching a count (issue 38: building them and
   * a WeakMap entry per block was most of the 115 MB log's answer).
   */
  private countQuick(m: Message, i: number): { sum: number; chars: number } {
    const blocks = m.blocks;
    const at = this.blockStart[i] as number;
    let sum = MESSAGE_OVERHEAD;
    let chars = 0;
    for (let k = 0; k < blocks.length; k++) {
      const b = blocks[k] as Block;
      const n = countableLength(b);
      const tok = Math.ceil(n / 4) + countableFixed(b);
      this.perBlock[at + k] = tok;
      sum += tok;
      chars += n;
    }
    this.partial = null;
    return { sum, chars };
  }

  /**
   * The token table (same shape and labels as `countTokens`, hard cuts included; messages not
   * counted yet are 0).
   * O(n) for the prefix sums.
   */
  table(): TokenTable {
    const n = this.perMessage.length;
    const prefix = new Float64Array(n + 1);
    for (let i = 0; i < n; i++)
      prefix[i + 1] = (prefix[i] as number) + (this.perMessage[i] as number);
    const { system, hard } = this.systemCount();
    return {
      perMessage: this.perMessage.slice(),
      prefix,
      system,
      total: system + (prefix[n] as number),
      basis: this.basis(this.hardCuts + hard, this.fromUsage),
      blocks: { start: this.blockStart.slice(), tokens: this.perBlock.slice() },
    };
  }

  /** The system prompt's tokens and the hard cuts in its texts. */
  systemCount(): { system: number; hard: number } {
    let system = 0;
    let hard = 0;
    const piece = this.counter.pieceChars;
    for (const s of this.t.system) {
      if (piece !== undefined) hard += hardCutCount(s.text, piece);
      system += Math.round(this.scale(this.counter.count(s.text), 'prose'));
    }
    return { system, hard };
  }

  /** The basis of a table with `hard` hard cuts in all and `fromUsage` replies counted from usage. */
  basis(hard: number, fromUsage: number): TokenTable['basis'] {
    const fam = tokenizerFamily(this.provider);
    const enc = this.counter.encoding;
    const exact = fam === 'openai' && enc !== 'chars/4' && hard === 0;
    let label = basisLabel(fam, enc, exact) + hardCutNote(hard);
    if (fromUsage > 0)
      label += `; ${fromUsage.toLocaleString('en-US')} ${fromUsage === 1 ? 'reply' : 'replies'} from the log's usage`;
    return { encoding: enc, exact, label };
  }

  /** @internal per-block counts of the messages counted (`BlockTokens.tokens`), not a copy. */
  get blockTokens(): Int32Array {
    return this.perBlock;
  }
}

/**
 * Token tables of requests that each extend the one before (a session log's calls along one
 * chain: the same message objects in the same places, more after them, and the same system,
 * settings, provider and counter): each request counts only the messages it adds, and its table
 * copies the counts kept so far (typed-array copies, no walk over the messages). Each table is
 * equal to `countTokensCached` of the same transcript (tokenChain.property.test.ts); a transcript
 * that does not extend the last one (fewer messages, another message in a counted place, another
 * system or provider) is counted afresh from it.
 */
export class TokenChain {
  private messages: readonly Message[] = [];
  private n = 0;
  private system: Transcript['system'] | null = null;
  private key = '';
  private sys = { system: 0, hard: 0 };
  private per = new Uint32Array(4);
  private prefix = new Float64Array(5);
  private blockStart = new Uint32Array(5);
  private perBlock = new Int32Array(4);
  private fromUsage = 0;
  private hardCuts = 0;
  /** The last table's basis and the counts it was made from. */
  private basis: { cuts: number; fromUsage: number; basis: TokenTable['basis'] } | null = null;
  private readonly counter: TextCounter;
  private readonly cache: TokenCache;
  private readonly opts: CountingOptions;

  constructor(counter: TextCounter, cache: TokenCache, opts: CountingOptions = {}) {
    this.counter = counter;
    this.cache = cache;
    this.opts = opts;
  }

  /** True when `t` extends what was counted last (see the class comment). */
  private extendsLast(t: Transcript, key: string): boolean {
    const ms = t.messages;
    const m = this.n;
    if (key !== this.key || t.system !== this.system || ms.length < m) return false;
    // The chain's callers share message objects; the first and last counted ones stand for them.
    return m === 0 || (ms[0] === this.messages[0] && ms[m - 1] === this.messages[m - 1]);
  }

  /**
   * The token table of `t` (as `countTokensCached(t, provider, counter, cache, opts)`).
   * O(messages added) to count, plus typed-array copies of the table's O(n) arrays.
   */
  table(t: Transcript, provider: ProviderId): TokenTable {
    const key = `${provider}\u0000${t.settings.model ?? ''}`;
    const ms = t.messages;
    const n = ms.length;
    if (!this.extendsLast(t, key)) {
      this.n = 0;
      this.fromUsage = 0;
      this.hardCuts = 0;
      this.key = key;
      this.basis = null;
      this.system = t.system;
      this.sys = new TokenCounting(t, provider, this.counter, this.cache, this.opts).systemCount();
    }
    const m = this.n;
    const added: Transcript = { ...t, messages: ms.slice(m) };
    const c = new TokenCounting(added, provider, this.counter, this.cache, this.opts);
    c.countSlice(n - m, Infinity);
    this.per = grown(this.per, m, n);
    this.prefix = grown(this.prefix, m + 1, n + 1);
    this.blockStart = grown(this.blockStart, m + 1, n + 1);
    const b0 = this.blockStart[m] as number;
    const addedBlocks = c.blockTokens;
    this.perBlock = grown(this.perBlock, b0, b0 + addedBlocks.length);
    this.perBlock.set(addedBlocks, b0);
    for (let i = m; i < n; i++) {
      const tok = c.perMessage[i - m] as number;
      this.per[i] = tok;
      this.prefix[i + 1] = (this.prefix[i] as number) + tok;
      this.blockStart[i + 1] = (this.blockStart[i] as number) + (ms[i] as Message).blocks.length;
    }
    this.fromUsage += c.fromUsage;
    this.hardCuts += c.hardCuts;
    this.messages = ms;
    this.n = n;
    const { system, hard } = this.sys;
    // The label's number is formatted per locale (slow): made again only when a count in it moves.
    const cuts = this.hardCuts + hard;
    if (!this.basis || this.basis.cuts !== cuts || this.basis.fromUsage !== this.fromUsage)
      this.basis = { cuts, fromUsage: this.fromUsage, basis: c.basis(cuts, this.fromUsage) };
    return {
      perMessage: this.per.slice(0, n),
      prefix: this.prefix.slice(0, n + 1),
      system,
      total: system + (this.prefix[n] as number),
      basis: { ...this.basis.basis },
      blocks: {
        start: this.blockStart.slice(0, n + 1),
        tokens: this.perBlock.slice(0, this.blockStart[n] as number),
      },
    };
  }
}

/**
 * Count a whole transcript at once with a cache (a convenience over `TokenCounting`).
 * @returns the same table as `countTokens(t, provider, counter)` when `preferUsage` is off
 */
export function countTokensCached(
  t: Transcript,
  provider: ProviderId,
  counter: TextCounter,
  cache: TokenCache,
  opts: CountingOptions = {},
): TokenTable {
  const c = new TokenCounting(t, provider, counter, cache, opts);
  c.countSlice(t.messages.length, Infinity);
  return c.table();
}
