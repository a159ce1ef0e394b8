/**
 * A `gen_ai.input.messages` value pasted on its own (copied from a trace viewer's attribute
 * panel): read as the semconv messages it is, not as a Chat array whose tool calls it cannot see.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../analyze.ts';
import { parseTranscript } from '../index.ts';
import { lostResult } from '../../testing/otel.fixtures.ts';
import { isSemconvMessageList } from './otelSpans.ts';

describe('a pasted gen_ai.input.messages list', () => {
  it('reads its tool calls and gets the 400 of the call left without a response', () => {
    const r = parseTranscript(JSON.stringify(lostResult));
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.container?.kind).toBe('otel');
    const a = analyze(r.value.transcript);
    expect(a.validation.violations.map((v) => [v.code, v.ids])).toEqual([['O2', ['c_b']]]);
    expect(r.value.transcript.warnings.join(' ')).toMatch(/names no provider/);
  });

  it('is the same request as the span that recorded it', () => {
    const span = {
      resourceSpans: [
        {
          scopeSpans: [
            {
              spans: [
                {
                  name: 'chat',
                  spanId: 'a1',
                  attributes: [
                    { key: 'gen_ai.operation.name', value: { stringValue: 'chat' } },
                    {
                      key: 'gen_ai.input.messages',
                      value: { stringValue: JSON.stringify(lostResult) },
                    },
                  ],
                },
              ],
            },
          ],
        },
      ],
    };
    const fromSpan = parseTranscript(JSON.stringify(span));
    const pasted = parseTranscript(JSON.stringify(lostResult));
    if (!fromSpan.ok || !pasted.ok) throw new Error('not read');
    expect(pasted.value.transcript.messages.map((m) => m.blocks)).toEqual(
      fromSpan.value.transcript.messages.map((m) => m.blocks),
    );
  });

  it('leaves the lists of other formats with parts alone (Gemini contents, AI SDK UI messages)', () => {
    const gemini = [
      { role: 'user', parts: [{ text: 'hi' }] },
      { role: 'model', parts: [{ functionCall: { name: 'f', args: {} } }] },
    ];
    const uiMessages = [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'hi' }] }];
    const uiNoId = [{ role: 'user', parts: [{ type: 'text', text: 'hi' }] }];
    const anthropic = [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }];
    for (const v of [gemini, uiMessages, uiNoId, anthropic, [], [{ role: 'user', parts: [] }]])
      expect(isSemconvMessageList(v), JSON.stringify(v)).toBe(false);
    expect(isSemconvMessageList(lostResult)).toBe(true);
    const g = parseTranscript(JSON.stringify({ contents: gemini }));
    expect(g.ok && g.value.transcript.format).toBe('gemini');
  });
});
