import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ToolPair } from '../../model/pairing.ts';
import {
  assignLanes,
  laneTable,
  layoutArcs,
  pairSpan,
  type ArcOptions,
  type Span,
} from './arcLayout.ts';

const OPTS: ArcOptions = { gutterWidth: 72, laneWidth: 9, laneStep: 3, anchorY: 16, nowhere: 26 };
/** Rows of 40 px, one per message. */
const box = (m: number) => ({ top: m * 40, height: 40 });

function pair(
  key: string,
  call: number | null,
  result: number | null,
  status: ToolPair['status'] = 'answered',
  partial = false,
): ToolPair {
  return {
    key,
    id: key,
    name: 'f',
    call: call === null ? null : { message: call, block: 0 },
    result: result === null ? null : { message: result, block: 0 },
    status,
    partial,
    server: false,
  };
}

describe('assignLanes', () => {
  it('gives parallel calls answered in the same message different lanes', () => {
    const lanes = assignLanes([
      { key: 'a', start: 1, end: 2 },
      { key: 'b', start: 1, end: 2 },
    ]);
    expect(new Set([lanes.get('a'), lanes.get('b')]).size).toBe(2);
  });

  it('puts a nested pair inside the pair around it', () => {
    const lanes = assignLanes([
      { key: 'outer', start: 1, end: 6 },
      { key: 'inner', start: 2, end: 3 },
    ]);
    expect(lanes.get('inner')).toBe(0);
    expect(lanes.get('outer')).toBe(1);
  });

  it('reuses lane 0 for pairs that do not overlap', () => {
    const lanes = assignLanes([
      { key: 'a', start: 1, end: 2 },
      { key: 'b', start: 3, end: 4 },
    ]);
    expect(lanes.get('a')).toBe(0);
    expect(lanes.get('b')).toBe(0);
  });

  it('never puts two overlapping spans in one lane (property)', () => {
    const spanArb = fc
      .tuple(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 10 }))
      .map(([s, len]) => ({ start: s, end: s + len }));
    fc.assert(
      fc.property(fc.array(spanArb, { maxLength: 40 }), (raw) => {
        const spans: Span[] = raw.map((s, i) => ({ key: `k${i}`, ...s }));
        const lanes = assignLanes(spans);
        for (let i = 0; i < spans.length; i++)
          for (let j = i + 1; j < spans.length; j++) {
            const a = spans[i] as Span;
            const b = spans[j] as Span;
            const overlap = a.start <= b.end && b.start <= a.end;
            if (overlap) expect(lanes.get(a.key)).not.toBe(lanes.get(b.key));
          }
      }),
    );
  });
});

describe('layoutArcs', () => {
  const view = { top: 0, bottom: 400 };

  it('draws an answered pair as a bracket from the call row to the result row', () => {
    const p = pair('p0', 1, 2);
    const [arc] = layoutArcs([p], assignLanes([pairSpan(p) as Span]), box, view, OPTS);
    expect(arc).toBeDefined();
    expect(arc?.from).toEqual({ kind: 'point', y: 56, message: 1 });
    expect(arc?.to).toEqual({ kind: 'point', y: 96, message: 2 });
    expect(arc?.x).toBe(64);
    expect(arc?.broken).toBe(false);
    expect(arc?.d).toMatchInlineSnapshot(
      `"M72,56L70.7,56C69.3,56,66.7,56,65.3,56C64,56,64,56,64,62.7C64,69.3,64,82.7,64,89.3C64,96,64,96,65.3,96C66.7,96,69.3,96,70.7,96L72,96"`,
    );
  });

  it('draws an orphan result as an arc from nowhere, red', () => {
    const p = pair('p0', null, 3, 'orphan');
    const [arc] = layoutArcs([p], assignLanes([pairSpan(p) as Span]), box, view, OPTS);
    expect(arc?.from.kind).toBe('nowhere');
    expect(arc?.from.y).toBe(136 - 26);
    expect(arc?.to).toEqual({ kind: 'point', y: 136, message: 3 });
    expect(arc?.broken).toBe(true);
    expect(arc?.d.startsWith('M64,110')).toBe(true);
  });

  it('draws an unanswered call as an arc to nowhere, and keeps the partial flag', () => {
    const p = pair('p0', 2, null, 'unanswered', true);
    const [arc] = layoutArcs([p], assignLanes([pairSpan(p) as Span]), box, view, OPTS);
    expect(arc?.from).toEqual({ kind: 'point', y: 96, message: 2 });
    expect(arc?.to).toEqual({ kind: 'nowhere', y: 122, message: null });
    expect(arc?.partial).toBe(true);
    expect(arc?.d.endsWith('64,122')).toBe(true);
  });

  it('cuts an end that is off screen into a stub at the viewport edge', () => {
    const p = pair('p0', 2, 50);
    const [arc] = layoutArcs([p], new Map([['p0', 0]]), box, { top: 0, bottom: 400 }, OPTS);
    expect(arc?.from.kind).toBe('point');
    expect(arc?.to).toEqual({ kind: 'stub', y: 400, message: 50, edge: 'bottom' });
    const [up] = layoutArcs([p], new Map([['p0', 0]]), box, { top: 1500, bottom: 1900 }, OPTS);
    expect(up?.from).toEqual({ kind: 'stub', y: 1500, message: 2, edge: 'top' });
    expect(up?.to.kind).toBe('stub');
  });

  it('culls arcs with no part on screen', () => {
    const near = pair('near', 1, 2);
    const far = pair('far', 100, 101);
    const justBelow = pair('below', 11, 12);
    const across = pair('across', 2, 30);
    const arcs = layoutArcs(
      [near, far, justBelow, across],
      new Map(),
      box,
      { top: 0, bottom: 400 },
      OPTS,
    );
    expect(arcs.map((a) => a.id)).toEqual(['near', 'across']);
  });

  it('offsets the endpoints of parallel pairs by lane so they do not start at one point', () => {
    const a = pair('a', 1, 2);
    const b = pair('b', 1, 2);
    const arcs = layoutArcs(
      [a, b],
      new Map([
        ['a', 0],
        ['b', 1],
      ]),
      box,
      view,
      OPTS,
    );
    expect(arcs[0]?.from.y).toBe(56);
    expect(arcs[1]?.from.y).toBe(59);
    expect(arcs[1]?.x).toBeLessThan(arcs[0]?.x ?? 0);
  });

  it('shrinks lanes so that many of them still fit in the gutter', () => {
    const pairs = Array.from({ length: 20 }, (_, i) => pair(`p${i}`, 0, 1));
    const lanes = assignLanes(pairs.map((p) => pairSpan(p) as Span));
    const arcs = layoutArcs(pairs, lanes, box, view, OPTS);
    for (const a of arcs) {
      expect(a.x).toBeGreaterThanOrEqual(0);
      expect(a.x).toBeLessThan(OPTS.gutterWidth);
    }
  });
});

describe('laneTable', () => {
  it('gives every pair the lane assignLanes gives its span (property, open ends and ties included)', () => {
    const arbPair = fc.tuple(
      fc.option(fc.integer({ min: 0, max: 60 }), { nil: null }),
      fc.option(fc.integer({ min: 0, max: 60 }), { nil: null }),
    );
    fc.assert(
      fc.property(fc.array(arbPair, { maxLength: 80 }), (spec) => {
        const pairs = spec.map(([c, r], k) => pair(`p${k}`, c, r));
        const want = assignLanes(pairs.map(pairSpan).filter((s): s is Span => s !== null));
        const got = laneTable(pairs);
        pairs.forEach((p, i) => expect(got.lane[i]).toBe(want.get(p.key) ?? -1));
        expect(got.maxLane).toBe(Math.max(0, ...want.values()));
      }),
    );
  });
});
