/**
 * A checked-fetch record (the library's `record` option, docs/fetch-record.md): one JSON line per
 * provider call, each with the request as sent, the verdict, what a repair changed and the
 * provider's answer. Opened as a multi-request file: one picker entry per call whose body was
 * read, each parsed in its own API's format, with the call's verdict and answer as notes.
 */
import type { FormatId, Result, Transcript } from '../../types.ts';
import type { SourceDoc } from '../json.ts';
import type { RequestEntry } from '../multi.ts';
import type { FormatParser } from '../registry.ts';
import { anthropicMessagesParser } from '../anthropicMessages/anthropicMessages.ts';
import { bedrockConverseParser } from '../bedrockConverse/bedrockConverse.ts';
import { geminiParser } from '../gemini/gemini.ts';
import { openaiChatParser } from '../openaiChat/openaiChat.ts';
import { openaiResponsesParser } from '../openaiResponses/openaiResponses.ts';
import { nameTable } from '../../own.ts';
import { repairWordsOf, ruleWordsOf } from '../../ruleWords.ts';
import { isObject, requestLabel, shapeError, str, type Json } from '../util.ts';

/** The `schema` every record line carries (the library's `RECORD_SCHEMA`). */
export const FETCH_RECORD_SCHEMA = 'transcript-inspector/fetch-record';

/** True for one line of a checked-fetch record (any version). */
export function isRecordLine(v: unknown): v is Json {
  return isObject(v) && v.schema === FETCH_RECORD_SCHEMA && typeof v.v === 'number';
}

/**
 * The request formats a call's body is in, by id: the APIs the checked fetch reads (imported
 * directly, not through the registry, which lists this format).
 */
const REQUEST_PARSERS: readonly FormatParser[] = [
  anthropicMessagesParser,
  openaiChatParser,
  openaiResponsesParser,
  geminiParser,
  bedrockConverseParser,
];
const BY_ID = new Map<FormatId, FormatParser>(REQUEST_PARSERS.map((p) => [p.id, p]));

function sniff(v: unknown): number {
  if (!Array.isArray(v) || v.length === 0) return 0;
  return v.slice(0, 5).every(isRecordLine) ? 1 : 0;
}

/** The request body of a record line, or undefined when the call's body was not read. */
function bodyOf(line: Json): unknown {
  const req = line.request;
  return isObject(req) && isObject(req.body) ? req.body : undefined;
}

function formatOf(line: Json): FormatId | undefined {
  const f = isObject(line.verdict) ? str(line.verdict.format) : undefined;
  return f !== undefined && BY_ID.has(f as FormatId) ? (f as FormatId) : undefined;
}

function hhmmss(time: string | undefined): string | undefined {
  const m = time ? /T(\d\d:\d\d:\d\d)/.exec(time) : null;
  return m ? `${m[1]} UTC` : undefined;
}

/** The call's status for the picker: the answer's status, or what the library did instead. */
function statusOf(line: Json): string {
  const res = line.response;
  if (isObject(res) && typeof res.status === 'number') return String(res.status);
  if (isObject(res) && typeof res.failed === 'string') return 'network error';
  return str(line.outcome) ?? 'not sent';
}

function count(body: unknown): string | undefined {
  if (!isObject(body)) return undefined;
  for (const k of ['messages', 'input', 'contents'])
    if (Array.isArray(body[k])) {
      const n = (body[k] as unknown[]).length;
      const noun = k === 'input' ? 'items' : k;
      return `${n} ${n === 1 ? noun.replace(/s$/, '') : noun}`;
    }
  return undefined;
}

/** What the checked fetch did with a call (the record's `outcome`, docs/fetch-record.md), in words. */
const OUTCOME_WORDS = nameTable({
  sent: 'valid, sent as given',
  'sent-repaired': 'repaired, then sent',
  'sent-anyway': 'invalid, sent anyway (warn mode)',
  refused: 'invalid, refused before sending (throw mode)',
  'answered-400': "invalid, answered with the provider's 400 without sending (respond mode)",
  'sent-unchecked': 'sent unchecked',
});

/** Why a call was not checked (the record's `skipped`, the library's `SkipReason`), in words. */
const SKIP_WORDS = nameTable({
  'not-endpoint': 'the URL is no provider endpoint',
  'not-post': 'not a POST',
  'no-body': 'no body',
  'stream-body': 'the body is a stream',
  'too-large': 'the body is over the size cap',
  'not-json': 'the body is not JSON',
  'other-body': 'the body is of a type the checked fetch does not read',
  'unreadable-transcript': 'the messages could not be read',
});

/** A name the record wrote, in words when it is one the page knows; else as written. */
const inWords = (table: ReadonlyMap<string, string>, name: string | undefined): string =>
  name === undefined ? '?' : (table.get(name) ?? name);

/** One repair change: its diff label, then its rule (or its kind) in words, then its ids. */
function changeText(c: Json): string {
  const rule = str(c.rule);
  const kind = str(c.kind);
  const what =
    (rule !== undefined ? ruleWordsOf(rule) : undefined) ??
    (kind !== undefined ? repairWordsOf(kind) : undefined) ??
    rule ??
    kind ??
    '?';
  const ids = Array.isArray(c.ids) && c.ids.length > 0 ? `: ${c.ids.join(', ')}` : '';
  return `${str(c.label) ?? '?'} (${what}${ids})`;
}

/** What the record says of a call: where it went, what was done, the verdict, the answer. */
function notesOf(line: Json, n: number, of: number): string[] {
  const notes = [
    `Call ${n} of ${of} in this checked-fetch record: ${str(line.time) ?? '?'}, ${str(line.url) ?? '?'} (endpoint ${str(line.endpoint) ?? '?'}), ${inWords(OUTCOME_WORDS, str(line.outcome))}.`,
  ];
  const v = line.verdict;
  if (isObject(v)) {
    const violations = Array.isArray(v.violations) ? v.violations.filter(isObject) : [];
    const first = violations.find((x) => x.severity === 'error');
    const rule = str(first?.rule);
    const words = rule !== undefined ? (ruleWordsOf(rule) ?? rule) : '';
    notes.push(
      v.valid === true
        ? `Recorded verdict: valid for ${str(v.provider) ?? '?'}.`
        : `Recorded verdict: ${str(v.provider) ?? '?'} rejects it [${str(first?.code) ?? '?'}: ${words}]: ${str(first?.message) ?? ''}`,
    );
  } else if (typeof line.skipped === 'string')
    notes.push(`Not checked: ${inWords(SKIP_WORDS, line.skipped)}.`);
  const repair = line.repair;
  if (isObject(repair) && Array.isArray(repair.changes)) {
    const changes = repair.changes.filter(isObject);
    notes.push(
      `Repaired before sending (${changes.length} change${changes.length === 1 ? '' : 's'}): ${changes
        .map(changeText)
        .join('; ')}. Shown as sent.`,
    );
  }
  const res = line.response;
  if (isObject(res) && typeof res.status === 'number') {
    const error = res.error !== undefined ? `: ${JSON.stringify(res.error)}` : '';
    const streamed = res.streamed === true ? ' (streamed)' : '';
    notes.push(`The provider answered HTTP ${res.status}${streamed}${error}`);
  } else if (isObject(res) && typeof res.failed === 'string')
    notes.push(`The call failed before an answer: ${res.failed}`);
  return notes;
}

/**
 * The calls of a checked-fetch record, for the request picker (multi.ts `listRequests`).
 * @param v the values of a record's lines (a JSON Lines document's lines, or a JSON array)
 * @returns one entry per call whose body was read (`#3 · 14:03:22 UTC · anthropic ·
 *   claude-sonnet-4-5 · 12 messages · 400`), its value the request as sent, its format the one
 *   the verdict names, its notes the call's verdict, repair and answer; `[]` when the value is no
 *   record. Never throws.
 */
export function listRecordCalls(v: unknown): RequestEntry[] {
  if (sniff(v) === 0) return [];
  // In call order: a line is written when its answer is in, so a slow call's line comes later.
  const lines = (v as unknown[])
    .filter(isRecordLine)
    .map((line, i) => ({ line, i, t: Date.parse(str(line.time) ?? '') }))
    .sort((a, b) => a.t - b.t || a.i - b.i || 0)
    .map((x) => x.line);
  const read = lines.filter((l) => bodyOf(l) !== undefined);
  const unread = lines.length - read.length;
  return read.map((line, i) => {
    const body = bodyOf(line) as Json;
    const label = requestLabel(
      i,
      hhmmss(str(line.time)),
      str(line.endpoint),
      str(body.model),
      count(body),
      statusOf(line),
    );
    const notes = notesOf(line, i + 1, read.length);
    if (unread > 0)
      notes.push(
        `${unread} call${unread === 1 ? '' : 's'} of this record ${unread === 1 ? 'is' : 'are'} not listed: ${unread === 1 ? 'its body was' : 'their bodies were'} not read (a stream, or over the size cap).`,
      );
    const format = formatOf(line);
    return { label, value: body, notes, ...(format ? { format } : {}) };
  });
}

/**
 * A record read whole (the format forced, no call chosen): its newest call, in its own format.
 * A value that is already one call's body (what the picker hands on) is read by the format the
 * detectors give it.
 */
function parse(doc: SourceDoc): Result<Transcript> {
  const values = doc.kind === 'jsonl' ? doc.lines.map((l) => l.value) : [doc.value];
  const calls = listRecordCalls(
    values.length === 1 && Array.isArray(values[0]) ? values[0] : values,
  );
  const last = calls[calls.length - 1];
  const value = last ? last.value : values.length === 1 ? values[0] : undefined;
  const hint = last?.format;
  const parser =
    (hint ? BY_ID.get(hint) : undefined) ??
    REQUEST_PARSERS.find((p) => {
      try {
        return p.sniff(value) > 0;
      } catch {
        return false;
      }
    });
  if (!parser) return shapeError(fetchRecordParser.expected);
  const r = parser.parse({ kind: 'json', value });
  if (r.ok && last?.notes) r.value.warnings.unshift(...last.notes);
  return r;
}

/**
 * A transcript as a one-call record: its request written as an Anthropic Messages body, or as a
 * Chat Completions body when it holds `tool` messages; no verdict (the reader judges it). A record
 * read back opens that call in its own format.
 */
function write(t: Transcript): string {
  const inner = t.messages.some((m) => m.role === 'tool')
    ? openaiChatParser
    : anthropicMessagesParser;
  const body = JSON.parse(
    inner.write?.({ ...t, format: inner.id, raw: undefined }) ?? '{}',
  ) as unknown;
  // A transcript without its request around it is written as a bare list: a call sends a body.
  const request = Array.isArray(body) ? { messages: body } : body;
  const line = {
    schema: FETCH_RECORD_SCHEMA,
    v: 1,
    time: new Date(0).toISOString(),
    url: '',
    endpoint: inner.id === 'openai-chat' ? 'openai-chat' : 'anthropic',
    outcome: 'sent',
    request: { method: 'POST', headers: {}, body: request },
    verdict: null,
  };
  return `${JSON.stringify(line)}\n`;
}

export const fetchRecordParser: FormatParser = {
  id: 'fetch-record',
  label: 'Checked-fetch record',
  provider: 'anthropic',
  category: 'archive',
  jsonl: true,
  resultStyle: 'user',
  listRequests: listRecordCalls,
  expected:
    'a checked-fetch record (transcript-inspector `record`): one JSON line per provider call with `schema: "transcript-inspector/fetch-record"`, `url`, `endpoint` and `request.body`',
  sniff,
  parse,
  write,
};
