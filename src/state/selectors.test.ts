import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyze } from '../model/analyze.ts';
import { CHAT_CALL_THEN_USER } from '../model/testing/shapes.ts';
import { arbTranscript, pairsByBlockReference } from '../model/testing/index.ts';
import { CHARS_PER_4 } from '../model/tokens.ts';
import {
  EMPTY_VIEW,
  nextView,
  passesFilters,
  selectArcPairs,
  selectCounts,
  selectDimmed,
  selectMatches,
  selectPairsOfBlock,
  selectPinnedLabel,
  selectPinnedText,
  selectRequest,
  selectRows,
  selectTokens,
  selectViolationMessages,
  selectViolationTargets,
} from './selectors.ts';
import { createAppStore } from './store.ts';
import { InspectStages } from '../engine/inspect.ts';
/** The engine's answer to the store's inputs, on this thread (the stages the inspect worker runs). */
const stages = new InspectStages();
const selectInspection = (s: Parameters<typeof selectRequest>[0]) =>
  stages.inspect(selectRequest(s));

const repoRoot = path.resolve(import.meta.dirname, '../..');
const sampleText = (file: string) =>
  readFileSync(path.join(repoRoot, 'public/samples', file), 'utf8');

/** Case 08 (claude-code#1956, cancel during parallel calls), rebuilt: three calls, user text next. */
const CANCELLED = JSON.stringify({
  system: 'You are a coding agent.',
  messages: [
    { role: 'user', content: 'Which test runner?' },
    { role: 'assistant', content: [{ type: 'text', text: 'pytest.' }] },
    { role: 'user', content: 'Run tests, linter and types.' },
    {
      role: 'assistant',
      content: [
        { type: 'tool_use', id: 'toolu_A', name: 'bash', input: { command: 'pytest' } },
        { type: 'tool_use', id: 'toolu_B', name: 'bash', input: { command: 'ruff' } },
        { type: 'tool_use', id: 'toolu_C', name: 'bash', input: { command: 'mypy' } },
      ],
    },
    { role: 'user', content: 'Stop, only the unit tests.' },
  ],
});

function analysisOf(text: string, name = '') {
  const store = createAppStore({ source: { text, name, origin: 'paste' } });
  const r = selectInspection(store.getState());
  if (!r.ok) throw new Error(r.error.message);
  return r.analysis;
}

describe('store', () => {
  it('holds only user choices, with the documented defaults', () => {
    const s = createAppStore().getState();
    expect(s.policies).toEqual(['message', 'exchange']);
    expect(s.provider).toBeNull();
    expect(s.formatOverride).toBeNull();
    expect(s.selection).toBeNull();
  });

  it('clears the selection and anchor when the source changes', () => {
    const store = createAppStore({ selection: { kind: 'message', index: 3 }, anchor: 'x2' });
    store.getState().setSource({ text: '[]', name: '', origin: 'paste' });
    expect(store.getState().selection).toBeNull();
    expect(store.getState().anchor).toBeNull();
  });
});

describe('selectors', () => {
  it('memoises the request by its inputs', () => {
    const store = createAppStore({ source: { text: CANCELLED, name: '', origin: 'paste' } });
    const a = selectRequest(store.getState());
    store.getState().setFind('x');
    expect(selectRequest(store.getState())).toBe(a);
    store.getState().setProvider('openai-chat');
    expect(selectRequest(store.getState())).not.toBe(a);
  });

  it('re-validates without re-parsing when the provider changes', () => {
    const store = createAppStore({ source: { text: CANCELLED, name: '', origin: 'paste' } });
    const first = selectInspection(store.getState());
    store.getState().setProvider('openai-chat');
    const second = selectInspection(store.getState());
    expect(first.ok && second.ok).toBe(true);
    if (first.ok && second.ok) {
      expect(second.parsed).toBe(first.parsed);
      expect(second.analysis.provider).toBe('openai-chat');
      expect(first.analysis.provider).toBe('anthropic');
    }
  });

  it('ranks the first error as the one the request gets (case 08: unanswered parallel calls)', () => {
    const a = analysisOf(CANCELLED);
    const targets = selectViolationTargets(a);
    expect(targets[0]?.rank).toBe('first');
    expect(targets[0]?.violation.rule).toBe('unanswered_tool_use');
    expect(targets[0]?.violation.ids).toEqual(['toolu_A', 'toolu_B', 'toolu_C']);
    expect(targets[0]?.message).toBe(3);
    expect(targets.slice(1).every((t) => t.rank !== 'first')).toBe(true);
    expect(selectViolationMessages(a)).toContain(3);
  });

  it('maps raw indices to ours (OpenAI system message first; orphan at messages.1)', () => {
    const a = analysisOf(sampleText('broken-orphan-after-trim.json'));
    const t = selectViolationTargets(a)[0];
    expect(t?.violation.rule).toBe('orphan_tool_result');
    expect(a.transcript.messages[t?.message ?? -1]?.rawIndex).toBe(t?.violation.messageIndex);
    const arcs = selectArcPairs(a);
    expect(arcs.filter((p) => p.status === 'orphan')).toHaveLength(1);
    expect(selectCounts(a)).toMatchObject({ arcs: 2, broken: 1, errors: 1 });
  });

  it('labels the row a provider’s path names when it is not the cause’s (O2: the message after the call)', () => {
    const [t] = selectViolationTargets(analysisOf(JSON.stringify(CHAT_CALL_THEN_USER)));
    expect(t?.violation.code).toBe('O2');
    expect([t?.label, t?.pathLabel]).toEqual(['#1', '#2']);
    const [orphan] = selectViolationTargets(
      analysisOf(sampleText('broken-orphan-after-trim.json')),
    );
    expect(orphan?.pathLabel).toBeNull();
  });

  it('puts a band row before the first message of each exchange', () => {
    const a = analysisOf(CANCELLED);
    const model = selectRows(a);
    const { rowOfMessage, rowOfExchange } = model;
    const rows = Array.from({ length: model.count }, (_, i) => model.row(i));
    expect(rows.map((r) => r?.key)).toEqual(['x0', 'm0', 'm1', 'x1', 'm2', 'm3', 'x2', 'm4']);
    expect(Array.from(rowOfMessage)).toEqual([1, 2, 4, 5, 7]);
    expect(Array.from(rowOfExchange)).toEqual([0, 3, 6]);
    expect(rows.map((r) => (r?.kind === 'band' ? `x${r.exchange}` : `m${r?.message}`))).toEqual(
      rows.map((r) => r?.key),
    );
    // Virtualiser keys: the message index, or -(exchange + 1) for a band; all distinct.
    expect(Array.from({ length: model.count }, (_, i) => model.rowKey(i))).toEqual([
      -1, 0, 1, -2, 2, 3, -3, 4,
    ]);
    expect(model.row(model.count)).toBeUndefined();
    expect(selectRows(a)).toBe(selectRows(a));
  });

  it('finds text, tool names and tool ids, case-insensitively', () => {
    const a = analysisOf(sampleText('invoice.json'));
    expect(selectMatches(a, 'GET_CUSTOMER').messages).toEqual([1]);
    expect(selectMatches(a, 'toolu_01CustLookup3Zb').messages).toEqual([1, 2]);
    expect(selectMatches(a, 'mina okafor').messages).toEqual([2]);
    expect(selectMatches(a, '   ').messages).toEqual([]);
    expect(selectMatches(a, 'no such thing').messages).toEqual([]);
  });

  it('dims by role and block type without removing anything', () => {
    const a = analysisOf(sampleText('invoice.json'));
    expect(Array.from(selectDimmed(a, [], []))).toEqual([0, 0, 0]);
    expect(Array.from(selectDimmed(a, ['assistant'], []))).toEqual([1, 0, 1]);
    expect(Array.from(selectDimmed(a, [], ['tool_result']))).toEqual([1, 1, 0]);
    expect(passesFilters(a.transcript.messages[1]!, ['assistant'], ['tool_use'])).toBe(true);
  });

  it('counts tokens per message and memoises the table by reference', () => {
    const a = analysisOf(sampleText('invoice.json'));
    const t1 = selectTokens(a.transcript, a.provider, CHARS_PER_4);
    expect(selectTokens(a.transcript, a.provider, CHARS_PER_4)).toBe(t1);
    expect(t1.perMessage).toHaveLength(3);
    expect(t1.basis.encoding).toBe('chars/4');
  });

  it('keeps the last good transcript visible when new text fails to parse', () => {
    const store = createAppStore({
      source: { text: sampleText('invoice.json'), name: '', origin: 'paste' },
    });
    const good = selectInspection(store.getState());
    const v1 = nextView(EMPTY_VIEW, selectRequest(store.getState()), good);
    expect(v1.error).toBeNull();
    store
      .getState()
      .setSource({ text: '{"messages": [\n  {"role": "user",, }\n]}', name: '', origin: 'paste' });
    const bad = selectInspection(store.getState());
    const v2 = nextView(v1, selectRequest(store.getState()), bad);
    expect(v2.analysis).toBe(v1.analysis);
    expect(v2.error?.kind).toBe('json');
    expect(v2.error?.location?.line).toBe(2);
    expect(v2.error?.location?.lineText).toBe('  {"role": "user",, }');
    expect(store.getState().source.text).toContain('"user",,');
  });
});

describe('pinned text and block → pair index', () => {
  it('pins the top-level system prompt and system messages', () => {
    const a = analysisOf(
      JSON.stringify({
        model: 'gpt-4.1',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Hi' },
        ],
      }),
    );
    expect(selectPinnedText(a.transcript)).toBe('Be brief.');
    const b = analysisOf(sampleText('invoice.json'));
    expect(selectPinnedText(b.transcript)).toContain('billing assistant for Northwind');
  });

  it('names a system message inside an Anthropic or Gemini body for what it is, not the system prompt', () => {
    const chat = analysisOf(
      JSON.stringify({ model: 'gpt-4.1', messages: [{ role: 'system', content: 'Be brief.' }] }),
    );
    expect(selectPinnedLabel(chat.transcript)).toBe('System prompt');
    const listed = [
      { role: 'system', content: 'be nice' },
      { role: 'user', content: 'hi' },
    ];
    const anthropic = analysisOf(
      JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 10, messages: listed }),
    );
    expect(selectPinnedText(anthropic.transcript)).toBe('be nice');
    expect(selectPinnedLabel(anthropic.transcript)).toBe('System message in messages');
    const both = analysisOf(
      JSON.stringify({
        model: 'claude-sonnet-4-5',
        max_tokens: 10,
        system: 'top',
        messages: listed,
      }),
    );
    expect(selectPinnedLabel(both.transcript)).toBe(
      'System prompt, then system message in messages',
    );
    const gemini = analysisOf(
      JSON.stringify({
        contents: [
          { role: 'system', parts: [{ text: 'be nice' }] },
          { role: 'user', parts: [{ text: 'hi' }] },
        ],
      }),
    );
    expect(selectPinnedLabel(gemini.transcript)).toBe('System message in contents');
    expect(selectPinnedLabel(analysisOf(sampleText('invoice.json')).transcript)).toBe(
      'System prompt',
    );
  });

  it('indexes each tool block to its pairs (a call and its result share one pair)', () => {
    const a = analysisOf(sampleText('invoice.json'));
    const idx = selectPairsOfBlock(a);
    const call = idx.of(1, 1);
    const result = idx.of(2, 0);
    expect(call?.[0]?.name).toBe('search_invoices');
    expect(result?.[0]).toBe(call?.[0]);
    expect(idx.of(0, 0)).toBeUndefined();
  });
});

describe('per-analysis tables (issue 7)', () => {
  for (const format of ['anthropic-messages', 'openai-chat'] as const)
    it(`pairs per block equal the old message:block Map on generated ${format} transcripts (property)`, () => {
      fc.assert(
        fc.property(arbTranscript(format), (t) => {
          const a = analyze(t);
          const want = pairsByBlockReference(a.pairs);
          const got = selectPairsOfBlock(a);
          let listed = 0;
          t.messages.forEach((m, mi) =>
            m.blocks.forEach((_, bi) => {
              const w = want.get(`${mi}:${bi}`);
              expect(got.of(mi, bi)).toEqual(w);
              if (w) listed++;
            }),
          );
          // Every key of the old Map names a block of the transcript.
          expect(listed).toBe(want.size);
          expect(got.of(t.messages.length, 0)).toBeUndefined();
          expect(got.of(0, 1e6)).toBeUndefined();
        }),
      );
    });

  for (const format of ['anthropic-messages', 'openai-chat'] as const)
    it(`rows equal the old row objects on generated ${format} transcripts (property)`, () => {
      fc.assert(
        fc.property(arbTranscript(format), (t) => {
          const a = analyze(t);
          // The old selectRows: one object per row.
          const { exchanges, exchangeOf } = a.grouping;
          const want: { key: string; exchange: number; message?: number }[] = [];
          t.messages.forEach((_, i) => {
            const x = exchangeOf[i] ?? -1;
            if (x >= 0 && exchanges[x]?.first === i) want.push({ key: `x${x}`, exchange: x });
            want.push({ key: `m${i}`, exchange: x, message: i });
          });
          const model = selectRows(a);
          expect(model.count).toBe(want.length);
          want.forEach((w, i) => {
            const r = model.row(i);
            expect(r?.key).toBe(w.key);
            expect(r?.exchange).toBe(w.exchange);
            if (w.message !== undefined) {
              expect(r).toMatchObject({ kind: 'message', message: w.message });
              expect(model.rowOfMessage[w.message]).toBe(i);
            } else expect(model.rowOfExchange[w.exchange]).toBe(i);
          });
          const keys = Array.from({ length: model.count }, (_, i) => model.rowKey(i));
          expect(new Set(keys).size).toBe(keys.length);
        }),
      );
    });

  it("keeps each analysis' tables while another is shown (no one-slot eviction)", () => {
    const a = analysisOf(sampleText('invoice.json'));
    const b = analysisOf(CANCELLED);
    const rowsA = selectRows(a);
    const pobA = selectPairsOfBlock(a);
    const arcsA = selectArcPairs(a);
    selectRows(b);
    selectPairsOfBlock(b);
    selectArcPairs(b);
    expect(selectRows(a)).toBe(rowsA);
    expect(selectPairsOfBlock(a)).toBe(pobA);
    expect(selectArcPairs(a)).toBe(arcsA);
  });

  it('no filter dims nothing, with one table per analysis', () => {
    const a = analysisOf(CANCELLED);
    const d = selectDimmed(a, [], []);
    expect(Array.from(d)).toEqual(a.transcript.messages.map(() => 0));
    selectDimmed(a, ['user'], []);
    expect(selectDimmed(a, [], [])).toBe(d);
  });
});
