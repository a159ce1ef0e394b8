import { describe, expect, it } from 'vitest';
import { parsedText } from '../../testing/index.ts';
import { countTokens } from '../../tokens.ts';
import { validateTranscript } from '../../validate/index.ts';
import { prepareEviction, simulatePolicy } from '../policies.ts';

describe('clear-tool-results: the verdict of the cleared request', () => {
  it('a tool message of untyped parts (O13) cleared to the placeholder is no longer a 400', () => {
    // langchain-ai/langgraph#1069: a tool's list of objects sent as the tool message's content.
    const call = (id: string) => ({
      role: 'assistant',
      content: null,
      tool_calls: [{ id, type: 'function', function: { name: 'search', arguments: '{}' } }],
    });
    const body = {
      model: 'gpt-4o',
      messages: [
        { role: 'user', content: 'Find the news, three times.' },
        call('call_1'),
        {
          role: 'tool',
          tool_call_id: 'call_1',
          content: [{ url: 'https://example.com/a', title: 'A long headline '.repeat(40) }],
        },
        call('call_2'),
        { role: 'tool', tool_call_id: 'call_2', content: 'second '.repeat(40) },
        call('call_3'),
        { role: 'tool', tool_call_id: 'call_3', content: 'third' },
        { role: 'assistant', content: 'Done.' },
      ],
    };
    const t = parsedText(JSON.stringify(body)).transcript;
    expect(validateTranscript(t, 'openai-chat').violations.map((v) => v.code)).toEqual(['O13']);
    const table = countTokens(t, 'openai-chat');
    const ctx = prepareEviction(t, table, 'openai-chat');
    const r = simulatePolicy(ctx, 'clear-tool-results', Math.round(table.total / 2), {
      keepToolUses: 1,
    });
    // The first result is among those cleared: its untyped parts are gone with its content.
    expect(r.validation.violations.map((v) => v.code)).toEqual([]);
    expect(r.validation.valid).toBe(true);
    expect(r.firstError).toBeNull();
  });
});
