/**
 * The worker packs a file's cuts as `scanText` makes them (`PackedCuts`, `ScanOptions.cutSink`),
 * with no object per cut: the packed rows are those of packing the rows' own cut objects, for
 * session logs (every policy, compactions, broken pairs), Codex rollouts and single bodies.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arbEvent, codexLogOf, logOf } from '../../model/testing/sessionEvents.ts';
import { arbScanBudgets } from '../../model/testing/scanRows.reference.ts';
import { arbAnyTranscript } from '../../model/testing/index.ts';
import { POLICIES } from '../../model/evict/registry.ts';
import { scanText, type ScanBudget } from '../../model/scan/rows.ts';
import { cutKinds, PackedCuts, packRows } from './packed.ts';

const SRC = { file: 'f.jsonl', path: 'f.jsonl', size: 1, version: '1' };

/** The file's rows packed both ways. */
function bothWays(text: string, name: string, budgets: ScanBudget[]) {
  const opts = { policies: POLICIES, budgets };
  const kinds = cutKinds(POLICIES, budgets);
  const cuts = new PackedCuts(kinds);
  const rows = scanText(SRC, text, name, { ...opts, cutSink: cuts });
  expect(rows.every((r) => r.cuts.length === 0)).toBe(true);
  return {
    sink: packRows(rows, kinds, cuts),
    objects: packRows(scanText(SRC, text, name, opts), kinds),
  };
}

describe('cuts packed as they are made', () => {
  it('equal the packed cut objects: Claude Code logs', () => {
    fc.assert(
      fc.property(
        fc.array(arbEvent, { minLength: 1, maxLength: 40 }),
        arbScanBudgets(4),
        (ev, budgets) => {
          const { sink, objects } = bothWays(logOf(ev), 'f.jsonl', budgets);
          expect(sink).toEqual(objects);
        },
      ),
      { numRuns: 120 },
    );
  }, 300_000);

  it('equal the packed cut objects: Codex rollouts and single request bodies', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.array(arbEvent, { minLength: 1, maxLength: 30 }).map((ev) => ({
            text: codexLogOf(ev),
            name: 'r.jsonl',
          })),
          arbAnyTranscript('anthropic-messages').map((t) => ({
            text: JSON.stringify({
              messages: t.messages.map((m) => ({ role: m.role, content: m.blocks })),
            }),
            name: 'b.json',
          })),
        ),
        arbScanBudgets(4),
        ({ text, name }, budgets) => {
          const { sink, objects } = bothWays(text, name, budgets);
          expect(sink).toEqual(objects);
        },
      ),
      { numRuns: 80 },
    );
  }, 300_000);

  it('an unreadable file: no cuts, and the error row packed alike', () => {
    const { sink, objects } = bothWays('{"no', 'x.json', [{ fraction: 0.5 }]);
    expect(sink).toEqual(objects);
    expect(sink.budget.length).toBe(0);
  });

  it('refuses a cut of another kind than its position, and cuts that are not one per kind', () => {
    const kinds = cutKinds(['message', 'exchange'], [{ fraction: 0.5 }]);
    const cuts = new PackedCuts(kinds);
    cuts.cut('message', 0.5, 10, null, 1);
    expect(() => cuts.cut('message', 0.5, 10, null, 1)).toThrow(/not exchange/);
    const rows = scanText(SRC, logOf([{ kind: 'user', text: 'hi' }]), 'f.jsonl', {
      policies: ['message', 'exchange'],
      budgets: [{ fraction: 0.5 }],
      cutSink: new PackedCuts(kinds),
    });
    expect(() => packRows(rows, kinds, new PackedCuts(kinds))).toThrow(/0 cuts packed/);
  });
});
