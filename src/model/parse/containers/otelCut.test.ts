/**
 * Issue 37: an OTel attribute the conventions define as JSON that does not read as JSON (cut by an
 * attribute length limit, nested too deep) is named — what, where, "cut at N characters?" — and
 * the request gets no provider verdict (the CLI exits 2), where a cut `gen_ai.input.messages` was
 * read as no message and answered with Anthropic's exact A14 body (exit 1), and a deep one gave A10.
 */
import { describe, expect, it } from 'vitest';
import { cli } from '../../../cli/testing/index.ts';
import { parseTranscript } from '../index.ts';
import { lostResult, oneSpan, toOtlp } from '../../testing/otel.fixtures.ts';

const FULL = JSON.stringify(lostResult);
const CUT_AT = FULL.indexOf('pool_status') + 4;
const CUT = FULL.slice(0, CUT_AT);

/** An Anthropic chat span whose input messages attribute is `messages` (JSON text). */
const span = (messages: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify(
    oneSpan({
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.request.model': 'claude-sonnet-4-5',
      'gen_ai.input.messages': messages,
      ...extra,
    }),
  );

describe('an unreadable OTel attribute is named, never judged', () => {
  it('a gen_ai.input.messages cut mid-JSON: what, where, cut at N characters?', async () => {
    const r = parseTranscript(span(CUT));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.message).toContain('The gen_ai.input.messages attribute does not read as JSON');
    expect(r.error.message).toContain(`cut at ${CUT.length} characters?`);
    expect(r.error.message).toContain('span chat (c1) at resourceSpans.0.scopeSpans.0.spans.0');
    expect(r.error.message).toContain('no provider verdict');
    const run = await cli(['check', 'trace.json'], { 'trace.json': span(CUT) });
    expect(run.code).toBe(2);
    expect(run.err).toContain(`cut at ${CUT.length} characters?`);
    expect(run.out).not.toMatch(/A14|A10|HTTP 400/);
  });

  it('nested too deep: named with its depth, exit 2, no A10', async () => {
    const deep = `[{"role":"user","parts":[{"type":"text","content":"hi"}]},${'['.repeat(300)}${']'.repeat(300)}]`;
    const r = parseTranscript(span(deep));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toMatch(/nests deeper than 256 levels/);
    const run = await cli(['check', 'trace.json'], { 'trace.json': span(deep) });
    expect(run.code).toBe(2);
    expect(run.out).not.toMatch(/A10/);
  });

  it('a cut system instruction, output list and tool definitions are named too', () => {
    for (const [key, value] of [
      ['gen_ai.system_instructions', '[{"type":"text","content":"Be bri'],
      ['gen_ai.output.messages', '[{"role":"assistant","parts":[{"type":"text"'],
      ['gen_ai.tool.definitions', '[{"name":"ping","parameters":{"type":"obj'],
    ] as const) {
      const r = parseTranscript(span(FULL, { [key]: value }));
      expect(r.ok, key).toBe(false);
      if (!r.ok) expect(r.error.message).toContain(`The ${key} attribute does not read as JSON`);
    }
  });

  it('on the details event and the deprecated gen_ai.choice event', () => {
    const onEvent = parseTranscript(
      JSON.stringify(
        oneSpan({ 'gen_ai.provider.name': 'openai' }, [
          {
            name: 'gen_ai.client.inference.operation.details',
            attrs: { 'gen_ai.input.messages': CUT },
          },
        ]),
      ),
    );
    expect(onEvent.ok).toBe(false);
    if (!onEvent.ok)
      expect(onEvent.error.message).toContain(
        'gen_ai.input.messages attribute of the gen_ai.client.inference.operation.details event',
      );
    const choice = parseTranscript(
      JSON.stringify(
        oneSpan({ 'gen_ai.system': 'openai' }, [
          { name: 'gen_ai.user.message', attrs: { content: 'Is it up?' } },
          { name: 'gen_ai.choice', attrs: { index: 0, message: '{"content":"It is' } },
        ]),
      ),
    );
    expect(choice.ok).toBe(false);
    if (!choice.ok)
      expect(choice.error.message).toContain('The message of events.1 (gen_ai.choice)');
  });

  it('one cut span among readable ones: the others still open; the cut one says to pick one', () => {
    const spans = (cut: string) =>
      toOtlp([
        {
          name: 'chat',
          spanId: 'a1',
          start: 0,
          end: 1,
          attrs: {
            'gen_ai.operation.name': 'chat',
            'gen_ai.provider.name': 'openai',
            'gen_ai.input.messages': FULL,
          },
        },
        {
          name: 'chat',
          spanId: 'a2',
          start: 2,
          end: 3,
          attrs: {
            'gen_ai.operation.name': 'chat',
            'gen_ai.provider.name': 'openai',
            'gen_ai.input.messages': cut,
          },
        },
      ]);
    const text = JSON.stringify(spans(CUT));
    const newest = parseTranscript(text);
    expect(newest.ok).toBe(false);
    if (!newest.ok) expect(newest.error.message).toMatch(/1 other request that reads whole/);
    const first = parseTranscript(text, { requestIndex: 0 });
    expect(first.ok).toBe(true);
  });

  it('text content that merely starts with a bracket is still text', () => {
    const r = parseTranscript(
      span(JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: '[1, 2' }] }])),
    );
    expect(r.ok).toBe(true);
  });
});
