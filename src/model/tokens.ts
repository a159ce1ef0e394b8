/**
 * Token counts per block and message, and prefix sums for the eviction simulator.
 *
 * Which number to trust (docs/formats.md#token-counts): usage figures from the transcript
 * first; exact o200k/cl100k BPE counts for OpenAI models (gpt-tokenizer); for Claude and Gemini
 * an o200k count times a content-class factor, labelled as an estimate. Base64 media,
 * signatures, redacted thinking and encrypted content are never tokenised as text.
 */
import type { Block, Message, ProviderId, Transcript } from './types.ts';
import { ENDPOINTS } from './validate/endpoints/index.ts';
import type { TokenizerFamily } from './validate/endpoints/windows.ts';

export type { TokenizerFamily };

/** Counts tokens in a string. `exact` is true only for a real BPE of the target model family. */
export interface TextCounter {
  /** `o200k_base`, `cl100k_base`, or `chars/4` for the placeholder heuristic. */
  encoding: string;
  count: (text: string) => number;
  /**
   * Set when `count(text)` is the sum of `count(piece)` over `countingPieces(text, pieceChars)`
   * (the BPE counters), so a caller may count a long text piece by piece (e.g. yield between
   * pieces in a worker) and get the same total. Absent for `chars/4`.
   */
  pieceChars?: number;
}

/**
 * Longest piece (UTF-16 code units) a BPE counter tokenises in one call. gpt-tokenizer's merge
 * loop is super-linear in the length of one pre-token (a run with no split points): measured on
 * Node 20, one run of 16,000 `y` took 250 ms and 32,000 took 1,100 ms (400 KB: minutes), while
 * 400 KB of random lowercase letters in 500-, 1,000- or 2,000-char pieces took 1.2 s and in
 * 8,000-char pieces 3.3 s; one 2,000-char piece costs at most ≈ 5 ms. Chosen: 2,000.
 */
export const COUNT_PIECE_CHARS = 2000;

const isWhite = (c: number) =>
  c === 32 ||
  (c >= 9 && c <= 13) ||
  c === 0x85 ||
  c === 0xa0 ||
  c === 0x1680 ||
  (c >= 0x2000 && c <= 0x200a) ||
  c === 0x2028 ||
  c === 0x2029 ||
  c === 0x202f ||
  c === 0x205f ||
  c === 0x3000;

/**
 * Split a text into pieces of at most `limit` UTF-16 code units whose concatenation is the text
 * (nothing lost or duplicated). A cut is made right before a space (U+0020) that follows a
 * non-whitespace character, at the last such place within the limit: both o200k and cl100k
 * pre-tokenisers start a new pre-token there (" word" keeps its space), so these cuts do not
 * change a BPE count (property-tested in tokens.test.ts). Where the window has no such space,
 * the cut is hard, at `limit` (one code unit earlier rather than inside a surrogate pair); a hard
 * cut can change the count of the pre-token it splits: over 40,000 random hard cuts in runs of
 * letters, digits and accented/CJK text (o200k and cl100k) the difference was −2…+2 tokens, and
 * 0 or ±1 in 99.6 % of cuts (a `y`/`x` run cut at a multiple of 8 chars: 0). BPE gives no proven
 * bound; tokens.test.ts checks ≤ 2 per cut on fixed seeds. Texts of at most `limit` come back as
 * one piece.
 * @param text any string
 * @param limit piece length in UTF-16 code units (≥ 2; default COUNT_PIECE_CHARS)
 * @returns the pieces, in order; `[text]` when short (`[]` never: `''` gives `['']`)
 */
export function countingPieces(text: string, limit: number = COUNT_PIECE_CHARS): string[] {
  const max = Math.max(2, Math.floor(limit));
  if (text.length <= max) return [text];
  const out: string[] = [];
  let start = 0;
  while (text.length - start > max) {
    let cut = -1;
    for (let i = start + max; i > start; i--) {
      if (text.charCodeAt(i) === 32 && !isWhite(text.charCodeAt(i - 1))) {
        cut = i;
        break;
      }
    }
    if (cut < 0) {
      cut = start + max;
      const hi = text.charCodeAt(cut - 1);
      const lo = text.charCodeAt(cut);
      if (hi >= 0xd800 && hi <= 0xdbff && lo >= 0xdc00 && lo <= 0xdfff) cut--;
    }
    out.push(text.slice(start, cut));
    start = cut;
  }
  out.push(text.slice(start));
  return out;
}

/** The placeholder heuristic (chars ÷ 4) used until a BPE vocabulary has loaded. */
export const CHARS_PER_4: TextCounter = {
  encoding: 'chars/4',
  count: (text) => Math.ceil(text.length / 4),
};

/**
 * Number of hard cuts `countingPieces(text, limit)` makes (cuts not before a space that follows
 * non-whitespace). Each can move a BPE count by at most 2 tokens (measured, see countingPieces).
 * @returns 0 for a text of at most `limit` code units or one cut only at spaces
 */
export function hardCutCount(text: string, limit: number = COUNT_PIECE_CHARS): number {
  if (text.length <= limit) return 0;
  const pieces = countingPieces(text, limit);
  let hard = 0;
  for (let i = 1; i < pieces.length; i++) {
    const prev = pieces[i - 1] as string;
    const soft =
      (pieces[i] as string).charCodeAt(0) === 32 && !isWhite(prev.charCodeAt(prev.length - 1));
    if (!soft) hard++;
  }
  return hard;
}

/** Label suffix for counts that include hard cuts (empty for none). */
export function hardCutNote(hard: number): string {
  return hard > 0
    ? `; ${hard} hard cut${hard === 1 ? '' : 's'} in long runs without spaces (±2 tokens each)`
    : '';
}

/**
 * Load an exact BPE counter (gpt-tokenizer). The vocabulary (~1 MB gzip for o200k) is a lazy
 * chunk: it is fetched only when this is called.
 * Special tokens such as `<|endoftext|>` in the text are counted as plain text, as the API does.
 * A text longer than COUNT_PIECE_CHARS is counted in pieces (`countingPieces`) and summed, so a
 * long run without split points (400 KB of `y`) takes milliseconds instead of minutes. Cuts at
 * spaces leave the count unchanged; a hard cut (inside a run with no space) can differ from the
 * unsplit count by at most two tokens per cut (measured; usually 0 or 1, see countingPieces).
 * @throws if the module cannot be loaded (offline build without the chunk)
 */
export async function loadBpeCounter(
  encoding: 'o200k_base' | 'cl100k_base' = 'o200k_base',
): Promise<TextCounter> {
  const mod =
    encoding === 'o200k_base'
      ? await import('gpt-tokenizer/encoding/o200k_base')
      : await import('gpt-tokenizer/encoding/cl100k_base');
  const opts = { disallowedSpecial: new Set<string>() };
  const one = (text: string) => (text.length === 0 ? 0 : mod.countTokens(text, opts));
  return {
    encoding,
    pieceChars: COUNT_PIECE_CHARS,
    count: (text: string) => {
      if (text.length <= COUNT_PIECE_CHARS) return one(text);
      let n = 0;
      for (const piece of countingPieces(text, COUNT_PIECE_CHARS)) n += one(piece);
      return n;
    },
  };
}

/** Content class of a block, for the Claude estimate factors. */
type ContentClass = 'prose' | 'json' | 'other';

/**
 * Claude factors over o200k (measured against Anthropic's count_tokens, Claude 3 → Opus 4.6): prose 1.20, JSON 1.14,
 * other 1.17; a further ×1.3 for Opus 4.7+ and 5.x on prose and JSON.
 */
export function claudeFactor(cls: ContentClass, model: string | undefined): number {
  const base = cls === 'prose' ? 1.2 : cls === 'json' ? 1.14 : 1.17;
  const newer = model !== undefined && /claude-(opus-4-[7-9]|opus-5|sonnet-5|\w+-5)/.test(model);
  return newer && cls !== 'other' ? base * 1.3 : base;
}

/**
 * How far an estimated count may be from the provider's own, as a fraction: the true count is
 * taken to lie within `estimate / (1 + m)` … `estimate × (1 + m)`. Used to judge a context
 * window (validate/contextWindow.ts): an estimate is called over the window only beyond it.
 * `openai` 0: an exact BPE count (a count that is not exact, chars/4 or one with hard cuts, is
 * judged with the `other` margin). `claude` 0.3: the factors of `claudeFactor` are averages of a
 * measurement whose spread was not recorded; they differ by × 1.3 between Claude generations, so
 * an estimate made with the wrong generation's factor is off by that much — the margin covers it.
 * `gemini` 0.3: the × 1.08 is one average, no spread measured; the Claude margin is taken.
 * `other` 0.5: a BPE of OpenAI's, not the model's own tokenizer (DeepSeek, Kimi, Mistral, Qwen):
 * their vocabularies differ, most of all for non-English text. Chosen, not measured: a count
 * inside the margin is only "may exceed".
 */
export const ESTIMATE_MARGIN: Readonly<Record<TokenizerFamily, number>> = {
  openai: 0,
  claude: 0.3,
  gemini: 0.3,
  other: 0.5,
};

/**
 * The range of the factor an estimate multiplies an o200k count by, per family (`countTokens`):
 * Claude 1.14 (JSON) … 1.2 × 1.3 (prose on Opus 4.7+ and 5.x), Gemini 1.08, the others 1.
 */
export const FAMILY_FACTORS: Readonly<Record<TokenizerFamily, readonly [number, number]>> = {
  openai: [1, 1],
  claude: [1.14, 1.2 * 1.3],
  gemini: [1.08, 1.08],
  other: [1, 1],
};

/** Fixed estimate for an image when its dimensions are unknown (≈ a 1092×1092 image on Claude). */
export const IMAGE_TOKENS_ESTIMATE = 1600;

/** Per-message framing overhead (role markers), tokens; OpenAI documents about 3. */
export const MESSAGE_OVERHEAD = 3;

/** Text of a block that a model reads as text (never base64, signatures or encrypted data). */
export function countableText(b: Block): { text: string; cls: ContentClass; fixed: number } {
  switch (b.type) {
    case 'text':
      return { text: b.text, cls: 'prose', fixed: 0 };
    case 'thinking':
      return { text: b.thinking, cls: 'prose', fixed: 0 };
    case 'tool_use':
      return {
        text: b.name + (typeof b.input === 'string' ? b.input : JSON.stringify(b.input ?? {})),
        cls: 'json',
        fixed: 0,
      };
    case 'tool_result': {
      let text = '';
      let fixed = 0;
      for (const c of b.content) {
        const inner = countableText(c);
        text += inner.text;
        fixed += inner.fixed;
      }
      return { text, cls: 'json', fixed };
    }
    case 'image':
      return { text: '', cls: 'other', fixed: IMAGE_TOKENS_ESTIMATE };
    case 'document':
      return {
        text: '',
        cls: 'other',
        fixed: b.bytes !== undefined ? Math.ceil(b.bytes / 4) : IMAGE_TOKENS_ESTIMATE,
      };
    case 'redacted_thinking':
      return { text: '', cls: 'other', fixed: 0 };
    case 'other':
      return { text: JSON.stringify(b.raw) ?? '', cls: 'other', fixed: 0 };
  }
}

/**
 * `countableText(b).text.length`, without building the text (a tool result's parts are summed,
 * not joined; issue 38: the chars/4 count of the 115 MB log's answer built every one).
 */
export function countableLength(b: Block): number {
  switch (b.type) {
    case 'text':
      return b.text.length;
    case 'thinking':
      return b.thinking.length;
    case 'tool_use':
      return (
        b.name.length +
        String(typeof b.input === 'string' ? b.input : JSON.stringify(b.input ?? {})).length
      );
    case 'tool_result': {
      let n = 0;
      for (const c of b.content) n += countableLength(c);
      return n;
    }
    case 'other':
      return (JSON.stringify(b.raw) ?? '').length;
    default:
      return 0;
  }
}

/** `countableText(b).fixed` (fixed-estimate tokens: images, documents), without the text. */
export function countableFixed(b: Block): number {
  switch (b.type) {
    case 'tool_result': {
      let n = 0;
      for (const c of b.content) n += countableFixed(c);
      return n;
    }
    case 'image':
      return IMAGE_TOKENS_ESTIMATE;
    case 'document':
      return b.bytes !== undefined ? Math.ceil(b.bytes / 4) : IMAGE_TOKENS_ESTIMATE;
    default:
      return 0;
  }
}

/** How the counts were obtained, shown next to every figure. */
export interface TokenBasis {
  encoding: string;
  /** True when the counts are exact for the provider's model family (OpenAI + BPE). */
  exact: boolean;
  /** e.g. "exact o200k_base", "≈ Claude estimate: o200k × content factor", "≈ chars/4". */
  label: string;
}

export interface TokenTable {
  /** Tokens per message (ours), including MESSAGE_OVERHEAD. */
  perMessage: Uint32Array;
  /** prefix[i] = tokens of messages [0, i); length n + 1. */
  prefix: Float64Array;
  /** Tokens of the top-level system prompt. */
  system: number;
  /** System prompt + all messages. */
  total: number;
  basis: TokenBasis;
  /**
   * Tokens per block, as the message counts add them up (absent on a table built by hand):
   * the policies that clear or remove single blocks read what those blocks cost from here.
   */
  blocks?: BlockTokens;
}

/**
 * Tokens per block of every message: message i's blocks are `tokens[start[i] + j]`, j below its
 * block count; each is what the message's count adds for that block (scaled by the content
 * factor, fixed estimates included, framing not), so a counted message's blocks sum to
 * `perMessage[i] − MESSAGE_OVERHEAD`. −1 for every block of a message whose count is a usage
 * figure from the log (counted as a whole, not per block).
 */
export interface BlockTokens {
  /** First block of message i; length n + 1. */
  start: Uint32Array;
  /** Tokens per block, −1 where not counted per block. */
  tokens: Int32Array;
}

/** The `start` offsets of `BlockTokens` for a list of messages (length n + 1). */
export function blockStarts(messages: readonly Message[]): Uint32Array {
  const start = new Uint32Array(messages.length + 1);
  for (let i = 0; i < messages.length; i++)
    start[i + 1] = (start[i] as number) + (messages[i] as Message).blocks.length;
  return start;
}

/**
 * The tokenizer family of an endpoint's models, as its registry entry says
 * (`Endpoint.tokenizer`, `validate/endpoints/windows.ts`): the one place that says so
 * (`countTokens` and `TokenCounting` both read it).
 */
export function tokenizerFamily(p: ProviderId): TokenizerFamily {
  return ENDPOINTS[p].tokenizer;
}

/**
 * The basis label of a count: how it was made, for the figure's note.
 * @param family the endpoint's tokenizer family
 * @param encoding the counter's encoding (`chars/4` while a BPE loads)
 * @param exact whether the count is exact (an OpenAI family, a BPE, no hard cut)
 */
export function basisLabel(family: TokenizerFamily, encoding: string, exact: boolean): string {
  if (encoding === 'chars/4')
    return '≈ estimate, chars/4 (tokenizer loading): the counts change when exact ones arrive';
  switch (family) {
    case 'openai':
      return `${exact ? 'exact' : '≈'} ${encoding} (text) + ${MESSAGE_OVERHEAD}/message framing`;
    case 'claude':
      return `≈ Claude estimate: ${encoding} × content factor`;
    case 'gemini':
      return `≈ Gemini estimate: ${encoding} × 1.08`;
    case 'other':
      return `≈ estimate: ${encoding} (not the model's own tokenizer) + ${MESSAGE_OVERHEAD}/message framing`;
  }
}

/**
 * Count tokens per message for a provider.
 * @param t the transcript
 * @param provider decides exact vs estimate (Claude: o200k × factor; Gemini: o200k × 1.08)
 * @param counter a text counter (`CHARS_PER_4` until a BPE has loaded)
 * @returns per-message counts (tokens), prefix sums and the basis label. O(total text). With a
 *   piecewise counter, hard cuts in long runs (`hardCutCount`) are named in the label and make an
 *   OpenAI count not exact (`≈`, ±2 tokens per hard cut).
 */
export function countTokens(
  t: Transcript,
  provider: ProviderId,
  counter: TextCounter = CHARS_PER_4,
): TokenTable {
  const family = tokenizerFamily(provider);
  const model = t.settings.model;
  const scale = (n: number, cls: ContentClass) =>
    counter.encoding === 'chars/4'
      ? n
      : family === 'claude'
        ? n * claudeFactor(cls, model)
        : family === 'gemini'
          ? n * 1.08
          : n;
  const piece = counter.pieceChars;
  let hard = 0;
  const start = blockStarts(t.messages);
  const perBlock = new Int32Array(start[t.messages.length] as number);
  const countMessage = (m: Message, i: number): number => {
    let sum = MESSAGE_OVERHEAD;
    let at = start[i] as number;
    for (const b of m.blocks) {
      const { text, cls, fixed } = countableText(b);
      if (piece !== undefined) hard += hardCutCount(text, piece);
      const tok = Math.round(scale(counter.count(text), cls)) + fixed;
      perBlock[at++] = tok;
      sum += tok;
    }
    return sum;
  };
  const n = t.messages.length;
  const perMessage = new Uint32Array(n);
  const prefix = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) {
    perMessage[i] = countMessage(t.messages[i] as Message, i);
    prefix[i + 1] = (prefix[i] as number) + (perMessage[i] as number);
  }
  let system = 0;
  for (const s of t.system) {
    if (piece !== undefined) hard += hardCutCount(s.text, piece);
    system += Math.round(scale(counter.count(s.text), 'prose'));
  }
  const exact = family === 'openai' && counter.encoding !== 'chars/4' && hard === 0;
  const label = basisLabel(family, counter.encoding, exact) + hardCutNote(hard);
  return {
    perMessage,
    prefix,
    system,
    total: system + (prefix[n] as number),
    basis: { encoding: counter.encoding, exact, label },
    blocks: { start, tokens: perBlock },
  };
}

/** Sum of `perMessage` over a list of message indices, in tokens. */
export function sumTokens(table: TokenTable, indices: Iterable<number>): number {
  let s = 0;
  for (const i of indices) s += table.perMessage[i] ?? 0;
  return s;
}
