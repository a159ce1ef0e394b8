/**
 * A structure-only copy of a transcript that has no source value (a faulted copy of a streamed
 * file, issue 6): written from the messages alone, it keeps model, thinking, tools, system, token
 * counts and verdicts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze } from './analyze.ts';
import { applyFaults, reindexForView } from './faults.ts';
import { redactTranscript, redactTranscriptWithMaps } from './redact.ts';
import { parsedText } from './testing/index.ts';
import { CHARS_PER_4, countTokens, loadBpeCounter, type TextCounter } from './tokens.ts';
import type { Transcript } from './types.ts';
import { writeTranscript } from './write.ts';

let o200k: TextCounter;
beforeAll(async () => {
  o200k = await loadBpeCounter('o200k_base');
});

const parseOk = (text: string, format?: Transcript['format']): Transcript =>
  parsedText(text, format ? { format } : {}).transcript;

describe('structure-only copy of a transcript without its source value (a faulted copy, issue 6)', () => {
  // The shape of coding-agent / case 03 (parallel calls, one timed out): model, thinking, system
  // prompt and tools at the top level, then a turn with two parallel calls.
  const body = {
    model: 'claude-sonnet-4-5',
    max_tokens: 8192,
    thinking: { type: 'enabled', budget_tokens: 4096 },
    system: 'You are a coding agent working in the repository. Use the tools; keep answers short.',
    tools: [
      { name: 'bash', description: 'bash tool', input_schema: { type: 'object' } },
      { name: 'read_file', description: 'read_file tool', input_schema: { type: 'object' } },
    ],
    messages: [
      { role: 'user', content: 'Run the tests and read the config.' },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Both at once.', signature: 'c2lnbmF0dXJlLXNpZw==' },
          { type: 'tool_use', id: 'toolu_01A', name: 'bash', input: { cmd: 'pytest -q' } },
          { type: 'tool_use', id: 'toolu_01B', name: 'read_file', input: { path: 'setup.cfg' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_01A', content: '12 passed in 0.4s' },
          { type: 'tool_result', tool_use_id: 'toolu_01B', content: '[metadata]\nname = tides' },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'All green; the package is tides.' }] },
    ],
  };
  const chatBody = {
    model: 'gpt-4o',
    tool_choice: 'required',
    tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }],
    messages: [
      { role: 'system', content: 'Answer with a tool.' },
      { role: 'user', content: 'Where is the order?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"o":1}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'shipped' },
    ],
  };

  for (const [label, src] of [
    ['anthropic-messages', body],
    ['openai-chat', chatBody],
  ] as const) {
    it(`${label}: keeps model, thinking, tools, system, token counts and verdicts`, () => {
      const loaded = parseOk(JSON.stringify(src));
      // What the page holds for a faulted copy of a streamed file: messages changed, no `raw`.
      const faulted = applyFaults(
        loaded,
        label === 'anthropic-messages'
          ? [{ kind: 'timeout', pairKey: 'p0' }]
          : [{ kind: 'truncate', count: 1 }],
      );
      expect(faulted.error).toBeNull();
      const t: Transcript = { ...reindexForView(faulted.transcript), raw: undefined };
      for (const counter of [CHARS_PER_4, o200k]) {
        const red = redactTranscriptWithMaps(t, { counter });
        const back = parseOk(writeTranscript(red.transcript), t.format);
        expect(back.settings).toEqual(t.settings);
        expect(back.tools?.map((d) => d.name) ?? null).toEqual(t.tools?.map((d) => d.name) ?? null);
        expect(back.system.length).toBe(t.system.length);
        const provider = analyze(t).provider;
        expect(countTokens(back, provider, counter).total).toBe(
          countTokens(t, provider, counter).total,
        );
        const verdict = (x: Transcript) => {
          const a = analyze(x, provider);
          return {
            notes: a.validation.notes,
            rules: a.validation.violations.map((v) => [v.rule, v.messageIndex]),
          };
        };
        expect(verdict(back)).toEqual(verdict(t));
      }
    });
  }

  it('a bare message array (no settings) stays a bare array', () => {
    const t = parseOk(JSON.stringify(body.messages));
    const red = redactTranscript({ ...t, raw: undefined });
    expect(Array.isArray(JSON.parse(writeTranscript(red)))).toBe(true);
  });
});
