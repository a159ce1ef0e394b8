import { describe, expect, it } from 'vitest';
import { parsedText } from '../../testing/index.ts';
import { validateTranscript } from '../../validate/index.ts';
import { aiSdkAsSent } from './aiSdkAsSent.ts';

/** ModelMessage lists as `pruneMessages({emptyMessages: 'keep'})` and interrupted turns leave them. */
const call = { type: 'tool-call', toolCallId: 'c1', toolName: 'f', input: {} };
const res = {
  type: 'tool-result',
  toolCallId: 'c1',
  toolName: 'f',
  output: { type: 'text', value: 'ok' },
};
const verdict = (
  messages: unknown[],
  provider: 'anthropic' | 'openai-chat' | 'gemini' = 'anthropic',
) => {
  // As the format picker names it (a list this small is also plain Chat or Anthropic).
  const t = parsedText(JSON.stringify(messages), { format: 'vercel-ai' }).transcript;
  return validateTranscript(t, provider);
};

describe('the AI SDK request as sent (ai 6, @ai-sdk/anthropic, @ai-sdk/openai)', () => {
  it('an emptied tool message is dropped, so the request is valid', () => {
    const v = verdict([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: [{ type: 'text', text: 'a' }] },
      { role: 'tool', content: [] },
      { role: 'user', content: 'next' },
    ]);
    expect(v.violations).toEqual([]);
  });

  it('text after a tool call is sent before it (moveToolUseBlocksToEnd): no A5', () => {
    const v = verdict([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: [call, { type: 'text', text: 'after' }] },
      { role: 'tool', content: [res] },
    ]);
    expect(v.violations.filter((x) => x.severity === 'error')).toEqual([]);
  });

  it('an empty assistant message is sent as `content: []`: Anthropic answers A10 at its row', () => {
    const v = verdict([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: [{ type: 'text', text: '' }] },
      { role: 'user', content: 'next' },
    ]);
    expect(v.violations.map((x) => [x.code, x.index, x.providerPath])).toEqual([
      ['A10', 1, 'messages.1'],
    ]);
  });

  it('an empty assistant message goes to OpenAI as `content: ""`, never null: no O11', () => {
    for (const content of [[{ type: 'text', text: '' }], []]) {
      const list = [
        { role: 'user', content: 'q' },
        { role: 'assistant', content },
        { role: 'user', content: 'next' },
      ];
      expect(verdict(list, 'openai-chat').violations).toEqual([]);
      expect(verdict(list).violations.map((x) => x.code)).toEqual(['A10']);
      // Gemini gets no parts for it (vercel/ai#3775): G9.
      expect(verdict(list, 'gemini').violations.map((x) => x.code)).toEqual(['G9']);
    }
  });

  it('findings after a dropped message keep pointing at their own rows', () => {
    const v = verdict([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: [{ type: 'text', text: 'a' }] },
      { role: 'tool', content: [] },
      { role: 'user', content: 'next' },
      { role: 'tool', content: [{ ...res, toolCallId: 'c9' }] },
    ]);
    const a1 = v.violations.find((x) => x.code === 'A1');
    expect(a1).toMatchObject({ index: 4, ids: ['c9'] });
  });

  it('changes nothing (the same list) when the client sends the messages as they are', () => {
    const t = parsedText(
      JSON.stringify([
        { role: 'user', content: 'q' },
        { role: 'assistant', content: [{ type: 'text', text: 'a' }, call] },
        { role: 'tool', content: [res] },
      ]),
    ).transcript;
    expect(t.format).toBe('vercel-ai');
    for (const chat of [false, true]) expect(aiSdkAsSent(t.messages, chat)).toBe(t.messages);
  });
});
