/**
 * OpenTelemetry GenAI traces: every LLM call span is one request, in time order, rebuilt as its
 * provider's request body and judged by that provider's rules; the same trace reads the same
 * from OTLP/JSON, a collector's JSON Lines file, Jaeger's JSON and a flat span array.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../analyze.ts';
import { parseTranscript } from '../index.ts';
import {
  dump,
  lostResult,
  oncallSpans,
  oneSpan,
  openTrace,
  toFlat,
  toJaeger,
  toOtlp,
} from '../../testing/otel.fixtures.ts';

/** The call of `lostResult` that was answered, with its result. */
const answeredCall = [
  {
    role: 'assistant',
    parts: [{ type: 'tool_call', id: 'c_a', name: 'ping', arguments: '{"host":"payments-db"}' }],
  },
  { role: 'tool', parts: [{ type: 'tool_call_response', id: 'c_a', response: 'pong 3 ms' }] },
];

const LABELS = [
  '#1 · 14:05:00 UTC · gpt-4.1-mini · chat gpt-4.1-mini',
  '#2 · 14:05:01 UTC · claude-opus-4-7 · chat claude-opus-4-7',
  '#3 · 14:05:04 UTC · claude-opus-4-7 · chat claude-opus-4-7',
  '#4 · 14:05:17 UTC · claude-opus-4-7 · chat claude-opus-4-7',
];

describe('an OTLP/JSON export with several LLM spans', () => {
  const otlp = toOtlp(oncallSpans());

  it('lists each LLM call (not the agent or tool spans) by time, model and span name; the newest opens', () => {
    const p = openTrace(otlp);
    expect(p.requests?.map((r) => r.label)).toEqual(LABELS);
    expect(p.requestIndex).toBe(3);
    expect(p.container?.kind).toBe('otel');
    expect(p.ambiguous).toBe(false);
  });

  it('judges each call against the provider the span names', () => {
    const verdicts = LABELS.map((_, i) => {
      const a = analyze(openTrace(otlp, i).transcript);
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
    const p = openTrace(otlp);
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
    const w = openTrace(otlp).transcript.warnings;
    expect(w[0]).toBe(
      'Unwrapped from the OpenTelemetry trace, LLM call 4 of 4: span chat claude-opus-4-7 (c000000000000004) at resourceSpans.0.scopeSpans.0.spans.7.',
    );
    expect(w).toContain(
      'Tool call toolu_03Pool (pool_status) has no tool_call_response in this input, but span execute_tool pool_status at 14:05:07 UTC (failed: tool timed out after 10 s) ran it: its result was lost before this call.',
    );
    expect(w).toContain(
      'Traces do not record reasoning signatures: reasoning is shown as recorded, and the signature rules are not judged.',
    );
    const second = openTrace(otlp, 1).transcript.warnings;
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

  it("a final answer is not appended (the request is judged as sent); a system message in the input list becomes OpenAI's system message", () => {
    const t = openTrace(otlp, 0).transcript;
    expect(dump(t)).toEqual(['system: text', 'user: text']);
    expect(t.warnings).toContain(
      'The answer (gen_ai.output.messages) is what this request returned; it is not appended, so the request is judged as it was sent.',
    );
  });

  it('a call that ended on a tool result and got a final answer is judged as sent: no A12 on a model without prefill, no prefill note', () => {
    const answered = oneSpan({
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.request.model': 'claude-opus-4-7',
      'gen_ai.input.messages': JSON.stringify(lostResult.slice(0, 1).concat(answeredCall)),
      'gen_ai.output.messages': JSON.stringify([
        { role: 'assistant', parts: [{ type: 'text', content: 'payments-db is up.' }] },
      ]),
    });
    const p = openTrace(answered);
    expect(dump(p.transcript)).toEqual([
      'user: text',
      'assistant: tool_use c_a ping',
      'user: tool_result c_a',
    ]);
    const a = analyze(p.transcript);
    expect(a.validation.violations.map((v) => v.code)).not.toContain('A12');
    expect(a.validation.valid).toBe(true);
    expect(a.validation.notes.join(' ')).not.toMatch(/prefill/);
  });
});

describe('the same trace from other exports reads the same', () => {
  const reference = LABELS.map((_, i) => dump(openTrace(toOtlp(oncallSpans()), i).transcript));

  it('Logfire records as NDJSON (attributes as JSON text, otel_status_*), located by line', () => {
    const text = toFlat(oncallSpans())
      .map((row) => {
        const { attributes, status_code, status_message, ...rest } = row;
        return JSON.stringify({
          ...rest,
          attributes: JSON.stringify(attributes),
          ...(status_code !== undefined
            ? { otel_status_code: status_code, otel_status_message: status_message }
            : {}),
        });
      })
      .join('\n');
    const p = openTrace(text);
    expect(p.requests?.map((r) => r.label)).toEqual(LABELS);
    expect(LABELS.map((_, i) => dump(openTrace(text, i).transcript))).toEqual(reference);
    expect(p.transcript.warnings[0]).toBe(
      'Unwrapped from the OpenTelemetry trace, LLM call 4 of 4: span chat claude-opus-4-7 (c000000000000004) at line 8.',
    );
    expect(p.transcript.warnings).toContain(
      'The span ended with an error: messages.3: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_03Pool',
    );
  });

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
    const p = openTrace(text);
    expect(p.requests?.map((r) => r.label)).toEqual(LABELS);
    expect(LABELS.map((_, i) => dump(openTrace(text, i).transcript))).toEqual(reference);
    expect(analyze(openTrace(text).transcript).validation.valid).toBe(false);
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
