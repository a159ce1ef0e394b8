/**
 * Batch files: Anthropic Message Batches results (`{custom_id, result:{type:'succeeded',
 * message}}` per line) and create bodies (`{requests:[{custom_id, params}]}`), OpenAI Batch
 * output (`{id, custom_id, response:{status_code, body}}` per line) and input
 * (`{custom_id, method, url, body}` per line). Each row becomes one entry of the request picker.
 * See docs/formats.md#batch.
 */
import type { FormatId } from '../../types.ts';
import { isObject, str, type Json } from '../util.ts';
import type { ContainerEntry, ContainerRead } from './types.ts';
import { formatOfUrl } from './urlFormat.ts';

/** A batch row: a string `custom_id` and one of `result`, `response`, `body`, `params`. */
/** True for one row of a batch file (results or inputs): the container's cheap first check. */
export function isBatchRow(v: unknown): v is Json {
  return (
    isObject(v) &&
    typeof v.custom_id === 'string' &&
    (isObject(v.result) ||
      isObject(v.response) ||
      isObject(v.body) ||
      isObject(v.params) ||
      isObject(v.error))
  );
}

interface Read {
  value?: unknown;
  hint?: FormatId;
  what: string;
  failed?: string;
}

function readRow(r: Json): Read {
  if (isObject(r.result)) {
    const res = r.result;
    if (res.type === 'succeeded' && isObject(res.message))
      return { value: res.message, hint: 'anthropic-messages', what: 'Anthropic batch result' };
    const err = isObject(res.error) && isObject(res.error.error) ? res.error.error : res.error;
    const msg = isObject(err) ? str(err.message) : undefined;
    return {
      what: 'Anthropic batch result',
      failed: `${str(res.type) ?? 'failed'}${msg ? `: ${msg}` : ''}`,
    };
  }
  if (isObject(r.params))
    return { value: r.params, hint: 'anthropic-messages', what: 'Anthropic batch request' };
  if (isObject(r.response)) {
    const body = r.response.body;
    const status = typeof r.response.status_code === 'number' ? r.response.status_code : undefined;
    if (isObject(body) && (status === undefined || status < 400)) {
      const hint: FormatId | undefined =
        body.object === 'response'
          ? 'openai-responses'
          : Array.isArray(body.choices)
            ? 'openai-chat'
            : undefined;
      return { value: body, ...(hint ? { hint } : {}), what: 'OpenAI batch output' };
    }
    const err = isObject(body) && isObject(body.error) ? str(body.error.message) : undefined;
    return { what: 'OpenAI batch output', failed: `${status ?? 'error'}${err ? `: ${err}` : ''}` };
  }
  if (isObject(r.body)) {
    const hint = typeof r.url === 'string' ? formatOfUrl(r.url) : undefined;
    return { value: r.body, ...(hint ? { hint } : {}), what: 'OpenAI batch request' };
  }
  const err = isObject(r.error) ? str(r.error.message) : undefined;
  return { what: 'batch row', failed: err ?? 'error' };
}

/**
 * Read a batch file.
 * @param rows the values of a JSON Lines file's lines, a JSON array, one row object, or an
 *   Anthropic create body (`{requests:[{custom_id, params}]}`)
 * @param lineOf the 1-based line of each row, for JSON Lines (same length as `rows`)
 * @returns null when the rows are not batch rows (every row needs a string `custom_id`); else
 *   one entry per row that holds a request or a successful response ("batch line 3:
 *   custom_id"), with failed rows listed in a note; or a ParseError when every row failed.
 *   Never throws.
 */
export function readBatch(rows: unknown, lineOf?: number[]): ContainerRead {
  let list: unknown[];
  if (Array.isArray(rows)) list = rows;
  else if (isObject(rows) && Array.isArray(rows.requests) && rows.requests.length > 0)
    list = rows.requests;
  else list = [rows];
  if (list.length === 0 || !list.every(isBatchRow)) return null;
  const out: ContainerEntry[] = [];
  const failed: string[] = [];
  list.forEach((r, i) => {
    const row = r as Json;
    const read = readRow(row);
    const id = row.custom_id as string;
    const line = lineOf?.[i];
    const at = `row ${i + 1} of ${list.length}${line !== undefined ? ` (line ${line})` : ''}`;
    if (read.failed !== undefined || read.value === undefined) {
      failed.push(`${id} (${read.failed ?? 'no body'})`);
      return;
    }
    const where = `${read.what}, ${at}: ${id}`;
    out.push({
      label: where,
      value: read.value,
      note: { kind: 'batch', where, ...(read.hint ? { formatHint: read.hint } : {}) },
    });
  });
  if (out.length === 0)
    return {
      ok: false,
      error: {
        kind: 'shape',
        message: `This is a batch file, but every row failed: ${failed.slice(0, 10).join('; ')}${failed.length > 10 ? '; …' : ''}.`,
      },
    };
  if (failed.length > 0) {
    const note = `${failed.length} row(s) of the batch failed and are not listed: ${failed.slice(0, 10).join('; ')}${failed.length > 10 ? '; …' : ''}.`;
    for (const e of out) e.note.notes = [note];
  }
  return { ok: true, value: out };
}
