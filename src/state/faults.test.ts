import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { faultedViewOf } from './testing/faulted.ts';
import { faultTargets } from '../model/faults.ts';
import { arbTranscript, assistant, call, tool, transcript, user } from '../model/testing/index.ts';
import { analyze } from '../model/analyze.ts';
import { INVOICE_ANTHROPIC, load } from '../model/testing/faults.fixtures.ts';
import { CHARS_PER_4, countTokens } from '../model/tokens.ts';
import {
  faultsBehind,
  messageSummary,
  selectFaultTargets,
  selectPolicyPair,
  selectRepair,
  selectRepairDiff,
} from './faults.ts';
import { createAppStore } from './store.ts';
import { blockWordsOf } from '../model/parse/registry.ts';
import { buildShareFragment, lessonFromFragment, withLesson } from './permalink/storeLink.ts';

const loaded = analyze(load(INVOICE_ANTHROPIC), 'anthropic');

describe('fault selectors', () => {
  it('no faults: the loaded analysis itself', () => {
    const v = faultedViewOf(loaded, []);
    expect(v.analysis).toBe(loaded);
    expect(v.descriptions).toEqual([]);
  });

  it('a fault: a new analysis with the 400, rows numbered by position, memoised by reference', () => {
    const faults = [{ kind: 'drop' as const, messageIndex: 1 }];
    const v = faultedViewOf(loaded, faults);
    expect(v.analysis.validation.valid).toBe(false);
    expect(v.analysis.transcript.messages.map((m) => m.index)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(v.transcript.messages[1]?.index).toBe(2);
    expect(faultedViewOf(loaded, faults)).toBe(v);
    expect(v.descriptions[0]).toMatch(/Message #1 \(assistant\) was dropped/);
  });

  it('a fault that does not fit is reported, the ones before it stay applied', () => {
    const v = faultedViewOf(loaded, [
      { kind: 'truncate', count: 1 },
      { kind: 'cancel', messageIndex: 0 },
    ]);
    expect(v.descriptions).toHaveLength(1);
    expect(v.error).toMatch(/not an assistant turn/);
  });

  it('repair and its diff: touched input rows, changed/new output rows', () => {
    const v = faultedViewOf(loaded, [{ kind: 'timeout', pairKey: 'p1' }]);
    const r = selectRepair(v.transcript, 'anthropic');
    expect(r.validation.valid).toBe(true);
    expect(JSON.parse(r.text).messages[2].content[1]).toMatchObject({
      type: 'tool_result',
      tool_use_id: 'toolu_cus1',
      is_error: true,
    });
    const d = selectRepairDiff(v.transcript, r);
    expect(d.before.map((x) => x.status)).toEqual([
      'same',
      'same',
      'changed',
      'same',
      'same',
      'same',
      'same',
      'same',
    ]);
    expect(d.after.map((x) => x.status)).toEqual([
      'same',
      'same',
      'changed',
      'same',
      'same',
      'same',
      'same',
      'same',
    ]);
    const c = faultedViewOf(loaded, [{ kind: 'truncate', count: 2 }]);
    const rc = selectRepair(c.transcript, 'anthropic');
    expect(
      selectRepairDiff(c.transcript, rc)
        .after.map((x) => x.status)
        .slice(-1),
    ).toEqual(['new']);
    const o = faultedViewOf(loaded, [{ kind: 'drop', messageIndex: 1 }]);
    const ro = selectRepair(o.transcript, 'anthropic');
    expect(selectRepairDiff(o.transcript, ro).before.map((x) => x.status)).toEqual([
      'same',
      'removed',
      'same',
      'same',
      'same',
      'same',
      'same',
    ]);
  });

  it('the repaired side is numbered from #0, as the repaired request counts (newcomer: #1, #2)', () => {
    // An orphan result first (its call trimmed away): the repair drops it, and the request it
    // leaves starts at the assistant turn.
    const trimmed = transcript('anthropic-messages', [
      user('Why did the deploy fail?'),
      assistant(call('toolu_a', 'logs')),
      tool('toolu_a'),
      assistant(call('toolu_b', 'edit')),
      user('thanks, go on'),
    ]);
    const cut = { ...trimmed, messages: trimmed.messages.slice(2) };
    const r = selectRepair(cut, 'anthropic');
    const d = selectRepairDiff(cut, r);
    expect(d.before.map((x) => x.label)).toEqual(['#2', '#3', '#4']);
    expect(d.after.map((x) => x.label)).toEqual(d.after.map((_, i) => `#${i}`));
    expect(d.after[0]?.role).toBe('assistant');
  });

  it("the repair's rows say calls and results in the format's words (newcomer: tool_use in a Chat Completions repair)", () => {
    const chat = transcript('openai-chat', [
      user('Weather in Oslo and Bergen?'),
      assistant(call('call_a', 'weather'), call('call_b', 'weather')),
      tool('call_a'),
      user('And?'),
    ]);
    const r = selectRepair(chat, 'openai-chat');
    const d = selectRepairDiff(chat, r);
    const rows = [...d.before, ...d.after].map((x) => x.summary).join(' | ');
    expect(rows).toContain('tool_call weather call_b');
    expect(rows).toMatch(/\btool weather call_b \(error\)/);
    expect(rows).not.toMatch(/tool_use|tool_result/);
  });

  it('policy pair at a budget, with lost meaning per policy', () => {
    const t = loaded.transcript;
    const table = countTokens(t, 'anthropic', CHARS_PER_4);
    const pair = selectPolicyPair(
      t,
      table,
      'anthropic',
      ['message', 'exchange'],
      Math.round(table.total * 0.8),
    );
    expect(pair.map((p) => p.result.policy)).toEqual(['message', 'exchange']);
    expect(pair[0]?.result.validation.valid).toBe(false);
    expect(pair[1]?.result.validation.valid).toBe(true);
    expect(pair[0]?.lost.limits.length).toBeGreaterThan(0);
  });
});

describe('the shown view and the store’s faults', () => {
  it('behind while the engine applies the store’s faults, not once it answered them', () => {
    const none = faultedViewOf(loaded, []);
    const drop = [{ kind: 'drop' as const, messageIndex: 1 }];
    expect(faultsBehind(none, [])).toBe(false);
    expect(faultsBehind(none, drop)).toBe(true);
    const v = faultedViewOf(loaded, drop);
    expect(v.asked).toEqual(drop);
    // Equal lists (a new array from the store, or a link) are the same faults.
    expect(faultsBehind(v, [{ kind: 'drop', messageIndex: 1 }])).toBe(false);
    expect(faultsBehind(v, [])).toBe(true);
  });
});

describe('store: faults are a user choice, reset with the source', () => {
  it('setFaults closes the repair view; a new source clears faults', () => {
    const store = createAppStore();
    store.getState().setRepairView(true);
    store.getState().setFaults([{ kind: 'truncate', count: 1 }]);
    expect(store.getState().repairView).toBe(false);
    store.getState().setSource({ text: '[]', name: '', origin: 'paste' });
    expect(store.getState().faults).toEqual([]);
  });
});

describe('lesson links', () => {
  it('learn=<step> is added to and read from a fragment', () => {
    expect(withLesson('v=1&src=invoice', 'exchange-unit')).toBe(
      'v=1&src=invoice&learn=exchange-unit',
    );
    expect(withLesson('v=1', null)).toBe('v=1');
    expect(lessonFromFragment('#v=1&src=invoice&learn=exchange-unit')).toBe('exchange-unit');
    expect(lessonFromFragment('#v=1')).toBeNull();
    expect(lessonFromFragment('#learn=<script>')).toBeNull();
  });

  it('a shared link keeps the lesson step', () => {
    const store = createAppStore({
      source: { text: '', name: 'invoice.json', origin: 'sample', sampleId: 'invoice' },
      lesson: 'faults',
    });
    expect(lessonFromFragment(buildShareFragment(store.getState(), 'full'))).toBe('faults');
  });
});

describe('fault targets from the analysis pairs (issue 7)', () => {
  it('equal pairing the shown transcript again, before and after faults (property)', () => {
    fc.assert(
      fc.property(
        fc.oneof(arbTranscript('anthropic-messages'), arbTranscript('openai-chat')),
        fc.nat(),
        (t, pick) => {
          const a = analyze(t);
          const none = faultedViewOf(a, []);
          expect(selectFaultTargets(none)).toEqual(faultTargets(none.transcript));
          const targets = faultTargets(t);
          const spec = targets[pick % Math.max(1, targets.length)];
          if (!spec) return;
          const view = faultedViewOf(a, [spec]);
          expect(selectFaultTargets(view)).toEqual(faultTargets(view.transcript));
          expect(selectFaultTargets(view)).toBe(selectFaultTargets(view));
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe("messageSummary (the repair diff's one line per message)", () => {
  it("names a Gemini functionResponse's tool: it has no id to name (it read 'functionResponse' alone)", () => {
    const m = {
      role: 'user' as const,
      blocks: [
        {
          type: 'tool_result' as const,
          toolUseId: null,
          isError: false,
          content: [],
          name: 'get_order',
        },
      ],
    };
    expect(messageSummary(m as never, blockWordsOf('gemini'))).toBe('functionResponse get_order');
  });
  it('a result with an id and no name: the id, as before', () => {
    const m = {
      role: 'user' as const,
      blocks: [{ type: 'tool_result' as const, toolUseId: 'toolu_1', isError: true, content: [] }],
    };
    expect(messageSummary(m as never)).toBe('tool_result toolu_1 (error)');
  });
});
