/**
 * Properties of the trace reader: it never throws on a malformed export, and rebuilding a span's
 * semconv context as any provider's body keeps every tool_call / tool_call_response pairing.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pairToolCalls } from '../../pairing.ts';
import { parseTranscript } from '../index.ts';
import type { Json } from '../util.ts';
import { readOtel } from './otel.ts';
import { toOtlp } from '../../testing/otel.fixtures.ts';

const PROVIDERS = ['anthropic', 'openai', 'gcp.gemini', 'aws.bedrock'];

/** Turns of an agent loop: each round calls 1–3 tools and answers some of them. */
const rounds = fc.array(
  fc.record({
    calls: fc.integer({ min: 1, max: 3 }),
    answered: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
    splitResults: fc.boolean(),
  }),
  { minLength: 1, maxLength: 4 },
);

function messagesOf(rs: { calls: number; answered: boolean[]; splitResults: boolean }[]) {
  const msgs: Json[] = [{ role: 'user', parts: [{ type: 'text', content: 'Why the 502s?' }] }];
  const answered = new Set<string>();
  const all: string[] = [];
  rs.forEach((r, i) => {
    const ids = Array.from({ length: r.calls }, (_, j) => `call_${i}_${j}`);
    all.push(...ids);
    msgs.push({
      role: 'assistant',
      parts: ids.map((id) => ({
        type: 'tool_call',
        id,
        name: 'search_logs',
        arguments: { q: id },
      })),
    });
    const results = ids
      .filter((_, j) => r.answered[j] === true)
      .map((id) => ({ type: 'tool_call_response', id, response: `result of ${id}` }));
    results.forEach((p) => answered.add(p.id));
    if (results.length === 0)
      msgs.push({ role: 'user', parts: [{ type: 'text', content: 'go on' }] });
    else if (r.splitResults) for (const p of results) msgs.push({ role: 'tool', parts: [p] });
    else msgs.push({ role: 'tool', parts: results });
  });
  return { msgs, answered, all };
}

describe('OTel trace properties', () => {
  it('rebuilding a span as any provider body keeps which calls are answered', () => {
    fc.assert(
      fc.property(rounds, fc.constantFrom(...PROVIDERS), (rs, provider) => {
        const { msgs, answered, all } = messagesOf(rs);
        const doc = toOtlp([
          {
            name: 'chat',
            spanId: 's1',
            start: 0,
            end: 1,
            attrs: {
              'gen_ai.operation.name': 'chat',
              'gen_ai.provider.name': provider,
              'gen_ai.input.messages': JSON.stringify(msgs),
            },
          },
        ]);
        const r = parseTranscript(JSON.stringify(doc));
        expect(r.ok).toBe(true);
        if (!r.ok) return;
        const pairs = pairToolCalls(r.value.transcript.messages);
        expect(pairs.map((p) => p.id)).toEqual(all);
        for (const p of pairs)
          expect([p.id, p.status === 'answered']).toEqual([p.id, answered.has(p.id ?? '')]);
      }),
      { numRuns: 100 },
    );
  });

  it('never throws on a malformed export: null, or a result saying what it expected', () => {
    fc.assert(
      fc.property(fc.anything(), fc.anything(), (spans, attrs) => {
        const docs = [
          { resourceSpans: spans },
          { resourceSpans: [{ scopeSpans: [{ spans }] }] },
          { resourceSpans: [{ scopeSpans: [{ spans: [{ name: 'chat', attributes: attrs }] }] }] },
          [
            {
              name: 'chat',
              attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.input.messages': attrs },
            },
          ],
        ];
        for (const value of docs) {
          // readOtel itself, not openContainer (whose catch would hide a throw).
          const read = readOtel(value);
          if (read && !read.ok) expect(read.error.message).toMatch(/^This OpenTelemetry trace has/);
        }
      }),
      { numRuns: 150 },
    );
  });
});
