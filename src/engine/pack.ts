/**
 * The compact form of an inspection sent from the worker to the page (issue 7). A structured
 * clone of a whole Analysis spends most of its time on each message's source JSON (`raw`: a
 * Claude Code line carries tool output twice), and deserialising it is one long task on the
 * page. So the worker sends:
 * - messages in batches of columns (packMessages.ts), each a short task on the page;
 * - then everything else (pairs, grouping, validation: index-based, small) without messages;
 * - the transcript's own `raw` (the whole source value, only read by export) lazily re-parsed
 *   from the text on first read (for streamed files not enumerable, so spreads do not trigger it).
 * `stripTranscript`/`joinTranscript` (and `stripLists`/`joinLists`) are inverses: a
 * round trip gives a deep-equal Inspection (tested in pack.test.ts).
 */
import type { Analysis } from '../model/analyze.ts';
import { parseTranscript, type ParsedTranscript } from '../model/parse/index.ts';
import type { Exchange } from '../model/exchanges.ts';
import type { ToolPair } from '../model/pairing.ts';
import type { FormatId, Message, Transcript, UsageRecord } from '../model/types.ts';
import type { Inspection, PackedFaults } from './protocol.ts';

/** What a lazy value's `get` returns when its source is not at hand now: undefined, unsettled. */
const NOT_YET = Symbol('not yet');

/**
 * Define `obj[key]` as a value computed on first read (then a plain data property); a read while
 * `get` answers NOT_YET gives undefined and leaves it lazy.
 * `enumerable: false` keeps object spreads (`{...t, messages}`) from computing it: they then do
 * not carry the value.
 */
function lazyValue<T extends object>(
  obj: T,
  key: keyof T & string,
  get: () => unknown,
  enumerable = true,
): void {
  Object.defineProperty(obj, key, {
    configurable: true,
    enumerable,
    get() {
      const v = get();
      if (v === NOT_YET) return undefined;
      Object.defineProperty(obj, key, {
        value: v,
        writable: true,
        enumerable: true,
        configurable: true,
      });
      return v;
    },
    set(v: unknown) {
      Object.defineProperty(obj, key, {
        value: v,
        writable: true,
        enumerable: true,
        configurable: true,
      });
    },
  });
}

/** The inspection without the transcript's messages and source value (sent separately). */
export function stripTranscript(r: Inspection): Inspection {
  if (!r.ok) return r;
  const t: Transcript = { ...r.parsed.transcript, messages: [], raw: undefined };
  const parsed: ParsedTranscript = { ...r.parsed, transcript: t };
  const analysis: Analysis = { ...r.analysis, transcript: t };
  return { ok: true, parsed, analysis };
}

/**
 * Put the messages back (the same array object in `parsed` and `analysis`) and make the
 * transcript's `raw` lazy: re-parsed from `text` on first read (see `streamed` below).
 * @param r a stripped inspection; `messages` its messages (unpacked); `transcript` a transcript
 *   the page already holds for this parse, reused as is
 */
export function joinTranscript(
  r: Inspection,
  messages: Message[] | null,
  source: {
    text: string | null;
    name: string;
    format: FormatId | null;
    streamed?: boolean;
  } | null,
  transcript: Transcript | null,
): Inspection {
  if (!r.ok) return r;
  let t: Transcript;
  if (transcript) t = transcript;
  else {
    t = { ...r.parsed.transcript, messages: messages ?? [] };
    const src = source;
    lazyValue(
      t,
      'raw',
      () => {
        if (!src) return undefined;
        // A large file's text is read from the file only while `withFileBytes` holds its bytes.
        const text = src.text;
        if (text === null) return NOT_YET;
        const again = parseTranscript(text, {
          format: t.format,
          ...(src.name ? { name: src.name } : {}),
          ...(r.parsed.requestIndex !== undefined ? { requestIndex: r.parsed.requestIndex } : {}),
        });
        return again.ok ? again.value.transcript.raw : undefined;
      },
      // A streamed (large) file: not enumerable, so a spread copy of the transcript (eviction,
      // faults) does not re-parse the whole file on the page; such copies do not carry the
      // source value (an export of a faulted copy writes the messages without the top-level
      // fields). Text the page holds (pastes, samples): enumerable, as a plain value would be.
      !src?.streamed,
    );
  }
  return {
    ok: true,
    parsed: { ...r.parsed, transcript: t },
    analysis: { ...r.analysis, transcript: t },
  };
}

/** Pairs or exchanges per postMessage: ≈ 10 ms of deserialising each on the page. */
export const LIST_BATCH = 3000;

/**
 * The inspection without its pairs and exchanges (sent separately in batches, `LIST_BATCH` per
 * postMessage: a 100,000-message analysis holds tens of thousands of ToolPair objects, one
 * deserialisation of 150–250 ms on the page when posted at once). `joinLists` puts them back.
 */
export function stripLists(r: Inspection): Inspection {
  if (!r.ok) return r;
  // The transcript's usage records too (one per API call: tens of thousands in a long log).
  const t: Transcript = { ...r.parsed.transcript, usage: [] };
  const analysis: Analysis = {
    ...r.analysis,
    transcript: t,
    pairs: [],
    grouping: { ...r.analysis.grouping, exchanges: [] },
  };
  return { ok: true, parsed: { ...r.parsed, transcript: t }, analysis };
}

/**
 * Put the pairs, exchanges and usage records posted in batches back into a stripped inspection
 * (the inverse of `stripLists`).
 * @param pairs the analysis' pairs, in order; @param exchanges its exchanges, in order
 * @param usage the transcript's usage records, in order
 */
export function joinLists(
  r: Inspection,
  pairs: ToolPair[],
  exchanges: Exchange[],
  usage: UsageRecord[],
): Inspection {
  if (!r.ok) return r;
  const t: Transcript = { ...r.parsed.transcript, usage };
  const analysis: Analysis = {
    ...r.analysis,
    transcript: t,
    pairs,
    grouping: { ...r.analysis.grouping, exchanges },
  };
  return { ok: true, parsed: { ...r.parsed, transcript: t }, analysis };
}

/**
 * What an inspection's faults did, as sent (`PackedFaults`): the descriptions, the error, and
 * the messages whose `index` the display copy changed. Undefined without faults.
 */
export function packFaults(r: Inspection): PackedFaults | undefined {
  if (!r.ok || !r.faults) return undefined;
  const { transcript, descriptions, error, asked } = r.faults;
  const shown = r.analysis.transcript.messages;
  const moved: number[] = [];
  transcript.messages.forEach((m, i) => {
    if (m !== shown[i]) moved.push(i, m.index);
  });
  return { descriptions, error, asked, moved };
}

/**
 * Put an inspection's faults back (the inverse of `packFaults`, after `joinTranscript`): the
 * faulted transcript before re-indexing is the shown one with the moved messages' `index`
 * given back (its `raw`, read lazily, is the shown transcript's).
 */
export function joinFaults(r: Inspection, packed: PackedFaults | undefined): Inspection {
  if (!r.ok || !packed) return r;
  const shown = r.analysis.transcript;
  let transcript = shown;
  if (packed.moved.length > 0) {
    const messages = shown.messages.slice();
    for (let k = 0; k + 1 < packed.moved.length; k += 2) {
      const i = packed.moved[k] as number;
      const m = messages[i];
      if (m) messages[i] = { ...m, index: packed.moved[k + 1] as number };
    }
    // Copied by descriptors: a spread would read the lazy `raw` (a parse of the whole text).
    const { raw: _raw, ...rest } = Object.getOwnPropertyDescriptors(shown);
    void _raw;
    transcript = Object.defineProperties({} as Transcript, rest);
    transcript.messages = messages;
    lazyValue(
      transcript,
      'raw',
      () => shown.raw,
      Object.prototype.propertyIsEnumerable.call(shown, 'raw'),
    );
  }
  const { descriptions, error, asked } = packed;
  return { ...r, faults: { transcript, descriptions, error, asked } };
}
