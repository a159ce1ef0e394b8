/** The recorded shapes of a call's context: details event, deprecated events, OpenLLMetry. */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../analyze.ts';
import {
  dump,
  lostResult,
  oneSpan,
  openTrace,
  toAnyValue,
  toOtlp,
} from '../../testing/otel.fixtures.ts';

describe('the recorded shapes of a call context', () => {
  it('structured messages on a gen_ai.client.inference.operation.details event', () => {
    const p = openTrace(
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
    const p = openTrace(
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
    ]);
    // The gen_ai.choice event is the answer: read, said in a note, not part of the request.
    expect(p.transcript.warnings).toContain(
      'The answer (gen_ai.output.messages) is what this request returned; it is not appended, so the request is judged as it was sent.',
    );
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
    const p = openTrace(doc);
    expect(dump(p.transcript)).toEqual(['user: text', 'assistant: tool_use call_1 ping']);
    expect(p.transcript.warnings[1]).toContain('the deprecated gen_ai.*.message events');
  });

  it("OpenLLMetry's flattened gen_ai.prompt.{i}.* with tool calls, a tool_call_id and native content blocks", () => {
    const p = openTrace(
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
