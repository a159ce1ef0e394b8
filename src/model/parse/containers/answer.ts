/**
 * What a logged response says, for a note beside the request that produced it: a LiteLLM log
 * stores the request's `messages` and the `response` it got back. The request is judged as it
 * was sent, so the response is never appended to it (docs/formats.md#litellm).
 */
import { isObject, str, type Json } from '../util.ts';

/** `id (name)` of one call, `(no id)` when the response gave none. */
const callName = (id: unknown, name: unknown): string =>
  `${str(id) ?? '(no id)'} (${str(name) ?? ''})`;

/**
 * The tool calls a response asks for, as `id (name)`.
 * @param response a response object of any provider: an Anthropic `Message` (`tool_use`
 *   blocks), an OpenAI `chat.completion` (the first choice's `tool_calls`), an OpenAI Responses
 *   `response` (`function_call` items), a Gemini `GenerateContentResponse` (the first
 *   candidate's `functionCall` parts)
 * @returns the calls in the response's order; empty for a final answer or an unknown shape.
 *   Never throws.
 */
export function answerCalls(response: unknown): string[] {
  if (!isObject(response)) return [];
  const objects = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isObject) : []);
  if (response.type === 'message')
    return objects(response.content)
      .filter((b) => b.type === 'tool_use')
      .map((b) => callName(b.id, b.name));
  if (Array.isArray(response.choices)) {
    const c = response.choices[0];
    const m = isObject(c) && isObject(c.message) ? c.message : {};
    return objects(m.tool_calls).map((t) =>
      callName(t.id, isObject(t.function) ? t.function.name : undefined),
    );
  }
  if (response.object === 'response')
    return objects(response.output)
      .filter((i) => i.type === 'function_call')
      .map((i) => callName(i.call_id, i.name));
  if (Array.isArray(response.candidates)) {
    const c = response.candidates[0];
    const parts = isObject(c) && isObject(c.content) ? objects(c.content.parts) : [];
    return parts
      .map((p) => p.functionCall)
      .filter(isObject)
      .map((f) => callName(f.id, f.name));
  }
  return [];
}
