/**
 * Anthropic A19: a `role: "system"` message inside `messages` of an Anthropic request body. The
 * API takes the system prompt in the top-level `system` field; a system message in the list (the
 * OpenAI way) is a 400, except where a mid-conversation system message is documented to be taken.
 * Only a body of the Messages API itself is judged so: another format's system messages are its
 * own (OpenAI Chat's), or a client or converter moves them to `system` before sending.
 */
import { isObject } from '../parse/util.ts';
import type { Message, Transcript } from '../types.ts';
import { ruleText } from './catalogue/index.ts';
import type { Push } from './rules/common.ts';

/**
 * Models that take a mid-conversation system message: Claude Opus 4.8 (docs, on the Claude API)
 * and every model of the 5 generation (@langchain/anthropic 1.5.13's model profiles, from
 * models.dev: Opus 5 and 5.5, Sonnet 5 and 5.5, Haiku 5.5, Fable 5 and 5.1, Mythos 5 and 5.1 set
 * `midConversationSystemMessages`; langchain-ai/langchainjs#11472: Opus 5). Older ids
 * (`claude-3-5-sonnet-…`, `claude-sonnet-4-5`) take none.
 * @param model the request's `model`, or undefined
 */
export function takesMidConversationSystem(model: string | undefined): boolean {
  if (!model) return false;
  const m = /claude-([a-z]+)-(\d+)(?:-(\d+))?/.exec(model);
  if (!m) return false;
  const major = Number(m[2]);
  // A date suffix (`claude-opus-4-20250514`) is not a minor version.
  const minor = m[3] !== undefined && m[3].length <= 2 ? Number(m[3]) : 0;
  return major >= 5 || (m[1] === 'opus' && major === 4 && minor >= 8);
}

/**
 * True when the body goes to Bedrock or Vertex AI (their `anthropic_version`), where
 * mid-conversation system messages are not available (docs).
 */
function viaCloud(raw: unknown): boolean {
  const v = isObject(raw) ? raw.anthropic_version : undefined;
  return typeof v === 'string' && /^(bedrock|vertex)/.test(v);
}

/** True when `t` is an Anthropic request body (not a bare list, a log or another format). */
function isMessagesBody(t: Transcript): boolean {
  return t.format === 'anthropic-messages' && isObject(t.raw) && Array.isArray(t.raw.messages);
}

/**
 * A mid-conversation system message where the docs place one: right after a user message (or an
 * assistant message ending in a server tool call), and last or followed by an assistant message.
 */
function placedMidConversation(prev: Message | undefined, next: Message | undefined): boolean {
  if (next !== undefined && next.role !== 'assistant') return false;
  if (prev === undefined) return false;
  if (prev.role === 'user') return true;
  const last = prev.role === 'assistant' ? prev.blocks[prev.blocks.length - 1] : undefined;
  return last?.type === 'tool_use' && last.server === true;
}

/**
 * A19: each `system` message inside `messages` of an Anthropic request body that the API refuses.
 * @param t the transcript (its format, body and model decide whether and how the rule applies)
 * @param source the request's messages (normalised; a subset when eviction validates one)
 * @param push where the findings go
 */
export function checkSystemRole(t: Transcript, source: readonly Message[], push: Push): void {
  if (!isMessagesBody(t)) return;
  const mid = takesMidConversationSystem(t.settings.model) && !viaCloud(t.raw);
  for (let i = 0; i < source.length; i++) {
    const m = source[i] as Message;
    if (m.role !== 'system') continue;
    if (mid && placedMidConversation(source[i - 1], source[i + 1])) continue;
    push({
      rule: 'system_role_in_list',
      code: 'A19',
      messageIndex: m.rawIndex,
      index: m.index,
      blockIndex: null,
      ids: [],
      providerPath: 'messages',
      message: ruleText('A19', {}),
      title: 'System message inside messages',
      why: mid
        ? 'This model takes a system message inside messages only right after a user message and before an assistant message or the end; elsewhere, the system prompt goes in the top-level `system` field.'
        : 'The Messages API takes the system prompt in the top-level `system` field, not as a message with role "system" (the OpenAI way).',
      confidence: 'V',
    });
  }
}
