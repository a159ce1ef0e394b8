/**
 * The provider → tokenizer → context-window table (`Endpoint.tokenizer`, `Endpoint.windows`):
 * every endpoint of the registry has a tokenizer family and windows, each window with its
 * provider's page; the OpenAI-compatible hosts of other models are offered their own models'
 * windows, not Claude's (the page's old table gave DeepSeek, Qwen and Mistral a Claude window).
 */
import { describe, expect, it } from 'vitest';
import { tokenizerFamily } from '../../tokens.ts';
import { ENDPOINT_IDS, ENDPOINTS } from './index.ts';
import { windowForModel } from './windows.ts';

const FAMILIES = ['openai', 'claude', 'gemini', 'other'];

describe('provider → tokenizer → context windows', () => {
  it.each(ENDPOINT_IDS)('%s has a tokenizer family and sourced windows', (id) => {
    const e = ENDPOINTS[id];
    expect(FAMILIES).toContain(e.tokenizer);
    expect(tokenizerFamily(id)).toBe(e.tokenizer);
    expect(e.windows.length).toBeGreaterThan(0);
    const ids = e.windows.map((w) => w.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const w of e.windows) {
      expect(Number.isInteger(w.tokens) && w.tokens > 0).toBe(true);
      expect(w.source).toMatch(/^https:\/\/[a-z0-9.-]+\//);
      expect(w.asOf).toMatch(/^\d{4}-\d{2}$/);
    }
  });

  it.each([
    'deepseek',
    'deepseek-anthropic',
    'deepseek-responses',
    'kimi',
    'mistral',
    'qwen',
  ] as const)('%s offers no Claude or GPT window and counts as an estimate', (id) => {
    const e = ENDPOINTS[id];
    expect(e.windows.map((w) => w.label).join(' ')).not.toMatch(/claude|gpt|gemini/i);
    expect(e.tokenizer).toBe('other');
  });

  it('each window\u2019s source is its provider\u2019s page', () => {
    const host = (id: (typeof ENDPOINT_IDS)[number]) =>
      new Set(ENDPOINTS[id].windows.map((w) => new URL(w.source).hostname));
    expect(host('deepseek')).toEqual(new Set(['api-docs.deepseek.com']));
    expect(host('kimi')).toEqual(new Set(['platform.moonshot.ai']));
    expect(host('mistral')).toEqual(new Set(['docs.mistral.ai']));
    expect(host('qwen')).toEqual(new Set(['www.alibabacloud.com']));
    expect(host('azure-openai')).toEqual(new Set(['learn.microsoft.com']));
    expect(host('openai-chat')).toEqual(new Set(['platform.openai.com']));
  });

  it('preselects by model name within the endpoint, else its first window', () => {
    expect(windowForModel(ENDPOINTS.qwen.windows, 'qwen3-coder-plus')?.id).toBe('qwen3-coder-plus');
    expect(windowForModel(ENDPOINTS.qwen.windows, 'qwen-plus-latest')?.id).toBe('qwen-plus');
    expect(windowForModel(ENDPOINTS.kimi.windows, 'moonshot-v1-128k')?.tokens).toBe(131_072);
    expect(windowForModel(ENDPOINTS.deepseek.windows, undefined)?.id).toBe('deepseek');
    // A Claude model id sent to DeepSeek's Anthropic endpoint still gets DeepSeek's window.
    expect(windowForModel(ENDPOINTS['deepseek-anthropic'].windows, 'claude-sonnet-4-5')?.id).toBe(
      'deepseek',
    );
    expect(windowForModel([], 'x')).toBeUndefined();
  });
});
