import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../analyze.ts';
import { pairCounts } from '../../pairing.ts';
import { writeTranscript } from '../../write.ts';
import { parsedText } from '../../testing/index.ts';

const samples = path.resolve(import.meta.dirname, '../../../../public/samples');
const sample = (f: string) => readFileSync(path.join(samples, f), 'utf8');

describe('vercel-ai: the valid sample (UIMessages)', () => {
  const p = parsedText(sample('vercel-ui-messages.json'));
  const t = p.transcript;

  it('is detected without a hint; each step becomes an assistant message and a tool message', () => {
    expect(p.candidates[0]?.format).toBe('vercel-ai');
    expect(t.messages.map((m) => `${m.role}:${m.blocks.map((b) => b.type).join(',')}`)).toEqual([
      'user:text',
      'assistant:thinking,tool_use,tool_use',
      'tool:tool_result,tool_result',
      'assistant:tool_use',
      'tool:tool_result',
      'assistant:text',
    ]);
    expect(t.messages.map((m) => m.rawIndex)).toEqual([0, 1, 1, 1, 1, 1]);
    expect(t.messages[2]?.blocks[1]).toMatchObject({
      type: 'tool_result',
      toolUseId: 'toolu_01VdBranch',
      isError: true,
      content: [{ type: 'text', text: 'GitHub API rate limit exceeded' }],
    });
    expect(t.usage).toEqual([{ messageIndex: 5, inputTokens: 2210, outputTokens: 180 }]);
  });

  it('pairs 3 calls, one exchange, valid for Anthropic', () => {
    const a = analyze(t);
    expect(a.provider).toBe('anthropic');
    expect(pairCounts(a.pairs)).toMatchObject({ answered: 3, unanswered: 0, orphan: 0 });
    expect(a.grouping.exchanges).toHaveLength(1);
    expect(a.validation.valid).toBe(true);
  });

  it('writes back unchanged, and merges the pieces of a cut UIMessage back into parts', () => {
    expect(JSON.parse(writeTranscript(t))).toEqual(JSON.parse(sample('vercel-ui-messages.json')));
    const cut = JSON.parse(writeTranscript({ ...t, messages: t.messages.slice(0, 3) })) as {
      parts: { type: string; state?: string }[];
    }[];
    expect(cut).toHaveLength(2);
    expect(cut[1]?.parts.filter((x) => x.type.startsWith('tool-')).map((x) => x.state)).toEqual([
      'output-available',
      'output-error',
    ]);
  });
});

describe('vercel-ai: the broken sample (ModelMessages)', () => {
  it('gets Anthropic A2 listing only the unanswered call', () => {
    const t = parsedText(sample('broken-vercel-dropped-result.json')).transcript;
    expect(t.format).toBe('vercel-ai');
    const v = analyze(t).validation;
    expect(v.violations[0]?.error).toEqual({
      type: 'error',
      error: {
        type: 'invalid_request_error',
        message:
          'messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_01VbNotes. Each `tool_use` block must have a corresponding `tool_result` block in the next message.',
      },
    });
  });
});

describe('vercel-ai: shapes', () => {
  it('case 10 (vercel/ai#14259) as ModelMessages: partial answer at message 1', () => {
    const t = parsedText(
      JSON.stringify([
        { role: 'user', content: 'Fetch the release notes page and read CHANGELOG.md.' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: "I'll fetch the release notes page." },
            {
              type: 'tool-call',
              toolCallId: 'toolu_01AEA',
              toolName: 'fetch_url',
              input: { url: 'https://example.com/releases/latest' },
            },
            { type: 'text', text: 'And read the changelog.' },
            {
              type: 'tool-call',
              toolCallId: 'toolu_01AEB',
              toolName: 'read_file',
              input: { path: 'CHANGELOG.md' },
            },
          ],
        },
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: 'toolu_01AEB',
              toolName: 'read_file',
              output: { type: 'text', value: '## 2.4.0' },
            },
          ],
        },
      ]),
    ).transcript;
    const v = analyze(t).validation;
    expect(v.valid).toBe(false);
    expect(v.violations.find((x) => x.severity === 'error')).toMatchObject({
      messageIndex: 1,
      ids: ['toolu_01AEA'],
    });
  });

  it('v4 args/result and tool-invocation parts', () => {
    const model = parsedText(
      JSON.stringify([
        {
          role: 'assistant',
          content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'f', args: { a: 1 } }],
        },
        {
          role: 'tool',
          content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'f', result: { ok: true } }],
        },
      ]),
    ).transcript;
    expect(model.messages[0]?.blocks[0]).toMatchObject({ input: { a: 1 } });
    expect(model.messages[1]?.blocks[0]).toMatchObject({
      content: [{ type: 'text', text: '{"ok":true}' }],
    });
    const ui = parsedText(
      JSON.stringify([
        { id: 'a', role: 'user', content: 'hi', parts: [{ type: 'text', text: 'hi' }] },
        {
          id: 'b',
          role: 'assistant',
          content: '',
          parts: [
            {
              type: 'tool-invocation',
              toolInvocation: { state: 'call', toolCallId: 'c2', toolName: 'g', args: {} },
            },
          ],
        },
      ]),
    ).transcript;
    expect(pairCounts(analyze(ui).pairs).unanswered).toBe(1);
  });

  it('plain {role, content: string} lists stay OpenAI Chat', () => {
    const p = parsedText(
      JSON.stringify([
        { role: 'system', content: 'x' },
        { role: 'user', content: 'hi' },
      ]),
    );
    expect(p.candidates.map((c) => c.format)).not.toContain('vercel-ai');
  });
});
