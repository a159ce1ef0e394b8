/**
 * Invariants of the log and framework parsers (claude-code-jsonl, codex-jsonl, langchain,
 * vercel-ai): they never throw on any input, and writing a transcript in their format then
 * reading it back keeps every tool call, its pairing, and a valid verdict.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyze } from '../analyze.ts';
import { pairToolCalls } from '../pairing.ts';
import { arbValidTranscript } from '../testing.ts';
import type { FormatId, Transcript } from '../types.ts';
import { writeTranscript } from '../write.ts';
import { parseDocument, parseTranscript } from './index.ts';
import { parserFor } from './registry.ts';

const MINE: FormatId[] = ['claude-code-jsonl', 'codex-jsonl', 'langchain', 'vercel-ai'];

describe('never throws', () => {
  for (const id of MINE) {
    it(`${id}: sniff and parse on arbitrary JSON values and lines`, () => {
      const p = parserFor(id);
      expect(p).toBeDefined();
      if (!p) return;
      fc.assert(
        fc.property(fc.jsonValue(), fc.array(fc.jsonValue(), { maxLength: 6 }), (v, ls) => {
          expect(() => p.sniff(v)).not.toThrow();
          expect(() => p.sniff(ls)).not.toThrow();
          expect(() => parseDocument({ kind: 'json', value: v }, { format: id })).not.toThrow();
          expect(() =>
            parseDocument(
              {
                kind: 'jsonl',
                lines: ls.map((value, i) => ({ line: i + 1, value })),
                brokenLines: [],
              },
              { format: id },
            ),
          ).not.toThrow();
        }),
        { numRuns: 150 },
      );
    });
  }
});

function asNew(t: Transcript, format: FormatId): Transcript {
  return { ...t, format, raw: [], messages: t.messages.map((m) => ({ ...m, raw: undefined })) };
}

const ids = (t: Transcript) =>
  pairToolCalls(t.messages)
    .map((p) => `${p.id}:${p.status}`)
    .sort();

describe('write then read keeps every call and its pairing', () => {
  for (const format of MINE) {
    for (const source of ['anthropic-messages', 'openai-chat'] as const) {
      it(`${format}, from ${source}-shaped messages`, () => {
        fc.assert(
          fc.property(arbValidTranscript(source, { withSystem: false }), (t) => {
            const out = asNew(t, format);
            const back = parseTranscript(writeTranscript(out), {
              format,
              name: format.endsWith('jsonl') ? 'x.jsonl' : 'x.json',
            });
            expect(back.ok).toBe(true);
            if (!back.ok) return;
            expect(ids(back.value.transcript)).toEqual(ids(t));
            expect(analyze(back.value.transcript).validation.valid).toBe(true);
          }),
          { numRuns: 60 },
        );
      });
    }
  }
});
