import type { VirtualItem } from '@tanstack/react-virtual';
import { describe, expect, it } from 'vitest';
import { analyze } from '../model/analyze.ts';
import { assistant, call, result, transcript, user } from '../model/testing/index.ts';
import {
  selectArcPairs,
  selectArcTables,
  selectRows,
  type ViolationTarget,
} from '../state/selectors.ts';
import {
  bandLabel,
  matchesByMessage,
  pinnedRowsOf,
  tabRowOf,
  topExchangeKey,
  visibleArcs,
  worstViolationAt,
} from './timelineView.ts';

/** Three exchanges: a call answered next, a call answered next, and one never answered. */
const a = analyze(
  transcript('anthropic-messages', [
    user('Check the disk.'),
    assistant(call('t1', 'df')),
    user(result('t1')),
    user('And the queue?'),
    assistant(call('t2', 'queue')),
    user(result('t2')),
    user('Restart it.'),
    assistant(call('t3', 'restart')),
  ]),
);
const rows = selectRows(a);
const exchanges = a.grouping.exchanges;
const ROW = 34;
/** Every row, 34 px each, as the virtualiser would hand them (`from`..`to` exclusive). */
const itemsOf = (from = 0, to = rows.count): VirtualItem[] =>
  Array.from({ length: to - from }, (_, k) => {
    const i = from + k;
    return {
      key: rows.rowKey(i),
      index: i,
      start: i * ROW,
      end: (i + 1) * ROW,
      size: ROW,
      lane: 0,
    };
  });
const target = (message: number, rank: ViolationTarget['rank']) =>
  ({ message, rank }) as ViolationTarget;

describe('timeline view arithmetic', () => {
  it('marks each message with its worst violation rank', () => {
    const at = worstViolationAt([target(2, 'warning'), target(2, 'first'), target(5, 'next')]);
    expect([...at]).toEqual([
      [2, 'first'],
      [5, 'next'],
    ]);
  });

  it('groups find matches by message', () => {
    const by = matchesByMessage({ blocks: new Set(['1:0', '1:2', '4:0']) } as never);
    expect([...(by.get(1) ?? [])]).toEqual(['1:0', '1:2']);
    expect([...(by.get(4) ?? [])]).toEqual(['4:0']);
  });

  it('keeps the selected message, or both ends of the selected pair, mounted', () => {
    expect(pinnedRowsOf({ kind: 'message', index: 4 }, undefined, rows.rowOfMessage)).toEqual([
      rows.rowOfMessage[4],
    ]);
    const p = a.pairs.find((x) => x.id === 't2');
    expect(pinnedRowsOf({ kind: 'pair', key: p?.key ?? '' }, p, rows.rowOfMessage)).toEqual([
      rows.rowOfMessage[4],
      rows.rowOfMessage[5],
    ]);
    expect(pinnedRowsOf(null, undefined, rows.rowOfMessage)).toEqual([]);
  });

  it('puts the current message in the tab order when mounted, else the first message in view', () => {
    const all = itemsOf();
    expect(tabRowOf(5, all, rows, 0)).toBe(rows.rowOfMessage[5]);
    // Row 0 is the first band: the first message row in view is row 1.
    expect(tabRowOf(-1, all, rows, 0)).toBe(1);
    // Message 7 is not mounted: the first message row below the view's top.
    const later = itemsOf(4, 8);
    expect(tabRowOf(7, later, rows, 4 * ROW)).toBe(rows.rowOfMessage[3]);
  });

  it('names the exchange at the top of the view and labels bands from 1', () => {
    expect(topExchangeKey(itemsOf(), 0, rows, exchanges)).toBe(exchanges[0]?.key);
    const second = rows.rowOfExchange[1] ?? 0;
    expect(topExchangeKey(itemsOf(), second * ROW, rows, exchanges)).toBe(exchanges[1]?.key);
    expect(exchanges.map((x) => bandLabel(x, false))).toEqual([
      'Exchange 1',
      'Exchange 2',
      'Exchange 3',
    ]);
    // The leading group may hold user rows (tool results): its label says "prompt", not
    // "user message" (issue 41).
    expect(bandLabel({ ...exchanges[0]!, leading: true }, true)).toBe(
      'Before the first user prompt: the transcript starts mid-exchange',
    );
  });

  it('lays out only the arcs near the rows in view, unless the pairs are not the analysis own', () => {
    const basePairs = selectArcPairs(a);
    const { lanes, index } = selectArcTables(a);
    const src = { arcPairs: basePairs, basePairs, lanes, index };
    const rowBox = (m: number) => ({ top: (rows.rowOfMessage[m] ?? 0) * ROW, height: ROW });
    // The first exchange's rows only (band, three messages).
    const view = { top: 0, bottom: 4 * ROW - 1 };
    const near = visibleArcs(itemsOf(0, 4), view, rows, exchanges, src, rowBox);
    expect(near.pairs.map((p) => p.id)).toEqual(['t1']);
    expect(near.arcs.map((x) => x.id)).toEqual(near.pairs.map((p) => p.key));
    // An eviction's pairs (a different list) are all handed to the layout.
    const evicted = { ...src, arcPairs: basePairs.slice(0, 2) };
    const all = visibleArcs(itemsOf(0, 4), view, rows, exchanges, evicted, rowBox);
    expect(all.pairs.map((p) => p.id)).toEqual(['t1', 't2']);
  });
});
