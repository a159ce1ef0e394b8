/** Qwen / DashScope, OpenAI-compatible mode (`dashscope….aliyuncs.com/compatible-mode/v1`). */
import { qwenValidator } from '../qwen.ts';
import type { Endpoint } from './types.ts';
import { QWEN_WINDOWS } from './windows.ts';

export const qwen: Endpoint = {
  id: 'qwen',
  label: 'Qwen (DashScope)',
  api: 'openai-chat',
  base: 'openai-chat',
  validator: qwenValidator,
  dialect: {
    // Its own texts for O1 and O2/O3 (Q1, Q2); no capture of its answer to the rest. With O6 not
    // enforced, a replayed call answered twice keeps OW1 (no rejection known) where OpenAI errs
    // with O6 and drops OW1 (openaiChat.ts withoutAnsweredRepeats). An empty `tool_calls` gets
    // Qwen's own text (quoted in smallmain/vscode-unify-chat-provider#65, no full body): not
    // OpenAI's O15, and not checked.
    adds: ['OW2', 'OW1'],
    rewords: ['Q1', 'Q2'],
    relaxes: ['O6', 'O8', 'O10', 'O11', 'O12', 'O13', 'O15', 'O16'],
  },
  hosts: [/(^|\.)(dashscope[\w-]*\.aliyuncs\.com|dashscope\.aliyun\.com)$/],
  paths: [/\/chat\/completions$/],
  // Request URLs as documented (alibabacloud.com/help/en/model-studio/compatibility-of-openai-with-dashscope).
  urls: [
    'https://dashscope-intl.aliyuncs.com/compatible-mode/v1/chat/completions',
    'https://dashscope.aliyuncs.com/compatible-mode/v1/chat/completions',
  ],
  pathStyle: 'none; Q2 names `message[N].role` in its text',
  evidenced: 'own',
  evidence: 'the Qwen rules of the catalogue (Q*)',
  asOf: '2026-09',
  tokenizer: 'other',
  windows: QWEN_WINDOWS,
};
