/**
 * A JSON file that holds several requests: an array of request bodies, or an object with a list
 * of them (a log export: `{requests: […]}`, `{data: […]}`, rows that wrap the body in `request` /
 * `body`, …). The user picks one; `parseTranscript` parses only that one.
 */
import { parseJsonBounded } from './json.ts';
import { arr, isObject, requestLabel, str, type Json } from './util.ts';
import { listArchiveRequests } from './registry.ts';
import type { FormatId } from '../types.ts';

/** A request found in a multi-request file. */
export interface RequestEntry {
  /** Shown in the picker: `#3 · claude-opus-4-7 · 12 messages`. */
  label: string;
  /** The request body itself, ready for the format parsers. */
  value: unknown;
  /**
   * Opened when the user has not chosen (the first such entry). Without it, the last request
   * opens: in a log, the newest one, usually the one that failed. Eval logs mark sample 1.
   */
  preferred?: boolean;
  /** The format the value is in, when the file says (a record names each call's API). */
  format?: FormatId;
  /** Notes the file keeps about this request (a record: its verdict and the provider's answer). */
  notes?: string[];
}

/** Keys under which a body holds its primary list (Anthropic/Chat, Responses, Gemini). */
const LIST_KEYS = ['messages', 'input', 'contents'] as const;
/** Keys under which a log row wraps a request body. */
const WRAP_KEYS = [
  'request',
  'body',
  'request_body',
  'requestBody',
  'proxy_server_request',
  'parsed_body',
];
/** Keys under which an export object holds its list of rows. */
const CONTAINER_KEYS = [
  'requests',
  'data',
  'items',
  'logs',
  'entries',
  'rows',
  'records',
  'calls',
  'interactions',
  'results',
];

function listOf(body: Json): { key: string; list: unknown[] } | null {
  for (const k of LIST_KEYS) {
    const l = arr(body[k]);
    if (l) return { key: k, list: l };
  }
  return null;
}

/** The request body in a row: the row itself, or the first wrapper key that holds one. */
function bodyOf(row: unknown): Json | null {
  if (!isObject(row)) return null;
  if (listOf(row)) return row;
  for (const k of WRAP_KEYS) {
    let inner = row[k];
    if (typeof inner === 'string' && inner.trimStart().startsWith('{')) {
      try {
        inner = parseJsonBounded(inner);
      } catch {
        inner = undefined;
      }
    }
    if (isObject(inner) && listOf(inner)) return inner;
  }
  return null;
}

function labelOf(i: number, row: unknown, body: Json): string {
  const l = listOf(body);
  const model = str(body.model) ?? (isObject(row) ? str(row.model) : undefined);
  const noun = l?.key === 'contents' ? 'contents' : l?.key === 'input' ? 'items' : 'messages';
  return requestLabel(i, model, l ? `${l.list.length} ${noun}` : undefined);
}

function fromRows(rows: unknown[]): RequestEntry[] {
  if (rows.length === 0) return [];
  const out: RequestEntry[] = [];
  for (const [i, row] of rows.entries()) {
    const body = bodyOf(row);
    if (!body) return [];
    out.push({ label: labelOf(i, row, body), value: body });
  }
  return out;
}

/**
 * Find the requests in a multi-request file.
 * @param value a parsed JSON value
 * @returns one entry per request body, in file order; `[]` when the value is not a list of
 *   requests (a single request body, a bare message array, anything else). Every row must hold
 *   a body (with a `messages` / `input` / `contents` list) for the value to count. Never throws.
 */
export function listRequests(value: unknown): RequestEntry[] {
  const archived = listArchiveRequests(value); // Inspect samples, ChatGPT/claude.ai conversations
  if (archived.length > 0) return archived;
  if (Array.isArray(value)) return fromRows(value);
  if (!isObject(value) || listOf(value)) return [];
  for (const k of CONTAINER_KEYS) {
    const rows = arr(value[k]);
    if (rows) {
      const found = fromRows(rows);
      if (found.length > 0) return found;
    }
  }
  return [];
}
