/**
 * DeepSeek (OpenAI-compatible Chat Completions): OpenAI's pairing rules in other words (D1, D2 of
 * the rule catalogue): "preceding" spelled right, no id list, `param` null; D3 an assistant
 * message with neither content nor tool_calls; D4 thinking mode's `reasoning_content` (D5: the
 * V4 models' words for it).
 */
import type { Message, Transcript } from '../types.ts';
import { deepseekEnvelope, ruleSpec, ruleText } from './catalogue/index.ts';
import { violation } from './rules/common.ts';
import { validateChat, type ChatDialect } from './openaiChat.ts';
import type { ProviderValidator, RenderedMessage, Violation } from './types.ts';

export { deepseekEnvelope };

/**
 * Thinking mode: as the request sets it; else on for a model that only thinks (`deepseek-reasoner`,
 * R1) and for the V4 models, where it is the default (DeepSeek docs, thinking mode); else (an
 * older `deepseek-chat`, or no model named) not judged.
 */
function thinkingMode(t: Transcript): boolean {
  if (t.settings.thinking !== undefined) return t.settings.thinking;
  return /deepseek-(reasoner|r1|v4|flash|pro)/i.test(t.settings.model ?? '');
}

/**
 * The V4 models (`deepseek-v4-…`, `deepseek-flash`, `deepseek-pro`), which word D4 without an
 * index (D5): wording by model generation.
 */
export function deepseekV4(t: Pick<Transcript, 'settings'>): boolean {
  return /deepseek-(v4|flash|pro)/i.test(t.settings.model ?? '');
}

function isCall(m: RenderedMessage): boolean {
  for (const it of m.items) if (it.block.type === 'tool_use') return true;
  return false;
}

/** Whether the message carries `reasoning_content` (kept in `meta.reasoning`). */
function hasReasoning(m: RenderedMessage): boolean {
  for (const src of m.sources) if (src.meta?.reasoning !== undefined) return true;
  return false;
}

/**
 * D4: in thinking mode, each assistant message between two user messages that made a tool call
 * must carry `reasoning_content` (an empty one is taken). `n` counts the messages as sent.
 */
function reasoningMissing(msgs: RenderedMessage[], t: Transcript): Violation[] {
  if (!thinkingMode(t)) return [];
  const code = deepseekV4(t) ? 'D5' : 'D4';
  const out: Violation[] = [];
  let start = 0;
  for (let end = 0; end <= msgs.length; end++) {
    if (end < msgs.length && (msgs[end] as RenderedMessage).role !== 'user') continue;
    let called = false;
    for (let n = start; n < end; n++) if (isCall(msgs[n] as RenderedMessage)) called = true;
    for (let n = start; called && n < end; n++) {
      const m = msgs[n] as RenderedMessage;
      if (m.role !== 'assistant' || hasReasoning(m)) continue;
      const src = m.sources[0] as Message;
      const v = {
        rule: 'reasoning_missing' as const,
        code,
        messageIndex: src.rawIndex,
        index: src.index,
        blockIndex: null,
        ids: [],
        providerPath: null,
        message: ruleText(code, { n }),
        title: 'Thinking mode: an assistant message without reasoning_content',
        why: 'In thinking mode, every assistant message of a turn that called tools must be sent back with its reasoning_content; a client that drops it (or a history built without it) is refused.',
        confidence: ruleSpec(code).confidence,
      };
      out.push(violation(v, (message) => deepseekEnvelope(message)));
    }
    start = end + 1;
  }
  return out;
}

export const DEEPSEEK_DIALECT: ChatDialect = {
  provider: 'deepseek',
  label: 'DeepSeek',
  // No capture of a wrong tool_call_id on DeepSeek: the call is left without its tool message, so
  // the insufficient-tool-messages text (D2) is the likeliest answer.
  codes: { orphan: 'D1', missing: 'D2', wrongId: 'D2', duplicateResult: 'OW2', nullContent: 'D3' },
  envelope: (message) => deepseekEnvelope(message),
  structure: reasoningMissing,
};

export const deepseekValidator: ProviderValidator = {
  id: 'deepseek',
  label: 'DeepSeek',
  chatCompletions: true,
  models: /deepseek/i,
  validate: (t, opts) => validateChat(t, DEEPSEEK_DIALECT, opts),
};
