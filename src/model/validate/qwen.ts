/**
 * Qwen / DashScope (OpenAI-compatible mode). Same pairing rules as OpenAI; texts from
 * ../shared/docs/provider-rules.md §6 (Qwen row) and §7.7: a `<400> InternalError.Algo.
 * InvalidParameter: ` prefix, double quotes, the "preceeding" misspelling, and an "id list" that
 * is really `message[N].role`. `code` is `invalid_parameter_error` (V); the rest of the envelope
 * follows the OpenAI shape (I).
 */
import { validateChat, type ChatDialect } from './openaiChat.ts';
import type { ProviderValidator } from './types.ts';

const PREFIX = '<400> InternalError.Algo.InvalidParameter: ';

/** `{"error":{"message","type":"invalid_request_error","param":null,"code":"invalid_parameter_error"}}`. */
export function qwenEnvelope(message: string): unknown {
  return {
    error: { message, type: 'invalid_request_error', param: null, code: 'invalid_parameter_error' },
  };
}

const ORPHAN = `${PREFIX}messages with role "tool" must be a response to a preceeding message with "tool_calls".`;
const missing = (n: number) =>
  `${PREFIX}An assistant message with "tool_calls" must be followed by tool messages responding to each "tool_call_id". The following tool_call_ids did not have response messages: message[${n}].role`;

export const QWEN_DIALECT: ChatDialect = {
  provider: 'qwen',
  label: 'Qwen (DashScope)',
  orphan: () => ({ message: ORPHAN, error: qwenEnvelope(ORPHAN), confidence: 'V' }),
  // N: the message that broke the run (as OpenAI's param), or the assistant message when the
  // array ends first. The text is captured (V); what N counts is inferred.
  missing: (_ids, _param, n, next) => {
    const message = missing(next ?? n);
    return { message, error: qwenEnvelope(message), confidence: 'I' };
  },
  wrongId: (_id, n) => {
    const message = missing(n);
    return { message, error: qwenEnvelope(message), confidence: '?' };
  },
};

export const qwenValidator: ProviderValidator = {
  id: 'qwen',
  label: 'Qwen (DashScope)',
  validate: (t, opts) => validateChat(t, QWEN_DIALECT, opts),
};
