/**
 * LiteLLM logs: a `StandardLoggingPayload` (what every callback receives as
 * `standard_logging_object`, and what the S3/GCS/Datadog/Langfuse integrations write) and proxy
 * spend-log rows (`LiteLLM_SpendLogs`, the `/spend/logs` API). The input `messages` (OpenAI-chat
 * shaped, or Anthropic-shaped for `/v1/messages` pass-through) become one request body for the
 * existing detectors, judged as it was sent: the logged `response` came back from that request
 * and is said in a note, never appended. See docs/formats.md#litellm.
 */
import { parseJsonBounded } from '../json.ts';
import { isObject, str, type Json } from '../util.ts';
import { answerCalls } from './answer.ts';
import type { ContainerEntry, ContainerRead } from './types.ts';

/** LiteLLM stores some columns as JSON text: parse them when they look like JSON. */
function jsonish(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  const t = v.trimStart();
  if (!t.startsWith('{') && !t.startsWith('[')) return v;
  try {
    return parseJsonBounded(v);
  } catch {
    return v;
  }
}

/** A StandardLoggingPayload: `call_type` and `messages`, with one of its telltale fields. */
function isPayload(v: unknown): v is Json {
  return (
    isObject(v) &&
    typeof v.call_type === 'string' &&
    'messages' in v &&
    ('response_cost' in v ||
      'model_parameters' in v ||
      'standard_logging_object' in v ||
      'hidden_params' in v)
  );
}

/** A spend-log row: `request_id` and `spend`. */
/** True for a value LiteLLM logs: a payload, a `standard_logging_object` wrapper or a spend row. */
export function isLiteLlmRow(v: unknown): boolean {
  return isPayload(v) || isSpendRow(v) || (isObject(v) && isObject(v.standard_logging_object));
}

function isSpendRow(v: unknown): v is Json {
  return isObject(v) && typeof v.request_id === 'string' && 'spend' in v;
}

/** The request body a payload or spend row logged, or null when it stored no messages. */
function bodyOf(p: Json): { body: unknown; notes: string[] } | null {
  const notes: string[] = [];
  const params = isObject(p.model_parameters) ? p.model_parameters : {};
  let messages = jsonish(p.messages);
  let body: unknown = null;
  if (isObject(messages) && Array.isArray(messages.messages)) body = messages;
  else if (Array.isArray(messages) && messages.length > 0) {
    const b: Json = {};
    if (typeof p.model === 'string') b.model = p.model;
    if (params.system !== undefined) b.system = params.system;
    if (Array.isArray(params.tools)) b.tools = params.tools;
    b.messages = messages;
    body = b;
  } else {
    const proxied = jsonish(p.proxy_server_request);
    if (isObject(proxied) && (Array.isArray(proxied.messages) || Array.isArray(proxied.input)))
      body = proxied;
    messages = undefined;
  }
  if (body === null) return null;
  const failed = p.status === 'failure' || typeof p.error_str === 'string';
  const info = isObject(p.error_information) ? p.error_information : {};
  const err = str(info.error_message) ?? str(p.error_str);
  if (err) notes.push(`LiteLLM logged an error for this call: ${err}`);
  // The verdict is about the request that was sent. Appended, the response would end it on an
  // assistant turn (A12 "prefill" on a model that rejects it, a prefill note elsewhere) or, when
  // it calls tools, in unanswered calls: 400s that never happened.
  const response = jsonish(p.response);
  if (!failed && isObject(response) && Object.keys(response).length > 0) {
    const calls = answerCalls(response);
    notes.push(
      calls.length > 0
        ? `The logged response calls ${calls.join(', ')}; it is not appended, so the request is judged as it was sent.`
        : 'The logged response is what this request returned; it is not appended, so the request is judged as it was sent.',
    );
  }
  return { body, notes };
}

function entry(p: Json, where: string, label: string): ContainerEntry | null {
  const b = bodyOf(p);
  if (!b) return null;
  return { label, value: b.body, note: { kind: 'litellm', where, notes: b.notes } };
}

/**
 * Read a LiteLLM log.
 * @param value a parsed JSON value, or the values of a JSON Lines file's lines
 * @returns null when it is not a LiteLLM payload or spend-log list; else one entry per logged
 *   call whose messages were stored (the request as sent; its response in a note), or a ParseError
 *   when none stored its messages (spend logs keep them only with `store_prompts_in_spend_logs`).
 *   Never throws.
 */
export function readLiteLlm(value: unknown): ContainerRead {
  let rows: Json[] | null = null;
  let kind = '';
  if (isObject(value) && isObject(value.standard_logging_object)) {
    rows = [value.standard_logging_object];
    kind = 'payload';
  } else if (isPayload(value)) {
    rows = [value];
    kind = 'payload';
  } else if (isSpendRow(value)) {
    rows = [value];
    kind = 'spend';
  } else {
    const list = Array.isArray(value)
      ? value
      : isObject(value) && Array.isArray(value.data)
        ? value.data
        : null;
    if (list && list.length > 0) {
      if (list.every(isSpendRow)) {
        rows = list;
        kind = 'spend';
      } else if (
        list.every((r) => isPayload(r) || (isObject(r) && isObject(r.standard_logging_object)))
      ) {
        rows = list.map((r) =>
          isObject(r.standard_logging_object) ? r.standard_logging_object : r,
        ) as Json[];
        kind = 'payload';
      }
    }
  }
  if (!rows) return null;
  const out: ContainerEntry[] = [];
  rows.forEach((r, i) => {
    const n = rows.length > 1 ? ` ${i + 1} of ${rows.length}` : '';
    const model = str(r.model);
    const id = str(r.request_id) ?? str(r.id);
    const what =
      kind === 'spend'
        ? `LiteLLM spend log row${n}`
        : `LiteLLM log payload${n} (${str(r.call_type) ?? 'call'})`;
    const label = [what, model, id].filter((x) => x !== undefined).join(' · ');
    const e = entry(r, label, label);
    if (e) out.push(e);
  });
  if (out.length === 0)
    return {
      ok: false,
      error: {
        kind: 'shape',
        message:
          kind === 'spend'
            ? 'These are LiteLLM spend logs, but no row stored its messages (LiteLLM keeps them only with `store_prompts_in_spend_logs: true`).'
            : 'This is a LiteLLM log payload, but its `messages` are empty.',
      },
    };
  return { ok: true, value: out };
}
