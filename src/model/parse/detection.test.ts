/**
 * Detection without hints over every registered format's samples (public/samples/index.json) and
 * our case fixtures. The reported cases and real logs are checked by detection.corpus.test.ts
 * (the corpus suite).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CASE_FIXTURES } from '../testing/cases.ts';
import { validateTranscript } from '../validate/index.ts';
import type { FormatId } from '../types.ts';
import { parseDocument, parseTranscript } from './index.ts';
import { parserFor } from './registry.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const SAMPLES = path.join(repoRoot, 'public/samples');

interface SampleEntry {
  id: string;
  file: string;
  format: FormatId;
  broken: boolean;
}
const index: SampleEntry[] = JSON.parse(readFileSync(path.join(SAMPLES, 'index.json'), 'utf8'));

describe('every sample is detected without hints and gets its verdict', () => {
  it('the sample index lists the Responses, Gemini and Bedrock samples (one valid, one broken each)', () => {
    for (const format of ['openai-responses', 'gemini', 'bedrock-converse'] as const) {
      const mine = index.filter((e) => e.format === format);
      expect(mine.some((e) => e.broken)).toBe(true);
      expect(mine.some((e) => !e.broken)).toBe(true);
    }
  });
  for (const e of index) {
    it(`${e.file} → ${e.format}`, () => {
      expect(parserFor(e.format), `a parser registered for ${e.format}`).toBeDefined();
      const text = readFileSync(path.join(SAMPLES, e.file), 'utf8');
      const r = parseTranscript(text);
      expect(r.ok).toBe(true);
      if (!r.ok) return;
      expect(r.value.transcript.format).toBe(e.format);
      expect(r.value.ambiguous).toBe(false);
      expect(validateTranscript(r.value.transcript).valid).toBe(!e.broken);
      // A valid sample is read whole: nothing falls through to `other`.
      if (!e.broken)
        expect(
          r.value.transcript.messages.flatMap((m) => m.blocks.filter((b) => b.type === 'other')),
        ).toEqual([]);
    });
  }
});

describe('the case fixtures are detected as their own format', () => {
  for (const c of CASE_FIXTURES)
    it(`${c.name} → ${c.format}`, () => {
      const r = parseDocument({ kind: 'json', value: c.transcript });
      expect(r.ok && r.value.transcript.format).toBe(c.format);
    });
});

describe('a body both Anthropic and OpenAI Chat could read', () => {
  // Plain string contents and `max_tokens` fit both shapes; the model name decides.
  const body = (model: string) =>
    JSON.stringify({ model, max_tokens: 64, messages: [{ role: 'user', content: 'hello' }] });
  it('an OpenAI model name reads as OpenAI Chat, a Claude model name as Anthropic', () => {
    for (const [model, format] of [
      ['gpt-4o', 'openai-chat'],
      ['o3-mini', 'openai-chat'],
      ['claude-sonnet-4-5', 'anthropic-messages'],
    ] as const) {
      const r = parseTranscript(body(model));
      expect(r.ok && r.value.transcript.format).toBe(format);
    }
  });
});

describe('a chosen format that reads no message', () => {
  const anthropic = JSON.stringify({
    model: 'claude-sonnet-4-5',
    max_tokens: 100,
    messages: [
      { role: 'user', content: 'Where is my order?' },
      { role: 'assistant', content: 'Checking.' },
      { role: 'user', content: 'Thanks.' },
    ],
  });

  it('is said to be the wrong choice, naming the format the value reads as, not judged as an empty request', () => {
    const r = parseTranscript(anthropic, { format: 'gemini' });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.kind).toBe('shape');
    expect(r.error.message).toContain(
      'Read as Google Gemini (the format chosen), this holds no message',
    );
    expect(r.error.message).toContain('It reads as Anthropic Messages');
  });

  it('an empty request of the chosen format is still read (its provider says it holds no message)', () => {
    const empty = parseTranscript(JSON.stringify({ contents: [] }), { format: 'gemini' });
    expect(empty.ok && empty.value.transcript.messages.length).toBe(0);
    if (!empty.ok) return;
    expect(validateTranscript(empty.value.transcript, 'gemini').violations[0]?.code).toBe('G8');
    // A choice that reads messages is kept as chosen.
    const chat = parseTranscript(anthropic, { format: 'openai-chat' });
    expect(chat.ok && chat.value.transcript.messages.length).toBe(3);
  });
});

describe('a body whose messages fit Bedrock Converse: its `model` and top-level keys decide', () => {
  // `{"text": …}` parts with no `type` read as Converse blocks; a Converse body has no `model`
  // (its model id is in the URL: `modelId` when logged), and no `max_tokens`, `tools`, `stream`.
  const messages = [{ role: 'user', content: [{ text: 'hi' }] }];
  const formatOf = (value: unknown) => {
    const r = parseDocument({ kind: 'json', value });
    return r.ok ? r.value.transcript.format : null;
  };

  it('an OpenAI model reads as OpenAI Chat, not as a valid Converse request', () => {
    const r = parseTranscript(JSON.stringify({ model: 'gpt-4o', messages }));
    expect(r.ok && r.value.transcript.format).toBe('openai-chat');
    expect(r.ok && r.value.ambiguous).toBe(false);
  });

  it('a Claude model with max_tokens reads as Anthropic, and so does a Claude model alone', () => {
    expect(formatOf({ model: 'claude-sonnet-4-5', max_tokens: 100, messages })).toBe(
      'anthropic-messages',
    );
    expect(formatOf({ model: 'claude-sonnet-4-5', messages })).toBe('anthropic-messages');
  });

  it('a Gemini model with `messages` reads as Chat (Gemini\u2019s OpenAI-compatible endpoint)', () => {
    expect(formatOf({ model: 'gemini-2.5-flash', messages })).toBe('openai-chat');
    expect(
      formatOf({ model: 'gemini-2.5-flash', messages: [{ role: 'user', content: 'hi' }] }),
    ).toBe('openai-chat');
  });

  it('another API\u2019s key with no model (max_tokens, stream, tools) is not Converse either', () => {
    expect(formatOf({ max_tokens: 100, messages })).toBe('anthropic-messages');
    expect(formatOf({ stream: true, messages })).not.toBe('bedrock-converse');
  });

  it('a logged Converse body with `modelId`, or a Bedrock model id under `model`, is still Converse', () => {
    expect(formatOf({ modelId: 'anthropic.claude-3-5-sonnet-20240620-v1:0', messages })).toBe(
      'bedrock-converse',
    );
    // `modelId` is Converse's own: a `model` beside it (a log that added one) changes nothing.
    expect(formatOf({ modelId: 'amazon.nova-pro-v1:0', model: 'gpt-4o', messages })).toBe(
      'bedrock-converse',
    );
    for (const model of [
      'anthropic.claude-3-5-sonnet-20240620-v1:0',
      'us.anthropic.claude-sonnet-4-5-20250929-v1:0',
      'amazon.nova-pro-v1:0',
      'bedrock/anthropic.claude-3-haiku-20240307-v1:0',
      'arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-3-7-sonnet-20250219-v1:0',
    ])
      expect(formatOf({ model, messages }), model).toBe('bedrock-converse');
    expect(formatOf({ messages, inferenceConfig: { maxTokens: 100 } })).toBe('bedrock-converse');
  });

  it('blocks only Converse has (toolUse, toolResult) keep a body Converse\u2019s whatever its model', () => {
    const tooled = [
      { role: 'user', content: [{ text: 'Weather?' }] },
      {
        role: 'assistant',
        content: [{ toolUse: { toolUseId: 't1', name: 'weather', input: {} } }],
      },
      {
        role: 'user',
        content: [{ toolResult: { toolUseId: 't1', content: [{ text: '18C' }] } }],
      },
    ];
    for (const model of ['gpt-4o', 'claude-sonnet-4-5', 'anthropic.claude-3-haiku-20240307-v1:0'])
      expect(formatOf({ model, messages: tooled }), model).toBe('bedrock-converse');
  });
});
