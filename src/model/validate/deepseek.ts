/**
 * DeepSeek (OpenAI-compatible Chat Completions): OpenAI's pairing rules in other words (D1, D2 of
 * the rule catalogue): "preceding" spelled right, no id list, `param` null; D3 an assistant
 * message with neither content nor tool_calls.
 */
import { deepseekEnvelope } from './catalogue/index.ts';
import { validateChat, type ChatDialect } from './openaiChat.ts';
import type { ProviderValidator } from './types.ts';

export { deepseekEnvelope };

export const DEEPSEEK_DIALECT: ChatDialect = {
  provider: 'deepseek',
  label: 'DeepSeek',
  // No capture of a wrong tool_call_id on DeepSeek: the call is left without its tool message, so
  // the insufficient-tool-messages text (D2) is the likeliest answer.
  codes: { orphan: 'D1', missing: 'D2', wrongId: 'D2', duplicateResult: 'OW2', nullContent: 'D3' },
  envelope: (message) => deepseekEnvelope(message),
};

export const deepseekValidator: ProviderValidator = {
  id: 'deepseek',
  label: 'DeepSeek',
  validate: (t, opts) => validateChat(t, DEEPSEEK_DIALECT, opts),
};
