/**
 * DeepSeek (OpenAI-compatible Chat Completions). Same pairing rules as OpenAI, other words:
 * ../shared/docs/provider-rules.md §6 (DeepSeek rows) and §7.7 — correct spelling "preceding",
 * capital M, no period, `param` null, `code` "invalid_request_error", and no id list in the
 * missing-responses text.
 */
import { validateChat, type ChatDialect } from './openaiChat.ts';
import type { ProviderValidator } from './types.ts';

/** `{"error":{"message","type":"invalid_request_error","param":null,"code":"invalid_request_error"}}` (§6). */
export function deepseekEnvelope(message: string): unknown {
  return {
    error: { message, type: 'invalid_request_error', param: null, code: 'invalid_request_error' },
  };
}

const ORPHAN =
  "Messages with role 'tool' must be a response to a preceding message with 'tool_calls'";
const MISSING =
  "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. (insufficient tool messages following tool_calls message)";

export const DEEPSEEK_DIALECT: ChatDialect = {
  provider: 'deepseek',
  label: 'DeepSeek',
  orphan: () => ({ message: ORPHAN, error: deepseekEnvelope(ORPHAN), confidence: 'V' }),
  missing: () => ({ message: MISSING, error: deepseekEnvelope(MISSING), confidence: 'V' }),
  // No capture of a wrong tool_call_id on DeepSeek: the call is left without its tool message,
  // so the insufficient-tool-messages text is the likeliest answer (unconfirmed).
  wrongId: () => ({ message: MISSING, error: deepseekEnvelope(MISSING), confidence: '?' }),
};

export const deepseekValidator: ProviderValidator = {
  id: 'deepseek',
  label: 'DeepSeek',
  validate: (t, opts) => validateChat(t, DEEPSEEK_DIALECT, opts),
};
