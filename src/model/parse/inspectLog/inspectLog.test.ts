/**
 * Inspect AI eval logs: our own small logs, shaped like a real one (realArchives.corpus.test.ts)
 * and filled with the reported cases 01 (orphan after a trim) and 02 (trailing tool call), whose
 * expected verdicts are the expectations here.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../analyze.ts';
import { validateTranscript } from '../../validate/index.ts';
import { parsed } from '../../testing/index.ts';
import { parseTranscript } from '../index.ts';
import { inspectLogParser, listInspectSamples } from './inspectLog.ts';
import { listFileRequests } from '../../diff/requests.ts';

const call = (id: string, fn: string, args: unknown) => ({ id, function: fn, arguments: args });

/** Case 02 before the trim: system, user, a call, its result (valid). */
const wholeSample = {
  id: 1,
  epoch: 1,
  input: 'How many kilometres is 26.2 miles?',
  target: '42.16',
  messages: [
    {
      id: 'm1',
      role: 'system',
      content: 'You are a helpful assistant with a unit-conversion tool.',
    },
    { id: 'm2', role: 'user', source: 'input', content: 'attachment://a1' },
    {
      id: 'm3',
      role: 'assistant',
      source: 'generate',
      content: '',
      model: 'gpt-4o-mini-2024-07-18',
      tool_calls: [call('call_cv01', 'convert_units', { value: 26.2, from: 'mi', to: 'km' })],
    },
    {
      id: 'm4',
      role: 'tool',
      tool_call_id: 'call_cv01',
      function: 'convert_units',
      content: '42.16',
    },
  ],
  attachments: { a1: 'How many kilometres is 26.2 miles?', d1: 'Convert a value between units.' },
  events: [
    {
      event: 'model',
      tools: [
        { name: 'convert_units', description: 'attachment://d1', parameters: { type: 'object' } },
      ],
      output: {
        choices: [{ message: { id: 'm3' } }],
        usage: { input_tokens: 120, output_tokens: 20, input_tokens_cache_read: 64 },
      },
    },
  ],
};

/** Case 02 after the trim: the request ends on the assistant's tool call. */
const trimmedSample = {
  id: 2,
  epoch: 1,
  messages: wholeSample.messages.slice(0, 3),
};

/** Case 01 after the trim: the kept window starts with a bare tool result. */
const orphanSample = {
  id: 'orphan',
  epoch: 2,
  messages: [
    { role: 'tool', tool_call_id: 'call_wx01', function: 'get_weather', content: '{"temp_c": 18}' },
    { role: 'assistant', content: 'It is 18 °C and cloudy in Springfield right now.' },
    { role: 'user', content: 'And tomorrow morning?' },
  ],
};

const log = (...samples: unknown[]) => ({
  version: 2,
  status: 'success',
  eval: { task: 'units', model: 'openai/gpt-4o-mini' },
  plan: { name: 'plan', steps: [] },
  samples,
});

describe('inspect-log', () => {
  it('is detected without a hint and reads messages, calls, results, tools and usage', () => {
    const p = parsed(log(wholeSample));
    expect(p.candidates[0]?.format).toBe('inspect-log');
    expect(p.ambiguous).toBe(false);
    expect(p.requests).toBeUndefined();
    const t = p.transcript;
    expect(t.format).toBe('inspect-log');
    expect(t.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    // The attachment reference is resolved; the empty text beside a tool call is dropped.
    expect(t.messages[1]?.blocks).toEqual([
      { type: 'text', text: 'How many kilometres is 26.2 miles?' },
    ]);
    expect(t.messages[2]?.blocks).toEqual([
      {
        type: 'tool_use',
        id: 'call_cv01',
        name: 'convert_units',
        input: { value: 26.2, from: 'mi', to: 'km' },
      },
    ]);
    expect(t.messages[3]?.blocks[0]).toMatchObject({
      type: 'tool_result',
      toolUseId: 'call_cv01',
      name: 'convert_units',
      isError: false,
    });
    expect(t.messages[3]?.path).toBe('samples.0.messages.3');
    expect(t.settings.model).toBe('gpt-4o-mini-2024-07-18');
    expect(t.tools).toEqual([
      {
        name: 'convert_units',
        description: 'Convert a value between units.',
        schema: { type: 'object' },
      },
    ]);
    expect(t.usage).toEqual([
      { messageIndex: 2, inputTokens: 120, outputTokens: 20, cacheReadTokens: 64 },
    ]);
    expect(validateTranscript(t).valid).toBe(true);
    expect(validateTranscript(t).provider).toBe('openai-chat');
  });

  it('case 02 (trailing tool call) keeps its verdict in an Inspect sample', () => {
    const v = validateTranscript(parsed(log(trimmedSample)).transcript);
    expect(v.valid).toBe(false);
    expect(v.violations.map((x) => [x.rule, x.messageIndex, x.ids])).toContainEqual([
      'trailing_tool_use',
      2,
      ['call_cv01'],
    ]);
  });

  it('case 01 (orphan after a trim) keeps its verdict in an Inspect sample', () => {
    const v = validateTranscript(parsed(log(orphanSample)).transcript);
    expect(v.valid).toBe(false);
    expect(v.violations.map((x) => [x.rule, x.messageIndex, x.ids])).toContainEqual([
      'orphan_tool_result',
      0,
      ['call_wx01'],
    ]);
  });

  it('a log with several samples lists one request per sample; requestIndex picks one', () => {
    const value = log(wholeSample, trimmedSample, orphanSample);
    expect(listInspectSamples(value).map((e) => e.label)).toEqual([
      '#1 · sample 1 (epoch 1) · 4 messages',
      '#2 · sample 2 (epoch 1) · 3 messages',
      '#3 · sample orphan (epoch 2) · 3 messages',
    ]);
    // Without a choice, an eval log opens on sample 1 (a request log opens on its newest).
    expect(parsed(value).requestIndex).toBe(0);
    const first = parsed(value, 0);
    expect(first.requests).toHaveLength(3);
    expect(first.requestIndex).toBe(0);
    expect(first.transcript.format).toBe('inspect-log');
    expect(validateTranscript(first.transcript).valid).toBe(true);
    const third = parsed(value, 2);
    expect(third.transcript.messages[0]?.role).toBe('tool');
    expect(analyze(third.transcript).pairs.map((p) => p.status)).toEqual(['orphan']);
    // A one-sample log is not a multi-request file.
    expect(listInspectSamples(log(wholeSample))).toEqual([]);
  });

  it('reads reasoning, images and tool errors; bad items become other blocks, never a throw', () => {
    const t = parsed(
      log({
        id: 1,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Look:' },
              { type: 'image', image: 'data:image/png;base64,AAAA' },
              { type: 'mystery', x: 1 },
            ],
          },
          {
            role: 'assistant',
            content: [
              { type: 'reasoning', reasoning: 'Think first.', signature: 'sig' },
              { type: 'reasoning', reasoning: 'opaque', redacted: true },
            ],
            tool_calls: [call('c1', 'bash', '{"cmd":"ls"}'), 42],
          },
          {
            role: 'tool',
            tool_call_id: 'c1',
            function: 'bash',
            content: 'boom',
            error: { type: 'unknown', message: 'boom' },
          },
          'not a message',
          { role: 'robot', content: 'hi' },
        ],
      }),
    ).transcript;
    expect(t.messages[0]?.blocks.map((b) => b.type)).toEqual(['text', 'image', 'other']);
    expect(t.messages[0]?.blocks[1]).toEqual({ type: 'image', bytes: 3 });
    expect(t.messages[1]?.blocks).toEqual([
      { type: 'thinking', thinking: 'Think first.', signature: 'sig' },
      { type: 'redacted_thinking', bytes: 6 },
      { type: 'tool_use', id: 'c1', name: 'bash', input: { cmd: 'ls' } },
      { type: 'other', label: 'tool_call', raw: 42 },
    ]);
    expect(t.messages[2]?.blocks[0]).toMatchObject({ type: 'tool_result', isError: true });
    expect(t.messages[3]?.blocks[0]).toMatchObject({ type: 'other', label: 'not an object' });
    expect(t.messages[4]?.blocks[0]).toMatchObject({ type: 'other', label: 'role robot' });
  });

  it('a log of a model served elsewhere says which provider to pick', () => {
    const other = { ...log(wholeSample), eval: { model: 'anthropic/claude-sonnet-4-5' } };
    expect(parsed(other).transcript.warnings).toContain(
      'The model is anthropic/claude-sonnet-4-5: its requests went to Anthropic, not OpenAI. Pick Anthropic Messages under Provider for its rules.',
    );
    expect(parsed(log(wholeSample)).transcript.warnings).toEqual([]);
    const routed = {
      ...log(wholeSample),
      eval: { model: 'openrouter/anthropic/claude-sonnet-4-5' },
    };
    expect(parsed(routed).transcript.warnings).toEqual([]);
  });

  it('a header-only log (no samples) parses to no messages with a warning', () => {
    const t = parsed(log()).transcript;
    expect(t.format).toBe('inspect-log');
    expect(t.messages).toEqual([]);
    expect(t.warnings.join(' ')).toMatch(/no samples/);
  });

  it('sniff is 0 for other JSON; JSON Lines is refused with a shape error', () => {
    expect(inspectLogParser.sniff({ messages: [] })).toBe(0);
    expect(inspectLogParser.sniff({ eval: {}, samples: 'x' })).toBe(0);
    expect(inspectLogParser.sniff(null)).toBe(0);
    const r = inspectLogParser.parse({ kind: 'jsonl', lines: [], brokenLines: [] });
    expect(r.ok).toBe(false);
  });

  it('parses from text through parseTranscript', () => {
    const r = parseTranscript(JSON.stringify(log(wholeSample), null, 2));
    expect(r.ok && r.value.transcript.format).toBe('inspect-log');
  });
});

describe('inspect-log model calls (issue 33)', () => {
  const done = { id: 'm5', role: 'assistant', content: 'It is 42.16 km.' };
  const twoCalls = {
    ...wholeSample,
    messages: [...wholeSample.messages, done],
    events: [
      {
        event: 'model',
        input: wholeSample.messages.slice(0, 2).map((m) => ({ id: m.id, role: m.role })),
        output: { choices: [{ message: { id: 'm3' } }], usage: { input_tokens: 120 } },
      },
      { event: 'tool' },
      {
        event: 'model',
        input: wholeSample.messages.map((m) => ({ id: m.id, role: m.role })),
        output: { choices: [{ message: { id: 'm5' } }], usage: { input_tokens: 180 } },
      },
    ],
  };

  it('each model event is a call: its input by message id, its reply, its logged input tokens', () => {
    const r = listFileRequests(JSON.stringify(log(twoCalls)), { name: 'log.json' });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.kind).toBe('session');
    expect(r.value.requests.map((q) => [q.messages, q.usageTokens])).toEqual([
      [2, 120],
      [4, 180],
    ]);
    expect(r.value.session?.calls.map((c) => [c.spans, c.reply])).toEqual([
      [[[0, 2]], 2],
      [[[0, 4]], 4],
    ]);
  });

  it('an input without ids is the first as many messages; a sample with one model event is one request', () => {
    const noIds = {
      ...twoCalls,
      events: twoCalls.events.map((e) =>
        e.input ? { ...e, input: e.input.map((m) => ({ role: m.role })) } : e,
      ),
    };
    const r = listFileRequests(JSON.stringify(log(noIds)), { name: 'log.json' });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.session?.calls.map((c) => c.spans)).toEqual([[[0, 2]], [[0, 4]]]);
    const one = listFileRequests(JSON.stringify(log(wholeSample)), { name: 'log.json' });
    if (!one.ok) throw new Error(one.error.message);
    expect(one.value.requests).toHaveLength(1);
  });
});
