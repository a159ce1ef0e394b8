/**
 * The sharing contract (issue 15) as a check: a copy of a transcript — a structure-only copy, an
 * export read back — is "the same" when it has the same format, messages (role and block types),
 * exchanges, tool pairs (status, ids through the rename map), token count per message and
 * violations (rule and message index) under its own provider and every other one. Used by the
 * tests of every format and by `cli share`.
 */
import { analyze } from '../analyze.ts';
import { CHARS_PER_4, countTokens, type TextCounter } from '../tokens.ts';
import type { Block, Transcript } from '../types.ts';
import {
  defaultProviderOf,
  VALIDATORS,
  validateTranscript,
  type Violation,
} from '../validate/index.ts';
import { isIdKey, isTimestamp, publicModel } from './renames.ts';
import { foreignStrings, isStructureString } from './foreign.ts';

export interface ShapeOptions {
  /** Counter for the per-message token counts (the page's, or `CHARS_PER_4`). */
  counter: TextCounter;
  /** Original id → id in the copy (a redaction's map); ids not in it compare as they are. */
  ids?: ReadonlyMap<string, string>;
  /** Original tool name → name in the copy (hidden names). */
  names?: ReadonlyMap<string, string>;
}

/** What must be identical between a transcript and its copy, as plain comparable values. */
export function transcriptShape(t: Transcript, opts: ShapeOptions, mapped = false) {
  const tokens = countTokens(t, defaultProviderOf(t), opts.counter);
  // The context window is judged by the count (a copy keeps the counts of the counter it was made
  // with, not the letters the text-only bound reads: placeholders are `x` runs), so with a BPE
  // counter the verdict is compared as that count judges it; with chars/4, which judges no
  // window, and for the other providers (whose counts are not made here), without the window.
  const count =
    tokens.basis.encoding === CHARS_PER_4.encoding
      ? undefined
      : { tokens: tokens.total, exact: tokens.basis.exact, label: tokens.basis.label };
  const a = analyze(t, undefined, count ? { inputTokens: count } : undefined);
  const id = (x: string | null) => (x === null || !mapped ? x : (opts.ids?.get(x) ?? x));
  const name = (x: string) => (!mapped ? x : (opts.names?.get(x) ?? x));
  const judged = (v: Violation) => count !== undefined || v.rule !== 'context_window_exceeded';
  const verdict = (v: Violation) =>
    `${v.rule}@${v.index}${v.ids.length ? ` ${v.ids.map((x) => id(x)).join(',')}` : ''}`;
  return {
    format: t.format,
    // A turn of results only is the same whether the format puts it in `user` (Anthropic) or
    // `tool` messages (OpenAI-style formats write a repair's user turn of results that way).
    messages: t.messages.map((m) => {
      const results =
        m.role === 'tool' ||
        (m.role === 'user' &&
          m.blocks.length > 0 &&
          m.blocks.every((b) => b.type === 'tool_result'));
      return `${results ? 'results' : m.role}:${m.blocks.map((b) => b.type).join(',')}`;
    }),
    exchanges: a.grouping.exchanges.map((x) => x.messages.join(',')),
    pairs: a.pairs.map((p) =>
      [
        p.status,
        id(p.id),
        name(p.name),
        p.call ? `${p.call.message}.${p.call.block}` : '-',
        p.result ? `${p.result.message}.${p.result.block}` : '-',
      ].join(' '),
    ),
    tokens: [...tokens.perMessage].join(','),
    systemTokens: tokens.system,
    violations: a.validation.violations.filter(judged).map(verdict),
    // Every other provider's verdict too: ids keep their length and punctuation (A18, M4, O10…).
    providers: VALIDATORS.filter((p) => p.id !== a.provider).map(
      (p) =>
        `${p.id}: ${validateTranscript(t, p.id)
          .violations.filter((v) => v.rule !== 'context_window_exceeded')
          .map(verdict)
          .join('; ')}`,
    ),
  };
}

/**
 * Where a copy differs from the original: one line per field that differs (format, messages,
 * exchanges, pairs, tokens, system tokens, violations, other providers' violations), with the
 * first differing item.
 * @returns an empty list when the copy keeps the contract
 */
export function shapeDifferences(
  original: Transcript,
  copy: Transcript,
  opts: ShapeOptions,
): string[] {
  const want = transcriptShape(original, opts, true);
  const got = transcriptShape(copy, opts);
  const out: string[] = [];
  for (const key of Object.keys(want) as (keyof typeof want)[]) {
    const a = want[key];
    const b = got[key];
    if (Array.isArray(a) && Array.isArray(b)) {
      if (a.length !== b.length)
        out.push(`${key}: ${a.length} in the original, ${b.length} in the copy`);
      else {
        const i = a.findIndex((x, k) => x !== b[k]);
        if (i >= 0)
          out.push(`${key}[${i}]: ${String(a[i])} in the original, ${String(b[i])} in the copy`);
      }
    } else if (a !== b) out.push(`${key}: ${String(a)} in the original, ${String(b)} in the copy`);
  }
  return out;
}

/** Words shorter than this many letters or digits say too little to count as a leak. */
const WORD_MIN = 5;

const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;

/**
 * Each word of five letters or digits or more in `s`, handed to `add`. A loop over the
 * characters, not a regular expression over the text: a 6-million-character run of letters and
 * digits (an 8 MB hex dump in a tool result) overflowed the regex engine's stack (issue 37).
 */
export function eachWord(s: string, add: (w: string) => void): void {
  let start = -1;
  let letters = 0;
  for (let i = 0; i <= s.length; i++) {
    const c = i < s.length ? s.charCodeAt(i) : 32;
    let word: boolean;
    let width = 1;
    if (c < 128) word = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
    else {
      const cp = s.codePointAt(i) as number;
      width = cp > 0xffff ? 2 : 1;
      word = LETTER_OR_DIGIT.test(String.fromCodePoint(cp));
    }
    if (word) {
      if (start < 0) start = i;
      letters++;
      i += width - 1;
    } else {
      if (start >= 0 && letters >= WORD_MIN) add(s.slice(start, i));
      start = -1;
      letters = 0;
    }
  }
}

/**
 * A word a renamed id is made of (renames.ts `shapedId`): `r`, zeros and a base-36 serial. It
 * carries nothing of the original (zeros and at most four characters of serial), even when the
 * original's text has the same word (`0.000000000001` in a code listing, and a uuid's last group
 * renamed to `000000000001`).
 */
const RENAMED_ID_WORD = /^r?0+[0-9a-z]{0,4}$/;

/** Values under these keys are schema words in every format we write (not a person's text). */
const SCHEMA_VALUE_KEYS = new Set([
  'type',
  'subtype',
  'role',
  'media_type',
  'mimeType',
  'object',
  'stop_reason',
]);

/** Words a copy may hold: JSON keys that look like schema, schema values, tool names it keeps. */
function allowedWords(copy: unknown, toolNames: ReadonlySet<string>): Set<string> {
  const words = new Set<string>();
  const add = (s: string) => eachWord(s, (w) => words.add(w));
  toolNames.forEach(add);
  const walk = (v: unknown, key?: string): void => {
    if (typeof v === 'string') {
      // Schema values, a public model name, a date-time of the relative clock.
      if ((key !== undefined && (SCHEMA_VALUE_KEYS.has(key) || key === 'model')) || isTimestamp(v))
        add(v);
    } else if (v !== null && typeof v !== 'object')
      add(String(v)); // numbers, booleans: not text
    else if (Array.isArray(v)) v.forEach((x) => walk(x, key));
    else if (v !== null && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) {
        if (/^[A-Za-z_$][\w$-]{0,39}$/.test(k)) add(k);
        walk(x, k);
      }
  };
  walk(copy);
  return words;
}

/** Every string of the original that is not structure: texts, inputs, results, ids, times. */
function originalStrings(t: Transcript): { words: Set<string>; exact: Set<string> } {
  const words = new Set<string>();
  const exact = new Set<string>();
  const add = (s: string) => eachWord(s, (w) => words.add(w));
  const walkRaw = (v: unknown, key?: string): void => {
    if (typeof v === 'string') {
      // A model id (`modelId` is a model's name, not an id the copy renames): only a custom one.
      if (key === 'model' || key === 'modelId') {
        if (publicModel(v) !== v) exact.add(v);
      } else if (key !== undefined && (isIdKey(key) || isTimestamp(v)) && v.length >= 8)
        exact.add(v);
    } else if (Array.isArray(v)) v.forEach((x) => walkRaw(x, key));
    else if (v !== null && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) walkRaw(x, k);
  };
  const block = (b: Block): void => {
    if (b.type === 'text') add(b.text);
    else if (b.type === 'thinking') add(b.thinking);
    else if (b.type === 'tool_use') {
      add(JSON.stringify(b.input ?? null));
      if (b.id !== null && b.id.length >= 8) exact.add(b.id);
    } else if (b.type === 'tool_result') {
      b.content.forEach(block);
      if (b.toolUseId !== null && b.toolUseId.length >= 8) exact.add(b.toolUseId);
    } else if (b.type === 'other') add(JSON.stringify(b.raw ?? null));
  };
  for (const m of t.messages) m.blocks.forEach(block);
  for (const s of t.system) add(s.text);
  for (const d of t.tools ?? []) if (d.description) add(d.description);
  walkRaw(t.raw);
  return { words, exact };
}

/**
 * What a structure-only copy still holds of the original: words of its texts, inputs, results,
 * system prompt and tool descriptions (five letters or more, not a schema word or a kept tool
 * name), and its ids, uuids, session ids, date-times and custom model names verbatim; and every
 * string or key of the copy outside its vocabulary (`foreign.ts`: what the copy holds wherever it
 * sits, issue 37). An original that is itself a structure-only copy leaks nothing by holding its
 * own renamed ids and relative times: redaction is idempotent.
 * @param original the transcript as parsed
 * @param copyText the copy as written (JSON or JSON Lines)
 * @param keptNames the tool names the copy keeps (empty when hidden)
 * @returns the leaked strings, sorted; empty when nothing leaks
 */
export function leakedStrings(
  original: Transcript,
  copyText: string,
  keptNames: ReadonlySet<string>,
): string[] {
  let docs: unknown[];
  try {
    docs = [JSON.parse(copyText)];
  } catch {
    docs = copyText
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as unknown);
  }
  const allowed = allowedWords(docs, keptNames);
  const present = new Set<string>();
  eachWord(copyText, (w) => present.add(w));
  const { words, exact } = originalStrings(original);
  const leaks = [...words].filter(
    (w) => present.has(w) && !allowed.has(w) && !keptNames.has(w) && !RENAMED_ID_WORD.test(w),
  );
  leaks.push(...occurring(exact, copyText).filter((s) => !isStructureString(s, keptNames)));
  leaks.push(...foreignStrings(docs, keptNames));
  return [...new Set(leaks)].sort();
}

/** Strings at least this long are found by their first `KEY` characters (`occurring`). */
const KEY = 8;

/**
 * The strings of `wanted` that occur in `text`. One pass over `text` looking up each position's
 * next `KEY` characters among the wanted strings' prefixes, so thousands of ids cost about one
 * scan of a 2 MB copy rather than one each; shorter strings are searched one by one. Exported
 * for its property test.
 */
export function occurring(wanted: Iterable<string>, text: string): string[] {
  const byKey = new Map<string, string[]>();
  const found: string[] = [];
  for (const s of wanted) {
    if (s.length < KEY) {
      if (text.includes(s)) found.push(s);
      continue;
    }
    const k = s.slice(0, KEY);
    const list = byKey.get(k);
    if (list) list.push(s);
    else byKey.set(k, [s]);
  }
  if (byKey.size === 0) return found;
  for (let i = 0; i + KEY <= text.length; i++) {
    const list = byKey.get(text.slice(i, i + KEY));
    if (!list) continue;
    for (let j = list.length - 1; j >= 0; j--) {
      const s = list[j] as string;
      if (!text.startsWith(s, i)) continue;
      found.push(s);
      list.splice(j, 1);
    }
    if (list.length === 0) byKey.delete(text.slice(i, i + KEY));
    if (byKey.size === 0) break;
  }
  return found;
}
