import { isPinned } from '../exchanges.ts';
/**
 * Property tests (fast-check) for the Responses, Gemini and Bedrock validators and writers.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bedrockConverseParser } from '../parse/bedrockConverse/bedrockConverse.ts';
import { geminiParser } from '../parse/gemini/gemini.ts';
import { parseDocument } from '../parse/index.ts';
import { openaiResponsesParser } from '../parse/openaiResponses/openaiResponses.ts';
import type { FormatParser } from '../parse/registry.ts';
import { arbTranscript, arbValidTranscript } from '../testing/index.ts';
import type { Message, ProviderId } from '../types.ts';
import { validateTranscript } from './index.ts';

const PROVIDERS: ProviderId[] = ['openai-responses', 'gemini', 'bedrock'];
const arbAny = fc.oneof(arbTranscript('anthropic-messages'), arbTranscript('openai-chat'));
const arbValid = fc.oneof(
  arbValidTranscript('anthropic-messages'),
  arbValidTranscript('openai-chat'),
);

/** Call ids and result ids, as multisets (sorted lists). */
function ids(messages: readonly Message[]): { calls: string[]; results: string[] } {
  const calls: string[] = [];
  const results: string[] = [];
  for (const m of messages) {
    for (const b of m.blocks) {
      if (b.type === 'tool_use' && b.id !== null) calls.push(b.id);
      if (b.type === 'tool_result' && b.toolUseId !== null) results.push(b.toolUseId);
    }
  }
  return { calls: calls.sort(), results: results.sort() };
}

describe('Responses, Gemini and Bedrock validators: invariants', () => {
  it('accept every generated valid transcript (from either format, rendered into their shape)', () => {
    fc.assert(
      fc.property(arbValid, (t) => {
        for (const p of PROVIDERS)
          expect(validateTranscript(t, p).violations.filter((v) => v.severity === 'error')).toEqual(
            [],
          );
      }),
      { numRuns: 200 },
    );
  });

  it('never throw; `valid` iff no error; every violation points at a message that was sent', () => {
    fc.assert(
      fc.property(arbAny, fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }), (t, mask) => {
        const sent = t.messages.filter((_, i) => mask[i % mask.length]);
        const raw = new Set(sent.map((m) => m.rawIndex));
        for (const p of PROVIDERS) {
          const v = validateTranscript(t, p, { messages: sent });
          expect(v.valid).toBe(!v.violations.some((x) => x.severity === 'error'));
          for (const x of v.violations) {
            expect(x.error === null).toBe(x.severity === 'warning');
            // An empty request (A14, O8, G8) has no message that holds the cause.
            if (x.rule === 'empty_request') {
              expect(sent.every(isPinned)).toBe(true);
              continue;
            }
            expect(raw.has(x.messageIndex)).toBe(true);
            expect(x.error === null).toBe(x.severity === 'warning');
          }
        }
      }),
      { numRuns: 200 },
    );
  });

  it('Responses pairs by call_id only: R1/R2 ids are exactly the unmatched outputs and calls', () => {
    fc.assert(
      fc.property(arbAny, (t) => {
        const { calls, results } = ids(t.messages);
        const callSet = new Set(calls);
        const resultSet = new Set(results);
        const v = validateTranscript(t, 'openai-responses').violations.filter(
          (x) => x.severity === 'error',
        );
        const orphans = v
          .filter((x) => x.code === 'R1')
          .flatMap((x) => x.ids)
          .sort();
        const unanswered = v
          .filter((x) => x.code === 'R2')
          .flatMap((x) => x.ids)
          .sort();
        expect(orphans).toEqual(results.filter((id) => !callSet.has(id)).sort());
        expect(unanswered).toEqual([...new Set(calls.filter((id) => !resultSet.has(id)))].sort());
      }),
      { numRuns: 300 },
    );
  });
});

describe('writers: a transcript from another format keeps its calls and results', () => {
  const writers: [string, FormatParser][] = [
    ['openai-responses', openaiResponsesParser],
    ['gemini', geminiParser],
    ['bedrock-converse', bedrockConverseParser],
  ];
  for (const [format, parser] of writers) {
    it(`${format}: write, then parse as ${format}: same call and result ids, same verdict for its provider`, () => {
      fc.assert(
        fc.property(arbAny, (t) => {
          const text = parser.write?.(t) ?? '';
          const r = parseDocument({ kind: 'json', value: JSON.parse(text) }, { format: parser.id });
          expect(r.ok).toBe(true);
          if (!r.ok) return;
          expect(ids(r.value.transcript.messages)).toEqual(
            ids(t.messages.filter((m) => m.role !== 'system' && m.role !== 'developer')),
          );
          const provider = parser.provider;
          const before = validateTranscript(t, provider)
            .violations.filter((v) => v.severity === 'error')
            .map((v) => [v.rule, v.ids]);
          const after = validateTranscript(r.value.transcript, provider)
            .violations.filter((v) => v.severity === 'error')
            .map((v) => [v.rule, v.ids]);
          expect(after).toEqual(before);
        }),
        { numRuns: 150 },
      );
    });
  }
});
