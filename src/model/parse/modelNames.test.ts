import { describe, expect, it } from 'vitest';
import { modelFamily } from './modelNames.ts';

describe('modelFamily: the API a body\u2019s `model` names', () => {
  it('names each family, Bedrock ids first (their vendor prefix holds another family\u2019s name)', () => {
    const table: [unknown, ReturnType<typeof modelFamily>][] = [
      ['gpt-4o', 'openai'],
      ['o3-mini', 'openai'],
      ['chatgpt-4o-latest', 'openai'],
      ['openai/gpt-4.1', 'openai'],
      ['claude-sonnet-4-5', 'claude'],
      ['gemini-2.5-flash', 'gemini'],
      ['models/gemini-2.0-flash', 'gemini'],
      ['anthropic.claude-3-5-sonnet-20240620-v1:0', 'bedrock'],
      ['us.anthropic.claude-sonnet-4-5-20250929-v1:0', 'bedrock'],
      ['openai.gpt-oss-120b-1:0', 'bedrock'],
      ['amazon.nova-pro-v1:0', 'bedrock'],
      ['bedrock/anthropic.claude-3-haiku-20240307-v1:0', 'bedrock'],
      ['arn:aws:bedrock:us-east-1:123456789012:inference-profile/x', 'bedrock'],
      // OpenRouter's names are Chat Completions bodies' (no family of their own here).
      ['anthropic/claude-3.5-sonnet', null],
      ['mistral-large-latest', null],
      ['', null],
      [42, null],
      [undefined, null],
    ];
    for (const [model, family] of table) expect(modelFamily(model), String(model)).toBe(family);
  });
});
