import { describe, expect, it } from 'vitest';
import { parseTranscript } from '../parse/index.ts';
import type { Transcript } from '../types.ts';
import { providerFits } from './index.ts';

function parse(v: unknown): Transcript {
  const r = parseTranscript(JSON.stringify(v));
  if (!r.ok) throw new Error(r.error.message);
  return r.value.transcript;
}

const chat = parse({ model: 'gpt-4.1', messages: [{ role: 'user', content: 'hi' }] });
const anthropic = parse({
  model: 'claude-sonnet-4-5',
  max_tokens: 10,
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
});

describe('providerFits', () => {
  it('a Chat Completions provider fits a Chat body, not an Anthropic Messages one', () => {
    expect(providerFits('mistral', chat)).toBe(true);
    expect(providerFits('deepseek', chat)).toBe(true);
    expect(providerFits('mistral', anthropic)).toBe(false);
    expect(providerFits('gemini', chat)).toBe(false);
  });

  it('an Anthropic Messages endpoint fits an Anthropic body', () => {
    expect(providerFits('anthropic-bedrock', anthropic)).toBe(true);
    expect(providerFits('anthropic', chat)).toBe(false);
  });
});
