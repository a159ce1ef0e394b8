/**
 * The two round trips issue 37 found refused, made right: the structure-only copy of a legacy
 * Chat body (`functions`, `function_call`, role `function`) is written back in that shape (it was
 * written as `tool_calls` with no id and `tool` messages, which DeepSeek judges an orphan), and an
 * AI SDK message list with tool parts; each reopens with the same verdict and token shape. A
 * property holds it over generated legacy bodies (the other formats: redact.vocabulary.test.ts).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTranscript } from './parse/index.ts';
import { checkedStructureCopy } from './redact/shareCopy.ts';
import { arbTranscript, parsedText } from './testing/index.ts';
import { CHARS_PER_4 } from './tokens.ts';
import type { Transcript } from './types.ts';
import { writeTranscript } from './write.ts';

type Obj = Record<string, unknown>;

const LEGACY = {
  model: 'gpt-4o',
  functions: [
    {
      name: 'get_weather',
      description: 'The weather in a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } } },
    },
  ],
  messages: [
    { role: 'user', content: 'Weather in Paris?' },
    {
      role: 'assistant',
      content: null,
      function_call: { name: 'get_weather', arguments: '{"city":"Paris"}' },
    },
    { role: 'function', name: 'get_weather', content: '{"temp": 20}' },
    { role: 'assistant', content: 'It is 20 degrees.' },
  ],
};

const call = {
  type: 'tool-call',
  toolCallId: 'call_1',
  toolName: 'getWeather',
  input: { city: 'Paris' },
};
const result = (output: unknown) => ({
  role: 'tool',
  content: [{ type: 'tool-result', toolCallId: 'call_1', toolName: 'getWeather', output }],
});
const AI_SDK: [string, unknown][] = [
  [
    'json output',
    [
      { role: 'user', content: 'Weather?' },
      { role: 'assistant', content: [{ type: 'text', text: 'Checking.' }, call] },
      result({ type: 'json', value: { temp: 20 } }),
      { role: 'assistant', content: 'It is 20.' },
    ],
  ],
  [
    'text and error outputs',
    [
      { role: 'user', content: 'Weather?' },
      { role: 'assistant', content: [call, { ...call, toolCallId: 'call_2' }] },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'call_1',
            toolName: 'getWeather',
            output: { type: 'text', value: 'sunny' },
          },
          {
            type: 'tool-result',
            toolCallId: 'call_2',
            toolName: 'getWeather',
            output: { type: 'error-text', value: 'boom' },
          },
        ],
      },
    ],
  ],
  [
    'a provider-executed call',
    [
      { role: 'user', content: 'Search' },
      {
        role: 'assistant',
        content: [
          {
            type: 'tool-call',
            toolCallId: 'ws_1',
            toolName: 'web_search',
            input: { q: 'x' },
            providerExecuted: true,
          },
          {
            type: 'tool-result',
            toolCallId: 'ws_1',
            toolName: 'web_search',
            output: { type: 'json', value: [] },
          },
          { type: 'text', text: 'done' },
        ],
      },
    ],
  ],
  [
    'UI tool parts',
    [
      { id: 'm1', role: 'user', parts: [{ type: 'text', text: 'Weather?' }] },
      {
        id: 'm2',
        role: 'assistant',
        parts: [
          { type: 'step-start' },
          {
            type: 'tool-getWeather',
            toolCallId: 'call_1',
            state: 'output-available',
            input: { city: 'Paris' },
            output: { temp: 20 },
          },
          {
            type: 'dynamic-tool',
            toolName: 'lookup',
            toolCallId: 'call_2',
            state: 'output-error',
            input: {},
            errorText: 'boom',
          },
          { type: 'text', text: 'It is 20.' },
        ],
      },
    ],
  ],
];

describe('a legacy Chat body (functions, function_call, role function)', () => {
  it('is copied in its own shape and reopens with the same verdict and token shape', () => {
    const t = parsedText(JSON.stringify(LEGACY)).transcript;
    for (const names of ['keep', 'hide'] as const) {
      const copy = checkedStructureCopy(t, CHARS_PER_4, names);
      expect(copy.problems, names).toEqual([]);
      const messages = (JSON.parse(copy.text) as { messages: Obj[] }).messages;
      expect(messages[1]).toHaveProperty('function_call');
      expect(messages[1]).not.toHaveProperty('tool_calls');
      expect(messages[2]?.role).toBe('function');
      expect(copy.text).not.toContain('Paris');
    }
  });
});

describe.each(AI_SDK)('an AI SDK message list: %s', (_, body) => {
  it('reopens with the same verdict and token shape', () => {
    const t = parsedText(JSON.stringify(body)).transcript;
    expect(t.format).toBe('vercel-ai');
    for (const names of ['keep', 'hide'] as const)
      expect(checkedStructureCopy(t, CHARS_PER_4, names).problems, names).toEqual([]);
  });
});

/** A Chat body of `t` with every lone call and its answers in the legacy shape. */
function legacyBody(t: Transcript): string | null {
  const fresh: Transcript = {
    ...t,
    format: 'openai-chat',
    raw: undefined,
    messages: t.messages.map((m) => ({ ...m, raw: undefined })),
  };
  const text = writeTranscript(fresh);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return null;
  }
  const list = Array.isArray(body) ? (body as Obj[]) : ((body as Obj).messages as Obj[]);
  if (!Array.isArray(list)) return null;
  const names = new Map<string, string>();
  for (const m of list) {
    const calls = m.tool_calls as Obj[] | undefined;
    if (m.role !== 'assistant' || !Array.isArray(calls) || calls.length !== 1) continue;
    const fn = calls[0]?.function as Obj | undefined;
    if (typeof calls[0]?.id !== 'string' || !fn) continue;
    names.set(calls[0].id, String(fn.name));
    delete m.tool_calls;
    m.function_call = { name: fn.name, arguments: fn.arguments };
  }
  for (const m of list) {
    const id = m.tool_call_id;
    if (m.role !== 'tool' || typeof id !== 'string' || !names.has(id)) continue;
    m.role = 'function';
    m.name = names.get(id);
    delete m.tool_call_id;
  }
  return names.size > 0 ? JSON.stringify(body) : null;
}

describe('generated legacy Chat bodies', () => {
  it('their structure-only copy reopens the same, and a copy of it is itself', () => {
    let checked = 0;
    fc.assert(
      fc.property(arbTranscript('openai-chat'), (t) => {
        const text = legacyBody(t);
        if (text === null) return;
        const r = parseTranscript(text, { format: 'openai-chat' });
        if (!r.ok) return;
        checked++;
        const copy = checkedStructureCopy(r.value.transcript, CHARS_PER_4);
        expect(copy.problems, text).toEqual([]);
        const again = parsedText(copy.text).transcript;
        expect(checkedStructureCopy(again, CHARS_PER_4).text).toBe(copy.text);
      }),
      { numRuns: 150 },
    );
    expect(checked).toBeGreaterThan(20);
  });
});
