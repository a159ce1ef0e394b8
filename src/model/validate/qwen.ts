/**
 * Qwen / DashScope (OpenAI-compatible mode): OpenAI's pairing rules with Qwen's texts (Q1, Q2 of
 * the rule catalogue): a `<400> InternalError.Algo.InvalidParameter: ` prefix, and an "id list"
 * that is really `message[N].role`. `code` is `invalid_parameter_error`; the rest of the body
 * follows the OpenAI shape (inferred).
 */
import { qwenEnvelope } from './catalogue/index.ts';
import { validateChat, type ChatDialect } from './openaiChat.ts';
import type { ProviderValidator } from './types.ts';

export { qwenEnvelope };

export const QWEN_DIALECT: ChatDialect = {
  provider: 'qwen',
  label: 'Qwen (DashScope)',
  codes: { orphan: 'Q1', missing: 'Q2', wrongId: 'Q2', duplicateResult: 'OW2' },
  envelope: (message) => qwenEnvelope(message),
  // N: the message that broke the run (as OpenAI's param), or the assistant message when the
  // array ends first (inferred).
  textIndex: (callAt, breakAt) => breakAt ?? callAt,
};

export const qwenValidator: ProviderValidator = {
  id: 'qwen',
  label: 'Qwen (DashScope)',
  chatCompletions: true,
  models: /qwen|qwq/i,
  validate: (t, opts) => validateChat(t, QWEN_DIALECT, opts),
};
