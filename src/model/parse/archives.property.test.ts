/**
 * Invariants of the archive parsers (inspect-log, swe-agent, chatgpt-export, claude-ai-export):
 * sniff and parse never throw on any input; a value in the archive's outer shape with arbitrary
 * items parses, keeping one message per item (Inspect, SWE-agent, claude.ai) with indices in
 * order and unique raw indices; the request listing of a multi-item archive has one entry per
 * item and each entry parses as that item alone.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FormatId, Transcript } from '../types.ts';
import { parseDocument } from './index.ts';
import { listRequests } from './multi.ts';
import { formatsOf, listArchiveRequests, parserFor } from './registry.ts';

const ARCHIVES = formatsOf('archive');

/** Index invariants every downstream step relies on (simulate.ts needs unique raw indices). */
function wellIndexed(t: Transcript): boolean {
  const raw = new Set(t.messages.map((m) => m.rawIndex));
  return raw.size === t.messages.length && t.messages.every((m, i) => m.index === i);
}

describe('archive parsers never throw', () => {
  for (const id of ARCHIVES) {
    it(`${id}: sniff, parse and request listing on arbitrary JSON`, () => {
      const p = parserFor(id);
      expect(p).toBeDefined();
      if (!p) return;
      fc.assert(
        fc.property(fc.jsonValue(), (v) => {
          const s = p.sniff(v);
          expect(s >= 0 && s <= 1).toBe(true);
          expect(() => parseDocument({ kind: 'json', value: v }, { format: id })).not.toThrow();
          expect(() => listArchiveRequests(v)).not.toThrow();
        }),
        { numRuns: 200 },
      );
    });
  }
});

const item = fc.oneof(
  fc.jsonValue(),
  fc.record({
    role: fc.constantFrom('system', 'user', 'assistant', 'tool', 'robot'),
    content: fc.oneof(fc.string(), fc.array(fc.jsonValue(), { maxLength: 3 })),
    tool_calls: fc.array(fc.jsonValue(), { maxLength: 2 }),
    tool_call_ids: fc.array(fc.oneof(fc.string(), fc.integer()), { maxLength: 2 }),
  }),
);

describe('arbitrary items in the outer shape parse, one message each, well indexed', () => {
  it('inspect-log, swe-agent, claude-ai-export', () => {
    fc.assert(
      fc.property(fc.array(item, { maxLength: 8 }), (items) => {
        const shapes: [FormatId, unknown][] = [
          ['inspect-log', { version: 2, eval: {}, samples: [{ messages: items }] }],
          ['swe-agent', { trajectory: [], info: {}, history: items }],
          [
            'claude-ai-export',
            { uuid: 'c', chat_messages: items.map((x) => ({ sender: 'human', ...Object(x) })) },
          ],
        ];
        for (const [format, value] of shapes) {
          const r = parseDocument({ kind: 'json', value }, { format });
          expect(r.ok).toBe(true);
          if (!r.ok) continue;
          expect(r.value.transcript.messages).toHaveLength(items.length);
          expect(wellIndexed(r.value.transcript)).toBe(true);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('chatgpt-export: a chain of n message nodes gives n messages in chain order', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { maxLength: 8 }), (contents) => {
        const mapping: Record<string, unknown> = { root: { id: 'root', parent: null } };
        contents.forEach((content, i) => {
          mapping[`n${i}`] = {
            id: `n${i}`,
            parent: i === 0 ? 'root' : `n${i - 1}`,
            message: { author: { role: 'user' }, content },
          };
        });
        const current = contents.length > 0 ? `n${contents.length - 1}` : 'root';
        const r = parseDocument(
          { kind: 'json', value: [{ mapping, current_node: current }] },
          { format: 'chatgpt-export' },
        );
        expect(r.ok).toBe(true);
        if (!r.ok) return;
        const t = r.value.transcript;
        expect(t.messages.map((m) => m.meta?.sourceId)).toEqual(contents.map((_, i) => `n${i}`));
        expect(wellIndexed(t)).toBe(true);
      }),
      { numRuns: 150 },
    );
  });
});

describe('multi-item archives: one request per item, each parsed alone', () => {
  it('inspect samples and claude.ai conversations', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.string(), { maxLength: 4 }), { minLength: 2, maxLength: 5 }),
        (convs) => {
          const samples = convs.map((texts, i) => ({
            id: i,
            messages: texts.map((content) => ({ role: 'user', content })),
          }));
          const chats = convs.map((texts, i) => ({
            uuid: `c${i}`,
            chat_messages: texts.map((text) => ({ sender: 'human', text, content: [] })),
          }));
          for (const [format, value] of [
            ['inspect-log', { eval: {}, samples }],
            ['claude-ai-export', chats],
          ] as [FormatId, unknown][]) {
            const entries = listRequests(value);
            expect(entries).toHaveLength(convs.length);
            convs.forEach((texts, k) => {
              const r = parseDocument({ kind: 'json', value }, { requestIndex: k });
              expect(r.ok).toBe(true);
              if (!r.ok) return;
              expect(r.value.transcript.format).toBe(format);
              expect(r.value.requestIndex).toBe(k);
              expect(r.value.transcript.messages.map((m) => m.blocks)).toEqual(
                texts.map((text) => [{ type: 'text', text }]),
              );
            });
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
