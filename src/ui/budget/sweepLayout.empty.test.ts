import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { prepareEviction } from '../../model/evict/policies.ts';
import { sweepContext } from '../../model/evict/sweep.ts';
import { arbAnyTranscript, parsedText } from '../../model/testing/index.ts';
import { countTokens } from '../../model/tokens.ts';
import type { ProviderId, Transcript } from '../../model/types.ts';
import { DEFAULT_SWEEP_SIZE, layoutSweep, type SweepLayout } from './sweepLayout.ts';

/** The sweep chart's layout of a transcript at a budget, as the simulator lays it out. */
function layoutOf(t: Transcript, provider: ProviderId, budget: number): SweepLayout {
  const sweep = sweepContext(prepareEviction(t, countTokens(t, provider), provider), [
    'message',
    'exchange',
  ]);
  return layoutSweep(sweep.policies, sweep.total, budget);
}

/** Every number an SVG attribute gets from the layout, paths included. */
function drawnNumbers(l: SweepLayout): number[] {
  const paths = [l.budgetLine, ...l.strips.map((s) => s.keptPath)];
  return [
    ...paths.flatMap((d) =>
      d
        .split(/[MLHVZ,\s]+/)
        .filter((s) => s !== '')
        .map(Number),
    ),
    ...l.strips.flatMap((s) => [s.y, ...s.bars.flatMap((b) => [b.x, b.width])]),
    ...l.ticks.map((t) => t.x),
    ...l.domain,
    l.height,
    l.cursorX ?? 0,
  ];
}

describe('the sweep chart of a transcript with no messages', () => {
  it('pasted `[]` (0 messages, 0 tokens): paths and bars hold no NaN, the kept line lies on the axis', () => {
    const t = parsedText('[]').transcript;
    expect(t.messages).toEqual([]);
    const l = layoutOf(t, 'anthropic', 0);
    expect(drawnNumbers(l).every(Number.isFinite)).toBe(true);
    for (const s of l.strips) {
      expect(s.keptPath).not.toMatch(/NaN/);
      // Nothing is kept at any budget: the line sits at the bottom of the plot.
      const ys = s.keptPath.split('L').map((p) => Number(p.replace('M', '').split(',')[1]));
      expect(ys.every((y) => y === DEFAULT_SWEEP_SIZE.plotHeight)).toBe(true);
    }
    expect(l.budgetLine).not.toMatch(/NaN/);
  });

  it('any transcript, empty ones included, at any budget: every drawn number is finite', () => {
    fc.assert(
      fc.property(
        arbAnyTranscript('anthropic-messages', 4),
        fc.integer({ min: 0, max: 2_000 }),
        (t, budget) => {
          expect(drawnNumbers(layoutOf(t, 'anthropic', budget)).every(Number.isFinite)).toBe(true);
        },
      ),
      { numRuns: 100 },
    );
  });
});
