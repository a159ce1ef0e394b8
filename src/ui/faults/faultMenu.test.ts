import { describe, expect, it } from 'vitest';
import { faultedViewOf } from '../../state/testing/faulted.ts';
import { analyze } from '../../model/analyze.ts';
import { INVOICE_ANTHROPIC, load } from '../../model/testing/faults.fixtures.ts';
import { selectFaultTargets } from '../../state/faults.ts';
import { faultMenuFor, selectFaultMenu } from './faultMenu.ts';

const loaded = analyze(load(INVOICE_ANTHROPIC), 'anthropic');

describe('fault menu', () => {
  it('names a message by its row label (#source position), not its position after a fault', () => {
    // Drop the first message: every later row keeps its source number (#N) but moves up by one.
    const view = faultedViewOf(loaded, [{ kind: 'drop', messageIndex: 0 }]);
    const at = view.analysis.transcript.messages.findIndex((m) =>
      m.blocks.some((b) => b.type === 'tool_use'),
    );
    expect(at).toBeGreaterThanOrEqual(0);
    const row = view.analysis.transcript.messages[at];
    expect(row?.rawIndex).toBe(at + 1);
    const items = faultMenuFor(view, { kind: 'message', index: at });
    const drop = items.find((i) => i.spec.kind === 'drop');
    expect(drop?.label).toBe(`Drop this message (message #${at + 1})`);
    const cancel = items.find((i) => i.spec.kind === 'cancel');
    expect(cancel?.label).toMatch(new RegExp(`\\(message #${at + 1}\\)$`));
  });

  it('returns the same items for the same view and selection (memoised)', () => {
    const view = faultedViewOf(loaded, []);
    const sel = { kind: 'message' as const, index: 1 };
    const a = selectFaultMenu(view, sel);
    expect(a.length).toBeGreaterThan(0);
    expect(selectFaultMenu(view, sel)).toBe(a);
    expect(selectFaultMenu(view, { kind: 'message', index: 1 })).not.toBe(a);
    expect(selectFaultMenu(view, { kind: 'message', index: 1 })).toEqual(a);
  });

  it('lists, for every message and every pair, the targets that act on it, in target order', () => {
    // The menu reads a per-view index; this is the walk over every target it replaced.
    const view = faultedViewOf(loaded, []);
    const targets = selectFaultTargets(view);
    const callOf = (key: string) => view.analysis.pairs.find((p) => p.key === key)?.call?.message;
    const kinds = (sel: Parameters<typeof faultMenuFor>[1]) =>
      faultMenuFor(view, sel).map((i) => i.spec);
    const onMessage = (m: number, pair: string | null) =>
      targets.filter((s) =>
        s.kind === 'tool_raised' || s.kind === 'timeout'
          ? callOf(s.pairKey) === m && (pair === null || s.pairKey === pair)
          : (s.kind === 'cancel' || s.kind === 'retry') && s.messageIndex === m,
      );
    view.analysis.transcript.messages.forEach((_, m) => {
      expect(kinds({ kind: 'message', index: m })).toEqual([
        ...onMessage(m, null),
        { kind: 'drop', messageIndex: m },
      ]);
    });
    // A selected tool_use: its own call's faults (not a sibling's), and its turn's cancel/retry.
    expect(view.analysis.pairs.length).toBeGreaterThan(1);
    for (const p of view.analysis.pairs)
      expect(kinds({ kind: 'pair', key: p.key })).toEqual(onMessage(p.call?.message ?? -1, p.key));
  });
});
