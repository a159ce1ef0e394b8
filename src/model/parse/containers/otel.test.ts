/**
 * OpenTelemetry GenAI traces: every LLM call span is one request, in time order, rebuilt as its
 * provider's request body and judged by that provider's rules; the same trace reads the same
 * from OTLP/JSON, a collector's JSON Lines file, Jaeger's JSON and a flat span array.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../analyze.ts';
import type { Transcript } from '../../types.ts';
import { parseTranscript, type ParsedTranscript } from '../index.ts';
import type { Json } from '../util.ts';
import {
  oncallSpans,
  toAnyValue,
  toFlat,
  toJaeger,
  toOtlp,
  type FixtureSpan,
} from './otel.fixtures.ts';

function open(doc: unknown, requestIndex?: number, name?: string): ParsedTranscript {
  const r = parseTranscript(typeof doc === 'string' ? doc : JSON.stringify(doc), {
    ...(requestIndex !== undefined ? { requestIndex } : {}),
    ...(name !== undefined ? { name } : {}),
  });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** One line per message: role and its blocks (`tool_use toolu_1`, `tool_result toolu_1`, …). */
function dump(t: Transcript): string[] {
  return t.messages.map(
    (m) =>
      `${m.role}: ${m.blocks
        .map((b) =>
          b.type === 'tool_use'
            ? `tool_use ${b.id ?? '-'} ${b.name}`
            : b.type === 'tool_result'
              ? `tool_result ${b.toolUseId ?? '-'}`
              : b.type === 'other'
                ? `other ${b.label}`
                : b.type,
        )
        .join(', ')}`,
  );
}

const LABELS = [
  '#1 · 14:05:00 UTC · gpt-4.1-mini · chat gpt-4.1-mini',
  '#2 · 14:05:01 UTC · claude-opus-4-7 · chat claude-opus-4-7',
  '#3 · 14:05:04 UTC · claude-opus-4-7 · chat claude-opus-4-7',
  '#4 · 14:05:17 UTC · claude-opus-4-7 · chat claude-opus-4-7',
];

describe('an OTLP/JSON export with several LLM spans', () => {
  const otlp = toOtlp(oncallSpans());

  it('lists each LLM call (not the agent or tool spans) by time, model and span name; the newest opens', () => {
    const p = open(otlp);
    expect(p.requests?.map((r) => r.label)).toEqual(LABELS);
    expect(p.requestIndex).toBe(3);
    expect(p.container?.kind).toBe('otel');
    expect(p.ambiguous).toBe(false);
  });

  it('judges each call against the provider the span names', () => {
    const verdicts = LABELS.map((_, i) => {
      const a = analyze(open(otlp, i).transcript);
      return [a.transcript.format, a.provider, a.validation.valid];
    });
    expect(verdicts).toEqual([
      ['openai-chat', 'openai-chat', true],
      ['anthropic-messages', 'anthropic', true],
      ['anthropic-messages', 'anthropic', true],
      ['anthropic-messages', 'anthropic', false],
    ]);
  });

  it('the call whose input lost a tool_call_response gets the Anthropic 400, and its arcs show which', () => {
    const p = open(otlp);
    const a = analyze(p.transcript);
    expect(dump(p.transcript)).toEqual([
      'user: text',
      'assistant: text, tool_use toolu_01Logs search_logs',
      'user: tool_result toolu_01Logs',
      'assistant: other reasoning, tool_use toolu_02Deploys list_deploys, tool_use toolu_03Pool pool_status',
      'user: tool_result toolu_02Deploys',
    ]);
    const first = a.validation.violations.find((v) => v.severity === 'error');
    expect(first?.ids).toEqual(['toolu_03Pool']);
    expect(first?.error).toEqual({
      type: 'error',
      error: {
        type: 'invalid_request_error',
        message:
          'messages.3: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_03Pool. Each `tool_use` block must have a corresponding `tool_result` block in the next message.',
      },
    });
    expect(a.pairs.map((x) => [x.id, x.status, x.partial])).toEqual([
      ['toolu_01Logs', 'answered', false],
      ['toolu_02Deploys', 'answered', false],
      ['toolu_03Pool', 'unanswered', true],
    ]);
    expect(p.transcript.system.map((s) => s.text)).toEqual([
      'You are the on-call assistant for the payments team.',
    ]);
    expect(p.transcript.settings.model).toBe('claude-opus-4-7');
  });

  it('the notes say where the call came from, its usage, and which execute_tool span ran the lost call', () => {
    const w = open(otlp).transcript.warnings;
    expect(w[0]).toBe(
      'Unwrapped from the OpenTelemetry trace, LLM call 4 of 4: span chat claude-opus-4-7 (c000000000000004) at resourceSpans.0.scopeSpans.0.spans.7.',
    );
    expect(w).toContain(
      'Tool call toolu_03Pool (pool_status) has no tool_call_response in this input, but span execute_tool pool_status at 14:05:07 UTC (failed: tool timed out after 10 s) ran it: its result was lost before this call.',
    );
    expect(w).toContain(
      'Traces do not record reasoning signatures: reasoning is shown as recorded, and the signature rules are not judged.',
    );
    const second = open(otlp, 1).transcript.warnings;
    expect(second).toContain(
      'The span reports 2052 input tokens (the semconv count includes the cache buckets: 1840 read from the cache) and 96 output tokens.',
    );
    expect(second).toContain(
      'The answer (gen_ai.output.messages) calls toolu_01Logs (search_logs); it is not appended, so the request is judged as it was sent.',
    );
    expect(second).toContain(
      'This answer calls toolu_01Logs (search_logs); span execute_tool search_logs at 14:05:03 UTC (succeeded) ran it.',
    );
  });

  it("a final answer is appended as the last turn; a system message in the input list becomes OpenAI's system message", () => {
    const t = open(otlp, 0).transcript;
    expect(dump(t)).toEqual(['system: text', 'user: text', 'assistant: text']);
    expect(t.warnings).toContain("The span's output (gen_ai.output.messages) is the last turn.");
  });
});

describe('the same trace from other exports reads the same', () => {
  const reference = LABELS.map((_, i) => dump(open(toOtlp(oncallSpans()), i).transcript));

  it.each([
    ['Jaeger JSON (data[].spans[], tags, microseconds)', toJaeger(oncallSpans())],
    ['a flat span array with an attribute map (Logfire-style rows)', toFlat(oncallSpans())],
    ['a collector file export (one OTLP request per line)', null],
  ])('%s', (_, doc) => {
    let text: string;
    if (doc === null) {
      const spans = oncallSpans();
      text = [toOtlp(spans.slice(0, 4)), toOtlp(spans.slice(4))]
        .map((d) => JSON.stringify(d))
        .join('\n');
    } else text = JSON.stringify(doc);
    const p = open(text);
    expect(p.requests?.map((r) => r.label)).toEqual(LABELS);
    expect(LABELS.map((_, i) => dump(open(text, i).transcript))).toEqual(reference);
    expect(analyze(open(text).transcript).validation.valid).toBe(false);
  });
});

/** A trace of one chat span with these attributes (and events). */
function oneSpan(attrs: Json, events?: FixtureSpan['events']): Json {
  return toOtlp([
    {
      name: 'chat',
      spanId: 'c1',
      start: 0,
      end: 1,
      attrs: { 'gen_ai.operation.name': 'chat', ...attrs },
      ...(events ? { events } : {}),
    },
  ]);
}

const lostResult = [
  { role: 'user', parts: [{ type: 'text', content: 'Is payments-db up?' }] },
  {
    role: 'assistant',
    parts: [
      { type: 'tool_call', id: 'c_a', name: 'ping', arguments: '{"host":"payments-db"}' },
      { type: 'tool_call', id: 'c_b', name: 'pool_status', arguments: { pool: 'pgbouncer' } },
    ],
  },
  { role: 'tool', parts: [{ type: 'tool_call_response', id: 'c_a', response: 'pong 3 ms' }] },
];

describe('providers', () => {
  it('gcp.gemini: a Gemini body, results named after their calls, consecutive tool messages one user turn', () => {
    const input = [
      ...lostResult.slice(0, 2),
      lostResult[2],
      { role: 'tool', parts: [{ type: 'tool_call_response', id: 'c_b', response: { ok: true } }] },
    ];
    const p = open(
      oneSpan({
        'gen_ai.provider.name': 'gcp.gemini',
        'gen_ai.request.model': 'gemini-3-pro',
        'gen_ai.input.messages': JSON.stringify(input),
      }),
    );
    expect(p.transcript.format).toBe('gemini');
    expect(dump(p.transcript)).toEqual([
      'user: text',
      'assistant: tool_use c_a ping, tool_use c_b pool_status',
      'user: tool_result c_a, tool_result c_b',
    ]);
    const raw = p.transcript.raw as { contents: { parts: Json[] }[]; model?: string };
    expect(raw.contents[2]?.parts[0]).toEqual({
      functionResponse: { id: 'c_a', name: 'ping', response: { output: 'pong 3 ms' } },
    });
    // The wire body carries no model (it is in the URL), so G4 is not judged on a trace.
    expect(raw.model).toBeUndefined();
    expect(analyze(p.transcript).validation.valid).toBe(true);
  });

  it('gcp.gemini with a lost result: the Gemini verdict names the call', () => {
    const p = open(
      oneSpan({
        'gen_ai.provider.name': 'gcp.gemini',
        'gen_ai.input.messages': JSON.stringify(lostResult),
      }),
    );
    const a = analyze(p.transcript);
    expect(a.provider).toBe('gemini');
    expect(a.validation.valid).toBe(false);
    expect(a.pairs.find((x) => x.id === 'c_b')?.status).toBe('unanswered');
  });

  it('aws.bedrock: a Converse body whose results are one user message, judged by Bedrock', () => {
    const p = open(
      oneSpan({
        'gen_ai.provider.name': 'aws.bedrock',
        'gen_ai.request.model': 'anthropic.claude-sonnet-4-5',
        'gen_ai.input.messages': JSON.stringify(lostResult),
      }),
    );
    expect(p.transcript.format).toBe('bedrock-converse');
    const a = analyze(p.transcript);
    expect(a.provider).toBe('bedrock');
    expect(a.validation.valid).toBe(false);
    expect(a.validation.violations.find((v) => v.severity === 'error')?.ids).toContain('c_b');
  });

  it('openai (older gen_ai.system): tool_calls with JSON arguments, one tool message per result', () => {
    const p = open(
      oneSpan({ 'gen_ai.system': 'openai', 'gen_ai.input.messages': JSON.stringify(lostResult) }),
    );
    expect(p.transcript.format).toBe('openai-chat');
    const raw = p.transcript.raw as { messages: Json[] };
    expect(raw.messages[1]).toMatchObject({
      role: 'assistant',
      tool_calls: [
        {
          id: 'c_a',
          type: 'function',
          function: { name: 'ping', arguments: '{"host":"payments-db"}' },
        },
        { id: 'c_b', function: { name: 'pool_status', arguments: '{"pool":"pgbouncer"}' } },
      ],
    });
    const a = analyze(p.transcript);
    expect(a.validation.valid).toBe(false);
    expect(a.validation.violations[0]?.ids).toEqual(['c_b']);
  });

  it('mistral_ai: an OpenAI Chat body, and the note names the Mistral rules', () => {
    const p = open(
      oneSpan({
        'gen_ai.provider.name': 'mistral_ai',
        'gen_ai.input.messages': JSON.stringify(lostResult.slice(0, 1)),
      }),
    );
    expect(p.transcript.format).toBe('openai-chat');
    expect(p.transcript.warnings).toContain(
      'mistral_ai takes OpenAI Chat Completions bodies with its own rules: pick Mistral under Provider (--provider mistral).',
    );
  });

  it('no provider: the model decides, and the note says so', () => {
    const p = open(
      oneSpan({
        'gen_ai.request.model': 'claude-haiku-4-5',
        'gen_ai.input.messages': JSON.stringify(lostResult.slice(0, 1)),
      }),
    );
    expect(p.transcript.format).toBe('anthropic-messages');
    expect(p.transcript.warnings[1]).toContain(
      'of model claude-haiku-4-5: the span names no provider (gen_ai.provider.name)',
    );
  });
});

describe('parts', () => {
  it('blobs are media (never tokenised as text); server tool pairs stay server tools', () => {
    const data = 'iVBORw0KGgo'.repeat(300);
    const p = open(
      oneSpan({
        'gen_ai.provider.name': 'anthropic',
        'gen_ai.input.messages': JSON.stringify([
          {
            role: 'user',
            parts: [
              { type: 'text', content: 'What does this dashboard show?' },
              { type: 'blob', modality: 'image', mime_type: 'image/png', content: data },
            ],
          },
          {
            role: 'assistant',
            parts: [
              {
                type: 'server_tool_call',
                id: 'srvtoolu_1',
                name: 'web_search',
                server_tool_call: { query: 'pgbouncer max_client_conn' },
              },
              {
                type: 'server_tool_call_response',
                id: 'srvtoolu_1',
                server_tool_call_response: [
                  { type: 'web_search_result', url: 'https://example.org' },
                ],
              },
              { type: 'text', content: 'The pool is capped at 40 clients.' },
            ],
          },
          { role: 'user', parts: [{ type: 'text', content: 'Thanks.' }] },
        ]),
      }),
    );
    const [m0, m1] = p.transcript.messages;
    expect(m0?.blocks[1]).toEqual({
      type: 'image',
      mediaType: 'image/png',
      bytes: Math.floor((data.length * 3) / 4),
    });
    expect(
      m1?.blocks.map((b) => [
        b.type,
        b.type === 'tool_use' || b.type === 'tool_result' ? b.server : undefined,
      ]),
    ).toEqual([
      ['tool_use', true],
      ['tool_result', 'web_search_tool_result'],
      ['text', undefined],
    ]);
    const a = analyze(p.transcript);
    expect(a.validation.valid).toBe(true);
    expect(a.pairs.map((x) => [x.id, x.status, x.server])).toEqual([
      ['srvtoolu_1', 'answered', true],
    ]);
  });
});

describe('the recorded shapes of a call context', () => {
  it('structured messages on a gen_ai.client.inference.operation.details event', () => {
    const p = open(
      oneSpan({ 'gen_ai.provider.name': 'openai' }, [
        {
          name: 'gen_ai.client.inference.operation.details',
          attrs: {
            'gen_ai.input.messages': lostResult,
            'gen_ai.system_instructions': [{ type: 'text', content: 'Be brief.' }],
          },
        },
      ]),
    );
    expect(dump(p.transcript)).toEqual([
      'system: text',
      'user: text',
      'assistant: tool_use c_a ping, tool_use c_b pool_status',
      'tool: tool_result c_a',
    ]);
    expect(p.transcript.warnings[1]).toContain(
      'the gen_ai.client.inference.operation.details event',
    );
  });

  it('the deprecated gen_ai.*.message events, on the span', () => {
    const p = open(
      oneSpan({ 'gen_ai.system': 'openai', 'gen_ai.request.model': 'gpt-4o' }, [
        { name: 'gen_ai.system.message', attrs: { content: 'Be brief.' } },
        { name: 'gen_ai.user.message', attrs: { content: 'Is payments-db up?' } },
        {
          name: 'gen_ai.assistant.message',
          attrs: {
            tool_calls: JSON.stringify([
              { id: 'call_1', type: 'function', function: { name: 'ping', arguments: '{}' } },
            ]),
          },
        },
        { name: 'gen_ai.tool.message', attrs: { id: 'call_1', content: 'pong' } },
        {
          name: 'gen_ai.choice',
          attrs: {
            index: 0,
            finish_reason: 'stop',
            message: JSON.stringify({ content: 'It is up.' }),
          },
        },
      ]),
    );
    expect(dump(p.transcript)).toEqual([
      'system: text',
      'user: text',
      'assistant: tool_use call_1 ping',
      'tool: tool_result call_1',
      'assistant: text',
    ]);
    expect(analyze(p.transcript).validation.valid).toBe(true);
  });

  it('the deprecated events as log records (resourceLogs) linked to the span by spanId', () => {
    const doc = oneSpan({ 'gen_ai.system': 'openai' });
    const log = (event: string, body: unknown) => ({
      spanId: 'c1',
      eventName: event,
      body: toAnyValue(body),
    });
    doc.resourceLogs = [
      {
        scopeLogs: [
          {
            logRecords: [
              log('gen_ai.user.message', { content: 'Is payments-db up?' }),
              log('gen_ai.assistant.message', {
                tool_calls: [{ id: 'call_1', function: { name: 'ping', arguments: '{}' } }],
              }),
            ],
          },
        ],
      },
    ];
    const p = open(doc);
    expect(dump(p.transcript)).toEqual(['user: text', 'assistant: tool_use call_1 ping']);
    expect(p.transcript.warnings[1]).toContain('the deprecated gen_ai.*.message events');
  });

  it("OpenLLMetry's flattened gen_ai.prompt.{i}.* with tool calls, a tool_call_id and native content blocks", () => {
    const p = open(
      toOtlp([
        {
          name: 'anthropic.chat',
          spanId: 'c1',
          start: 0,
          end: 1,
          attrs: {
            'llm.request.type': 'chat',
            'gen_ai.system': 'Anthropic',
            'gen_ai.request.model': 'claude-sonnet-4-5',
            'gen_ai.prompt.0.role': 'user',
            'gen_ai.prompt.0.content': 'Is payments-db up?',
            'gen_ai.prompt.1.role': 'assistant',
            'gen_ai.prompt.1.content': JSON.stringify([
              { type: 'tool_use', id: 'toolu_1', name: 'ping', input: {} },
              { type: 'tool_use', id: 'toolu_2', name: 'pool_status', input: {} },
            ]),
            'gen_ai.prompt.2.role': 'user',
            'gen_ai.prompt.2.content': JSON.stringify([
              { type: 'tool_result', tool_use_id: 'toolu_1', content: 'pong' },
            ]),
            'gen_ai.usage.prompt_tokens': 120,
            'gen_ai.usage.completion_tokens': 9,
          },
        },
      ]),
    );
    expect(p.transcript.format).toBe('anthropic-messages');
    expect(dump(p.transcript)).toEqual([
      'user: text',
      'assistant: tool_use toolu_1 ping, tool_use toolu_2 pool_status',
      'user: tool_result toolu_1',
    ]);
    expect(p.transcript.warnings).toContain(
      'The span reports 120 input tokens and 9 output tokens.',
    );
    const a = analyze(p.transcript);
    expect(a.validation.valid).toBe(false);
    expect(a.validation.violations.find((v) => v.severity === 'error')?.ids).toEqual(['toolu_2']);
  });
});

describe('what a trace must hold', () => {
  it('a trace without an LLM call says what it expected', () => {
    const r = parseTranscript(
      JSON.stringify(
        toOtlp([
          {
            name: 'GET /health',
            spanId: 's1',
            start: 0,
            end: 1,
            attrs: { 'gen_ai.operation.name': 'execute_tool' },
          },
        ]),
      ),
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.message).toBe(
      'This OpenTelemetry trace has 1 span(s), none of them an LLM call: expected a span whose gen_ai.operation.name is chat, generate_content or text_completion.',
    );
  });

  it('LLM spans without recorded content say how to turn capture on', () => {
    const r = parseTranscript(JSON.stringify(oneSpan({ 'gen_ai.provider.name': 'openai' })));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.message).toContain(
      '1 LLM call span(s), but none recorded its messages: expected gen_ai.input.messages',
    );
    expect(r.error.message).toContain('OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true');
  });

  it('a span list without gen_ai attributes is not a trace (left to the format detectors)', () => {
    const r = parseTranscript(
      JSON.stringify([{ name: 'GET /', attributes: { 'http.method': 'GET' } }]),
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.message).toContain('not a transcript format I know');
  });
});
