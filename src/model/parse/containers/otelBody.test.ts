/** A trace span's context rebuilt as each provider's request body: roles, parts, verdicts. */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../analyze.ts';
import type { Json } from '../util.ts';
import { dump, lostResult, oneSpan, openTrace } from '../../testing/otel.fixtures.ts';

describe('providers', () => {
  it('gcp.gemini: a Gemini body, results named after their calls, consecutive tool messages one user turn', () => {
    const input = [
      ...lostResult.slice(0, 2),
      lostResult[2],
      { role: 'tool', parts: [{ type: 'tool_call_response', id: 'c_b', response: { ok: true } }] },
    ];
    const p = openTrace(
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
    const p = openTrace(
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
    const p = openTrace(
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
    const p = openTrace(
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
    const p = openTrace(
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
    const p = openTrace(
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
    const p = openTrace(
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
