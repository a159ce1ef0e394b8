/**
 * Put a response after the request that produced it, in the request's own format, so a HAR
 * entry or a LiteLLM log reads as one transcript: the last request plus its response
 * (docs/formats.md#har, #litellm: `messages` + `response`).
 */
import { isObject, type Json } from '../util.ts';

/**
 * The request body with the response's assistant turn appended.
 * @param body a request body (Anthropic / Chat `messages`, Responses `input`, Gemini `contents`)
 *   or a bare message array
 * @param response a response object of the same provider (`Message`, `chat.completion`,
 *   `response`, `GenerateContentResponse`)
 * @returns a new body with one more turn (or several Responses output items), or null when the
 *   two shapes do not match (the caller keeps the request alone). Never throws; the inputs are
 *   not modified.
 */
export function appendResponse(body: unknown, response: unknown): unknown {
  if (!isObject(response)) return null;
  const list = (key: string): unknown[] | null => {
    if (Array.isArray(body)) return key === 'messages' ? body : null;
    if (!isObject(body)) return null;
    const v = body[key];
    if (key === 'input' && typeof v === 'string') return [{ role: 'user', content: v }];
    return Array.isArray(v) ? v : null;
  };
  const put = (key: string, items: unknown[]): unknown => {
    const l = list(key);
    if (!l) return null;
    const next = [...l, ...items];
    return Array.isArray(body) ? next : { ...(body as Json), [key]: next };
  };
  // Anthropic Message
  if (response.type === 'message' && Array.isArray(response.content))
    return put('messages', [{ role: 'assistant', content: response.content }]);
  // OpenAI chat.completion
  if (Array.isArray(response.choices)) {
    const c = response.choices[0];
    if (!isObject(c) || !isObject(c.message)) return null;
    const { role, content, tool_calls, function_call, reasoning_content } = c.message;
    const msg: Json = { role: role ?? 'assistant', content: content ?? null };
    if (tool_calls !== undefined) msg.tool_calls = tool_calls;
    if (function_call !== undefined) msg.function_call = function_call;
    if (reasoning_content !== undefined) msg.reasoning_content = reasoning_content;
    return put('messages', [msg]);
  }
  // OpenAI Responses
  if (response.object === 'response' && Array.isArray(response.output))
    return put('input', response.output);
  // Gemini
  if (Array.isArray(response.candidates)) {
    const c = response.candidates[0];
    if (!isObject(c) || !isObject(c.content)) return null;
    return put('contents', [{ role: 'model', ...c.content }]);
  }
  return null;
}
