import { describe, expect, it } from 'vitest';
import { analyze } from '../../analyze.ts';
import { pairCounts } from '../../pairing.ts';
import { parseTranscript } from '../index.ts';

/** Our own session in the Gemini CLI shape: one call answered, one call that raised, one cancelled prompt. */
const SESSION = {
  sessionId: 's-1',
  projectHash: 'abc',
  messages: [
    { id: 'u1', type: 'user', content: 'List the files and read NOTES.md.' },
    {
      id: 'g1',
      type: 'gemini',
      model: 'gemini-2.5-pro',
      content: 'Listing and reading.',
      thoughts: [{ subject: 'Plan', description: 'Two independent reads.' }],
      tokens: { input: 900, output: 40, cached: 100, thoughts: 12 },
      toolCalls: [
        {
          id: 'ls-1',
          name: 'list_directory',
          args: { path: '.' },
          status: 'success',
          result: [
            {
              functionResponse: {
                id: 'ls-1',
                name: 'list_directory',
                response: { output: 'NOTES.md\nsrc/' },
              },
            },
          ],
        },
        {
          id: 'rd-1',
          name: 'read_file',
          args: { path: 'NOTES.md' },
          status: 'error',
          result: [
            { functionResponse: { id: 'rd-1', name: 'read_file', response: { error: 'EACCES' } } },
          ],
        },
      ],
    },
    {
      id: 'g2',
      type: 'gemini',
      content: 'NOTES.md is not readable.',
      tokens: { input: 1000, output: 9 },
    },
    { id: 'i1', type: 'info', content: 'Request cancelled.' },
    { id: 'u2', type: 'user', content: 'Try again with sudo.' },
  ],
};

describe('gemini-cli sessions', () => {
  it('is detected without a hint; calls carry their results into the next user turn', () => {
    const r = parseTranscript(JSON.stringify(SESSION));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const t = r.value.transcript;
    expect(t.format).toBe('gemini-cli');
    expect(r.value.ambiguous).toBe(false);
    expect(t.messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
    ]);
    expect(t.messages[1]?.blocks.map((b) => b.type)).toEqual([
      'thinking',
      'text',
      'tool_use',
      'tool_use',
    ]);
    expect(t.messages[2]?.blocks).toMatchObject([
      { type: 'tool_result', toolUseId: 'ls-1', isError: false },
      { type: 'tool_result', toolUseId: 'rd-1', isError: true },
    ]);
    expect(t.messages[2]?.rawIndex).toBe(1);
    expect(t.settings.model).toBe('gemini-2.5-pro');
    expect(t.usage[0]).toMatchObject({
      messageIndex: 1,
      inputTokens: 900,
      outputTokens: 40,
      cacheReadTokens: 100,
      reasoningTokens: 12,
    });
    expect(t.warnings.join(' ')).toContain('1 line(s) of other types');
    const a = analyze(t);
    expect(a.provider).toBe('gemini');
    expect(pairCounts(a.pairs)).toMatchObject({ answered: 2 });
    expect(a.validation.valid).toBe(true);
  });

  it('a call with no stored result is an unanswered call for Gemini (G3)', () => {
    const broken = structuredClone(SESSION);
    (broken.messages[1] as { toolCalls: { result?: unknown }[] }).toolCalls[1]!.result = [];
    const r = parseTranscript(JSON.stringify(broken));
    if (!r.ok) throw new Error(r.error.message);
    const a = analyze(r.value.transcript);
    expect(a.validation.valid).toBe(false);
    expect(a.validation.violations[0]?.message).toBe(
      'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.',
    );
  });
});
