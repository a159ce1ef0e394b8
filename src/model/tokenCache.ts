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
 *   them (`MessageMeta.usageOutputTokens`, ../shared/docs/formats.md §6: the provider's output
 *   tokens of that reply), when `preferUsage` is on.
 *
 * Pure TypeScript (runs in the worker, Node and tests). Results are the same `TokenTable` shape
 * as tokens.ts (typed arrays: per-message counts and prefix sums), so everything downstream
 * (eviction, exchanges) is unchanged. Without usage figures the counts equal `countTokens`.
 */
import {
  claudeFactor,
  countableText,
  MESSAGE_OVERHEAD,
  type TextCounter,
  type TokenTable,
} from './tokens.ts';
import type { Block, Message, ProviderId, Transcript } from './types.ts';

/** Raw (unscaled) counts per block, one map per encoding. Blocks are the parse's own objects. */
export class TokenCache {
  private readonly byEncoding = new Map<string, WeakMap<Block, number>>();

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
}

function family(p: ProviderId): 'openai' | 'claude' | 'gemini' {
  if (p === 'anthropic' || p === 'bedrock') return 'claude';
  if (p === 'gemini') return 'gemini';
  return 'openai';
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
  private next = 0;
  /** Messages whose count came from the transcript's usage figures. */
  fromUsage = 0;
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
    const fam = family(provider);
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
   * Count up to `maxMessages` more messages.
   * @returns the number counted in this slice
   */
  countSlice(maxMessages: number): number {
    const end = Math.min(this.t.messages.length, this.next + maxMessages);
    const start = this.next;
    for (let i = start; i < end; i++)
      this.perMessage[i] = this.countMessage(this.t.messages[i] as Message);
    this.next = end;
    return end - start;
  }

  private countMessage(m: Message): number {
    const usage = m.meta?.usageOutputTokens;
    if (this.opts.preferUsage && m.role === 'assistant' && usage !== undefined && usage > 0) {
      this.fromUsage++;
      return MESSAGE_OVERHEAD + usage;
    }
    let sum = MESSAGE_OVERHEAD;
    for (const b of m.blocks) {
      const { text, cls, fixed } = countableText(b);
      sum += Math.round(this.scale(this.cache.raw(this.counter, b, text), cls)) + fixed;
    }
    return sum;
  }

  /**
   * The token table (same shape and labels as `countTokens`; messages not counted yet are 0).
   * O(n) for the prefix sums.
   */
  table(): TokenTable {
    const n = this.perMessage.length;
    const prefix = new Float64Array(n + 1);
    for (let i = 0; i < n; i++)
      prefix[i + 1] = (prefix[i] as number) + (this.perMessage[i] as number);
    let system = 0;
    for (const s of this.t.system)
      system += Math.round(this.scale(this.counter.count(s.text), 'prose'));
    const fam = family(this.provider);
    const enc = this.counter.encoding;
    const exact = fam === 'openai' && enc !== 'chars/4';
    let label =
      enc === 'chars/4'
        ? '≈ chars/4 (tokenizer loading)'
        : exact
          ? `exact ${enc} (text) + ${MESSAGE_OVERHEAD}/message framing`
          : fam === 'claude'
            ? `≈ Claude estimate: ${enc} × content factor`
            : `≈ Gemini estimate: ${enc} × 1.08`;
    if (this.fromUsage > 0) label += `; ${this.fromUsage} replies from the log's usage`;
    return {
      perMessage: this.perMessage.slice(),
      prefix,
      system,
      total: system + (prefix[n] as number),
      basis: { encoding: enc, exact, label },
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
  c.countSlice(t.messages.length);
  return c.table();
}
