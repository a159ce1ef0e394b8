/**
 * Kimi (Moonshot AI), OpenAI-compatible Chat Completions (`api.moonshot.ai`, `api.moonshot.cn`):
 * OpenAI's rules and texts (no capture of Kimi's own for them), plus K1: in thinking mode an
 * assistant tool-call message must carry its `reasoning_content`.
 */
import type { Message, Transcript } from '../../types.ts';
import { ruleSpec, ruleText } from '../catalogue/index.ts';
import { violation } from '../rules/common.ts';
import { OPENAI_DIALECT, validateChat, type ChatDialect } from '../openaiChat.ts';
import type { ProviderValidator, RenderedMessage, Violation } from '../types.ts';
import type { Endpoint } from './types.ts';
import { KIMI_WINDOWS } from './windows.ts';

/** Kimi's captured 400 body (VicBilibily/GCMP#162). */
export function kimiEnvelope(message: string): unknown {
  return { error: { type: 'invalid_request_error', message }, type: 'error' };
}

/** Thinking mode: as the request says; else on for the thinking models (K2 thinking, K2.5, K2.6). */
function thinkingMode(t: Transcript): boolean {
  if (t.settings.thinking !== undefined) return t.settings.thinking;
  return /kimi-k2[.-](thinking|5|6)/i.test(t.settings.model ?? '');
}

/** K1: each assistant message with tool calls sent without `reasoning_content`. */
function reasoningMissing(msgs: RenderedMessage[], t: Transcript): Violation[] {
  if (!thinkingMode(t)) return [];
  const out: Violation[] = [];
  for (let n = 0; n < msgs.length; n++) {
    const m = msgs[n] as RenderedMessage;
    if (m.role !== 'assistant' || !m.items.some((it) => it.block.type === 'tool_use')) continue;
    if (m.sources.some((s) => s.meta?.reasoning !== undefined)) continue;
    const src = m.sources[0] as Message;
    const v = {
      rule: 'reasoning_missing' as const,
      code: 'K1',
      messageIndex: src.rawIndex,
      index: src.index,
      blockIndex: null,
      ids: [],
      providerPath: null,
      message: ruleText('K1', { n }),
      title: 'Thinking mode: a tool-call message without reasoning_content',
      why: 'With thinking on, Kimi wants every assistant message that called tools sent back with its reasoning_content; a client or gateway that drops the field is refused.',
      confidence: ruleSpec('K1').confidence,
    };
    out.push(violation(v, kimiEnvelope));
  }
  return out;
}

export const KIMI_DIALECT: ChatDialect = {
  ...OPENAI_DIALECT,
  provider: 'kimi',
  label: 'Kimi (Moonshot)',
  structure: reasoningMissing,
};

const validator: ProviderValidator = {
  id: 'kimi',
  label: 'Kimi (Moonshot)',
  chatCompletions: true,
  models: /kimi|moonshot/i,
  validate: (t, opts) => validateChat(t, KIMI_DIALECT, opts),
};

export const kimi: Endpoint = {
  id: 'kimi',
  label: 'Kimi (Moonshot)',
  api: 'openai-chat',
  base: 'openai-chat',
  validator,
  dialect: { adds: ['K1'], rewords: [] },
  hosts: [/(^|\.)moonshot\.(ai|cn)$/, /(^|\.)kimi\.com$/],
  paths: [/\/chat\/completions$/],
  // Request URLs as documented (platform.moonshot.ai/docs/api/chat).
  urls: [
    'https://api.moonshot.ai/v1/chat/completions',
    'https://api.moonshot.cn/v1/chat/completions',
  ],
  pathStyle: 'messages.[N].role (OpenAI\u2019s); K1 names the message in its text (`at index N`)',
  evidenced: 'own',
  evidence: 'cloudwego/eino-ext#700; mastra-ai/mastra#12592; VicBilibily/GCMP#162',
  asOf: '2026-05',
  tokenizer: 'other',
  windows: KIMI_WINDOWS,
};
