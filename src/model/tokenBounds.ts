/**
 * Bounds on a request's o200k token count from its text alone, without a BPE: what a context
 * window can be judged by before (or instead of) a count (validate/contextWindow.ts).
 *
 * Upper: a BPE token covers at least one UTF-8 byte, and a UTF-16 code unit is at most 3 UTF-8
 * bytes (a surrogate pair, 2 units, is 4), so a text has at most 3 tokens per code unit.
 * Lower: no o200k token holds more than 26 ASCII letters and digits (measured over the whole
 * vocabulary of gpt-tokenizer 4.0.0, o200k_base: the longest are `abcdefghijklmnopqrstuvwxyz` and
 * its capitals; the longest word is 20 letters; cl100k holds up to 41 and is not used here), so a
 * text has at least ⌈letters and digits ÷ 26⌉ tokens. Prose and code are mostly letters: 8 MB of
 * English text gives at least ≈ 230,000 tokens this way, over gpt-4o's 128,000.
 */
import type { Message, Transcript } from './types.ts';
import { countableFixed, countableLength, countableText, MESSAGE_OVERHEAD } from './tokens.ts';

/** Most ASCII letters and digits one o200k token holds (see the header). */
export const MAX_ALNUM_PER_TOKEN = 26;

/** Most tokens one UTF-16 code unit can take (3 UTF-8 bytes, one token each at worst). */
export const MAX_TOKENS_PER_UNIT = 3;

/** What a request's text says of its token count, before any BPE. */
export interface TextSize {
  /** UTF-16 code units of every countable text (`countableLength`), system prompt included. */
  units: number;
  /** Fixed estimates (images, documents: `countableFixed`), tokens; guesses, not counts. */
  fixed: number;
  /** Per-message framing (`MESSAGE_OVERHEAD` × messages), tokens, as `countTokens` adds it. */
  framing: number;
  /** Blocks and system parts counted (each count is rounded on its own: ±0.5 each). */
  parts: number;
}

/**
 * The size of a request's text: one pass over its blocks, summing lengths (no text is built
 * except a tool call's JSON input). O(blocks).
 * @param t the transcript (its system prompt is counted)
 * @param messages the messages of the request (default `t.messages`)
 */
export function textSize(t: Transcript, messages: readonly Message[] = t.messages): TextSize {
  let units = 0;
  let parts = 0;
  for (const s of t.system) {
    units += s.text.length;
    parts++;
  }
  const m = messagesSize(messages, 0, messages.length);
  return {
    units: units + m.units,
    fixed: m.fixed,
    framing: MESSAGE_OVERHEAD * messages.length,
    parts: parts + m.parts,
  };
}

/** `textSize` of messages [from, to), without the system prompt and framing. */
function messagesSize(
  messages: readonly Message[],
  from: number,
  to: number,
): { units: number; fixed: number; parts: number } {
  let units = 0;
  let fixed = 0;
  let parts = 0;
  for (let i = from; i < to; i++) {
    const blocks = (messages[i] as Message).blocks;
    for (let k = 0; k < blocks.length; k++) {
      const b = blocks[k] as Message['blocks'][number];
      units += countableLength(b);
      fixed += countableFixed(b);
      parts++;
    }
  }
  return { units, fixed, parts };
}

const isAlnum = (c: number) =>
  (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

/**
 * ASCII letters and digits of every countable text of a request (the lower bound's numerator):
 * one pass over the characters, so only for a request whose upper bound does not already decide.
 * O(text), or less with `stopAt`.
 * @param stopAt stop counting once this many are found (the caller needs no more to decide):
 *   the result is then at least `stopAt`, at most the full count
 */
export function alnumCount(
  t: Transcript,
  messages: readonly Message[] = t.messages,
  stopAt = Infinity,
): number {
  let n = 0;
  const scan = (text: string) => {
    for (let i = 0; i < text.length; i++) if (isAlnum(text.charCodeAt(i))) n++;
  };
  for (const s of t.system) scan(s.text);
  for (const m of messages) {
    if (n >= stopAt) return n;
    for (const b of m.blocks) scan(countableText(b).text);
  }
  return n;
}

/**
 * Bounds on the o200k text tokens (framing and fixed estimates apart) of a request of this size.
 * @param size `textSize(…)`
 * @param alnum `alnumCount(…)`, or undefined when not counted (the lower bound is then 0)
 * @returns `[lo, hi]`, tokens: every o200k count of these texts lies in it
 */
export function o200kTextBounds(size: TextSize, alnum?: number): readonly [number, number] {
  const lo = alnum === undefined ? 0 : Math.ceil(alnum / MAX_ALNUM_PER_TOKEN);
  return [lo, MAX_TOKENS_PER_UNIT * size.units];
}

/**
 * `textSize` along a chain of requests (a session log's calls, each extending the one before:
 * `chainValidation`): the sizes of the messages shared with the last request (the same objects
 * at the same positions) are kept, so a request costs the messages from the first that differs,
 * not its whole length. Every answer equals `textSize(t, messages)`.
 * @returns a function to call once per request, in order
 */
export function textSizeChain(): (t: Transcript, messages: readonly Message[]) => TextSize {
  let prev: readonly Message[] = [];
  // Prefix sums over prev: [i] = units, fixed, parts of messages [0, i).
  const units: number[] = [0];
  const fixed: number[] = [0];
  const parts: number[] = [0];
  return (t, messages) => {
    let same = 0;
    const n = Math.min(prev.length, messages.length);
    while (same < n && prev[same] === messages[same]) same++;
    units.length = fixed.length = parts.length = same + 1;
    for (let i = same; i < messages.length; i++) {
      const one = messagesSize(messages, i, i + 1);
      units.push((units[i] as number) + one.units);
      fixed.push((fixed[i] as number) + one.fixed);
      parts.push((parts[i] as number) + one.parts);
    }
    // A chain's lists are never changed after they are passed (`ChainValidate`).
    prev = messages;
    const sys = textSize(t, []);
    const k = messages.length;
    return {
      units: sys.units + (units[k] as number),
      fixed: fixed[k] as number,
      framing: MESSAGE_OVERHEAD * k,
      parts: sys.parts + (parts[k] as number),
    };
  };
}
