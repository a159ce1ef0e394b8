/**
 * Containers: what wraps a transcript when people paste it during an incident review — a curl
 * command, a raw SSE dump of a streamed response, a HAR file, a LiteLLM log, a batch file, an
 * OpenTelemetry trace (one request per LLM call span). A
 * container is unwrapped before the format detectors run, into the inner document(s) plus a note
 * of where each came from: containers first, then formats (docs/formats.md#containers).
 *
 * Two hooks in `index.ts`: `unwrapText` in `readSource` (text containers: curl, SSE) and
 * `openContainer` in `parseDocument` (JSON containers: HAR, LiteLLM, batches, Gemini stream
 * arrays; and the entries `unwrapText` found). Several inner documents go to the request picker.
 */
import type { FormatId, Result } from '../types.ts';
import { brokenLinesNote, type SourceDoc } from './json.ts';
import { isObject } from './util.ts';
import { isBatchRow, readBatch } from './containers/batch.ts';
import { readCurl } from './containers/curl.ts';
import { readHar } from './containers/har.ts';
import { isLiteLlmRow, readLiteLlm } from './containers/litellm.ts';
import { FAMILY_FORMAT, readSse, rebuildStreams } from './containers/sse.ts';
import { isTraceRow, readOtel } from './containers/otel.ts';
import type { ContainerEntry, ContainerNote, ContainerRead } from './containers/types.ts';

export type { ContainerEntry, ContainerKind, ContainerNote } from './containers/types.ts';

/** Entries found by `unwrapText`, keyed by the document it returned (no copy, no global list). */
const FROM_TEXT = new WeakMap<SourceDoc, ContainerEntry[]>();

/**
 * Unwrap a text container (a curl command, an SSE dump). Cheap for everything else: a text
 * whose first non-blank character is `{` or `[` is returned as null after one character test.
 * @param text the whole pasted or dropped text
 * @returns null when the text is not a text container; else the inner document (one JSON value;
 *   an array of them when an SSE dump holds several streams) for `parseDocument`, which finds
 *   the entries again through `openContainer`; or a ParseError with a location (a curl body that
 *   is not JSON: line and column inside the body, and where the body starts in the paste).
 *   Never throws.
 */
export function unwrapText(text: string): Result<SourceDoc> | null {
  const first = /\S/.exec(text.slice(0, 256))?.[0];
  if (first === undefined || first === '{' || first === '[') return null;
  let read: ContainerRead;
  try {
    read = readCurl(text) ?? readSse(text);
  } catch (e) {
    return {
      ok: false,
      error: { kind: 'shape', message: `The container could not be read: ${String(e)}` },
    };
  }
  if (!read) return null;
  if (!read.ok) return read;
  const entries = read.value;
  const doc: SourceDoc = {
    kind: 'json',
    value: entries.length === 1 ? entries[0]?.value : entries.map((e) => e.value),
  };
  FROM_TEXT.set(doc, entries);
  return { ok: true, value: doc };
}

/** A Gemini `streamGenerateContent` answer without `alt=sse`: a JSON array of chunks. */
function readGeminiChunks(v: unknown): ContainerRead {
  if (
    !Array.isArray(v) ||
    v.length === 0 ||
    !v.every((c) => isObject(c) && (Array.isArray(c.candidates) || isObject(c.usageMetadata))) ||
    !v.some((c) => isObject(c) && Array.isArray(c.candidates))
  )
    return null;
  const streams = rebuildStreams(v.map((data, i) => ({ data, line: i + 1 })));
  return {
    ok: true,
    value: streams.map((s, i) => {
      const n = streams.length > 1 ? ` ${i + 1} of ${streams.length}` : '';
      const where = `Gemini streamGenerateContent chunks${n}, rebuilt into one response`;
      return {
        label: where,
        value: s.value,
        note: { kind: 'sse', where, formatHint: FAMILY_FORMAT[s.family], notes: s.notes },
      };
    }),
  };
}

/**
 * Open a container document.
 * @param doc a source document from `readSource` (possibly the inner document `unwrapText`
 *   returned)
 * @returns null when the document is not a container (the format detectors take it as it is);
 *   else its entries (one per inner request or response, in file order, each with its note), or
 *   a ParseError saying why a recognised container holds nothing to inspect. Never throws.
 */
export function openContainer(doc: SourceDoc): ContainerRead {
  const fromText = FROM_TEXT.get(doc);
  if (fromText) return { ok: true, value: fromText };
  try {
    if (doc.kind === 'jsonl') {
      // Both JSONL containers need every line to be theirs: the first line decides cheaply
      // (no copies of a 40,000-line log's values).
      const first = doc.lines[0]?.value;
      if (!isBatchRow(first) && !isLiteLlmRow(first) && !isTraceRow(first)) return null;
      const values = doc.lines.map((l) => l.value);
      const lineOf = doc.lines.map((l) => l.line);
      const read = readBatch(values, lineOf) ?? readLiteLlm(values) ?? readOtel(values, lineOf);
      // The inner documents replace the JSONL document, so its broken lines are said here.
      const broken = brokenLinesNote(doc.lines, doc.brokenLines);
      if (read?.ok && broken)
        for (const e of read.value) e.note.notes = [...(e.note.notes ?? []), broken];
      return read;
    }
    const v = doc.value;
    return readHar(v) ?? readLiteLlm(v) ?? readBatch(v) ?? readGeminiChunks(v) ?? readOtel(v);
  } catch (e) {
    return {
      ok: false,
      error: { kind: 'shape', message: `The container could not be read: ${String(e)}` },
    };
  }
}

/**
 * The format to parse a container's inner document with.
 * @param note the entry's note (its `formatHint` comes from a URL or a stream family)
 * @param candidates the detectors' matches for the inner document, best first
 * @returns the hinted format when a detector matched it too (or nothing matched at all), else
 *   the best match with a warning that the URL and the body disagree; `hinted` says the hint
 *   decided (the caller then does not ask the user to pick).
 */
export function chooseFormat(
  note: ContainerNote | undefined,
  candidates: { format: FormatId; score: number }[],
): { format: FormatId | undefined; hinted: boolean; warning?: string } {
  const top = candidates[0]?.format;
  const hint = note?.formatHint;
  if (!hint) return { format: top, hinted: false };
  if (top === undefined || candidates.some((c) => c.format === hint))
    return { format: hint, hinted: true };
  return {
    format: top,
    hinted: false,
    warning: `The URL is a ${hint} endpoint, but the body reads as ${top}; it is shown as ${top}.`,
  };
}

/**
 * The warnings a container adds to its transcript: where it came from, then its notes.
 * @param note the entry's note
 * @returns lines for `Transcript.warnings`, first line "Unwrapped from the …"
 */
export function containerWarnings(note: ContainerNote): string[] {
  return [`Unwrapped from the ${note.where}.`, ...(note.notes ?? [])];
}
