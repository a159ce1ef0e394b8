/**
 * Invariants of the log and framework parsers (claude-code-jsonl, codex-jsonl, langchain,
 * vercel-ai): they never throw on any input, and writing a transcript in their format then
 * reading it back keeps every tool call, its pairing, and a valid verdict.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyze } from '../analyze.ts';
import { pairToolCalls } from '../pairing.ts';
import { arbValidTranscript } from '../testing/index.ts';
import type { FormatId, Transcript } from '../types.ts';
import { writeTranscript } from '../write.ts';
import { parseDocument, parseTranscript } from './index.ts';
import { PARSERS, parserFor } from './registry.ts';
import { GEN_FORMATS, generate, type GenFormat } from '../../../scripts/gen.ts';

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

/** Every message's blocks rebuilt from its raw alone (`FormatParser.blocksOf`) against the parse's. */
function expectRebuilt(t: Transcript): void {
  const rebuild = parserFor(t.format)?.blocksOf;
  if (!rebuild) throw new Error(`${t.format} has no blocksOf`);
  for (const m of t.messages) expect(rebuild(m.raw), m.path).toEqual(m.blocks);
}

describe('blocks rebuilt from a message’s raw equal the parse’s (issue 20)', () => {
  const rebuilding = PARSERS.filter((p) => p.blocksOf);
  it('at least the Claude Code log rebuilds', () => {
    expect(rebuilding.map((p) => p.id)).toContain('claude-code-jsonl');
  });
  for (const { id } of rebuilding) {
    it(`${id}: generated logs (merged replies, sidechains, tool results)`, () => {
      expect(GEN_FORMATS).toContain(id); // the generator writes every rebuilding format
      for (const seed of [1, 2, 3, 4, 5]) {
        const r = parseTranscript(generate({ format: id as GenFormat, messages: 400, seed }), {
          format: id,
          name: 'x.jsonl',
        });
        expect(r.ok).toBe(true);
        if (!r.ok) continue;
        expectRebuilt(r.value.transcript);
        // Replies spread over several lines are among them (raw: the list of their lines).
        if (id === 'claude-code-jsonl')
          expect(r.value.transcript.messages.some((m) => Array.isArray(m.raw))).toBe(true);
      }
    });
    it(`${id}: written from any valid transcript`, () => {
      fc.assert(
        fc.property(arbValidTranscript('anthropic-messages', { withSystem: false }), (t) => {
          const back = parseTranscript(writeTranscript(asNew(t, id)), {
            format: id,
            name: 'x.jsonl',
          });
          expect(back.ok).toBe(true);
          if (back.ok) expectRebuilt(back.value.transcript);
        }),
        { numRuns: 60 },
      );
    });
    it(`${id}: arbitrary lines, and never throws on any raw`, () => {
      const p = parserFor(id);
      // Lines shaped like a log's (roles, reply ids, sidechains, any content) and any JSON.
      const line = fc.oneof(
        fc.record({
          type: fc.constantFrom('user', 'assistant', 'summary'),
          uuid: fc.constantFrom('u1', 'u2', 'u3'),
          sessionId: fc.constant('s'),
          isSidechain: fc.boolean(),
          message: fc.record({
            id: fc.constantFrom('m1', 'm2'),
            content: fc.oneof(
              fc.string(),
              fc.array(fc.jsonValue(), { maxLength: 3 }),
              fc.jsonValue(),
            ),
          }),
        }),
        fc.jsonValue(),
      );
      fc.assert(
        fc.property(fc.array(line, { maxLength: 8 }), (ls) => {
          expect(() => p?.blocksOf?.(ls)).not.toThrow();
          const doc = {
            kind: 'jsonl' as const,
            lines: ls.map((value, i) => ({ line: i + 1, value })),
            brokenLines: [],
          };
          const r = parseDocument(doc, { format: id });
          if (r.ok) expectRebuilt(r.value.transcript);
        }),
        { numRuns: 200 },
      );
    });
  }
});
