import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { prepareEviction } from '../../model/evict/policies.ts';
import { sweepContext, type PolicySweep } from '../../model/evict/sweep.ts';
import { assistant, call, result, system, transcript, user } from '../../model/testing/index.ts';
import { countTokens } from '../../model/tokens.ts';
import {
  defaultWindowFor,
  fmtPercent,
  oneIn,
  overshootSentence,
  triggerPercent,
  windowReadingText,
} from './contextWindows.ts';
import { sweepBudgetAt, sweepKeyBudget } from './sweepBudget.ts';
import {
  DEFAULT_SWEEP_SIZE,
  layoutSweep,
  layoutSweepFrom,
  pixelBars,
  type SweepSegment,
  sweepCursorX,
  sweepDomainLo,
  sweepSegments,
} from './sweepLayout.ts';
import { tickExtent, TICK_GAP_PX } from './sweepTicks.ts';

// Case 01 rebuilt (see state/eviction.test.ts): a cut between call and result orphans the result.
const T = transcript('anthropic-messages', [
  system('You are a billing assistant.'),
  user('Look up invoice 1042.'),
  assistant(call('toolu_1', 'get_invoice', { id: 1042 })),
  user(result('toolu_1', 'Invoice 1042: $1,200, paid.')),
  assistant('Invoice 1042 is paid.'),
  user('And 1043?'),
  assistant('Let me check.'),
]);
const table = countTokens(T, 'anthropic');
const sweep = sweepContext(prepareEviction(T, table, 'anthropic'), ['message', 'exchange']);

describe('layoutSweep', () => {
  it('message strip shows the 400 budgets of the model sweep; exchange strip has none', () => {
    const l = layoutSweep(sweep.policies, sweep.total, 20);
    const [msg, ex] = sweep.policies.map((p) => sweepSegments(p, sweep.total, l.domain[0]));
    const errors = msg?.filter((s) => s.kind === 'error').map((s) => [s.lo, s.hi]);
    expect(errors).toEqual(sweep.policies[0]?.invalidBudgets);
    expect(ex?.some((s) => s.kind === 'error')).toBe(false);
    // Exchange cannot get as low as message: its strip starts with "cannot fit".
    expect(ex?.[0]?.kind).toBe('nofit');
    expect(ex?.[0]?.lo).toBe(l.domain[0]);
    // The strips draw those segments merged to pixels.
    expect(l.strips.map((s) => s.bars)).toEqual([msg, ex].map((g) => pixelBars(g ?? [])));
  });

  it('segments tile the domain without gaps or overlaps, inside the chart', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: sweep.total }), (budget) => {
        const l = layoutSweep(sweep.policies, sweep.total, budget);
        for (const [k, s] of l.strips.entries()) {
          const segments = sweepSegments(
            sweep.policies[k] as PolicySweep,
            sweep.total,
            l.domain[0],
          );
          expect(segments[0]?.lo).toBe(l.domain[0]);
          expect(segments[segments.length - 1]?.hi).toBe(sweep.total);
          for (let i = 1; i < segments.length; i++) {
            const a = segments[i - 1];
            const b = segments[i];
            expect(b?.lo).toBe((a?.hi ?? 0) + 1);
            expect(b?.kind).not.toBe(a?.kind); // runs of one kind are merged
            expect(b?.x).toBeCloseTo((a?.x ?? 0) + (a?.width ?? 0), 6);
          }
          for (const seg of segments) {
            expect(seg.x).toBeGreaterThanOrEqual(DEFAULT_SWEEP_SIZE.left - 1e-9);
            expect(seg.x + seg.width).toBeLessThanOrEqual(DEFAULT_SWEEP_SIZE.width + 1e-9);
          }
          expect(s.bars).toEqual(pixelBars(segments));
          expect(s.keptPath.startsWith('M')).toBe(true);
        }
        expect(l.cursorX).not.toBeNull();
      }),
      { numRuns: 40 },
    );
  });
});

describe('context window and rate calculator', () => {
  it('picks the window by model, else by provider', () => {
    expect(defaultWindowFor('claude-sonnet-4-5', 'anthropic')?.tokens).toBe(200_000);
    expect(defaultWindowFor('gpt-4.1-mini', 'openai-chat')?.tokens).toBe(1_047_576);
    expect(defaultWindowFor(undefined, 'gemini')?.id).toBe('gemini');
    expect(defaultWindowFor(undefined, 'openai-chat')?.id).toBe('gpt-4o');
  });

  it('reads the budget as a share of the window', () => {
    expect(triggerPercent(160_000, 200_000)).toBe(80);
    expect(triggerPercent(10, 0)).toBeNull();
    expect(fmtPercent(80)).toBe('80 %');
    expect(fmtPercent(4.25)).toBe('4.3 %');
    expect(fmtPercent(0.136)).toBe('0.14 %');
    // A sliver of the budgets (ai-sdk-prune on a large log): not a run of zeros.
    expect(fmtPercent(0.00013)).toBe('< 0.01 %');
    expect(fmtPercent(0.01)).toBe('0.010 %');
  });

  it('one session in N: halving the sessions that compact doubles N, the break share is unchanged', () => {
    expect(oneIn(0.2, 0.25)).toBeCloseTo(20);
    expect(oneIn(0.1, 0.25)).toBeCloseTo(40);
    expect(oneIn(0.2, 0)).toBeNull();
  });
});

describe('layout memoised on the sweep', () => {
  it('budgets at or above the smallest fitting budget share one layout; only the cursor moves', () => {
    const minB = Math.min(...sweep.policies.map((p) => p.minBudget));
    fc.assert(
      fc.property(fc.integer({ min: minB, max: sweep.total }), (budget) => {
        const lo = sweepDomainLo(sweep.policies, sweep.total, budget);
        expect(lo).toBe(sweepDomainLo(sweep.policies, sweep.total, sweep.total));
        const base = layoutSweepFrom(sweep.policies, sweep.total, lo);
        const full = layoutSweep(sweep.policies, sweep.total, budget);
        expect({ ...full, cursorX: null }).toEqual(base);
        const x = sweepCursorX(base, budget);
        expect(x).toBeCloseTo(full.cursorX ?? NaN, 9);
        expect(x).toBeGreaterThanOrEqual(DEFAULT_SWEEP_SIZE.left);
        expect(x).toBeLessThanOrEqual(DEFAULT_SWEEP_SIZE.width);
      }),
      { numRuns: 30 },
    );
  });

  it('the kept path stays within a few points per pixel however many cuts there are', () => {
    // 20,000 one-token steps: the unthinned path would have 40,000 points.
    const n = 20_000;
    const cuts = Int32Array.from({ length: n }, (_, i) => i);
    const big = {
      ...(sweep.policies[0] as (typeof sweep.policies)[number]),
      cuts,
      budgetLo: Float64Array.from({ length: n }, (_, i) => n - 1 - i),
      budgetHi: Float64Array.from({ length: n }, (_, i) => n - 1 - i),
      costs: Float64Array.from({ length: n }, (_, i) => n - 1 - i),
      valid: new Uint8Array(n).fill(1),
      minBudget: 0,
    };
    const l = layoutSweepFrom([big], n - 1, 0);
    const points = (l.strips[0]?.keptPath.match(/[ML]/g) ?? []).length;
    expect(points).toBeGreaterThan(100);
    expect(points).toBeLessThanOrEqual(4 * 2 * DEFAULT_SWEEP_SIZE.width);
    expect(sweepSegments(big, n - 1, 0)).toEqual([
      expect.objectContaining({ lo: 0, hi: n - 1, kind: 'valid' }),
    ]);
  });
});

describe('strip segments in budget order, whatever the order of the cuts', () => {
  it('a sweep with its cuts shuffled lays out the same segments, bars and kept path', () => {
    const base = sweep.policies[0] as PolicySweep;
    const n = base.cuts.length;
    fc.assert(
      fc.property(
        // The last cut stays last: below the smallest budget the policy keeps its last cut.
        fc.shuffledSubarray(
          Array.from({ length: n - 1 }, (_, i) => i),
          { minLength: n - 1, maxLength: n - 1 },
        ),
        (head) => {
          const perm = [...head, n - 1];
          const pick = <A extends Float64Array | Int32Array | Uint8Array>(a: A): A => {
            const out = a.slice() as A;
            perm.forEach((from, to) => (out[to] = a[from] as number));
            return out;
          };
          const shuffled: PolicySweep = {
            ...base,
            cuts: pick(base.cuts),
            costs: pick(base.costs),
            valid: pick(base.valid),
            budgetLo: pick(base.budgetLo),
            budgetHi: pick(base.budgetHi),
          };
          const lo = sweepDomainLo([base], sweep.total, 0);
          expect(sweepSegments(shuffled, sweep.total, lo)).toEqual(
            sweepSegments(base, sweep.total, lo),
          );
          const a = layoutSweepFrom([shuffled], sweep.total, lo).strips[0];
          const b = layoutSweepFrom([base], sweep.total, lo).strips[0];
          expect(a?.bars).toEqual(b?.bars);
          expect(a?.keptPath).toEqual(b?.keptPath);
        },
      ),
      { numRuns: 50 },
    );
  });
});

describe('pixelBars', () => {
  it('merges sub-pixel segments into bars that tile the same budgets; a 400 inside shows', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            width: fc.double({ min: 0.01, max: 3, noNaN: true }),
            kind: fc.constantFrom('valid' as const, 'error' as const, 'nofit' as const),
            tokens: fc.integer({ min: 1, max: 50 }),
          }),
          { minLength: 1, maxLength: 300 },
        ),
        (raw) => {
          let x = 64;
          let lo = 0;
          const segs: SweepSegment[] = raw.map((r) => {
            const s = { lo, hi: lo + r.tokens - 1, x, width: r.width, kind: r.kind };
            x += r.width;
            lo += r.tokens;
            return s;
          });
          const bars = pixelBars(segs);
          expect(bars[0]?.lo).toBe(0);
          expect(bars[bars.length - 1]?.hi).toBe(lo - 1);
          for (let i = 1; i < bars.length; i++)
            expect(bars[i]?.lo).toBe((bars[i - 1]?.hi as number) + 1);
          for (const b of bars) {
            const inside = segs.filter((s) => s.lo >= b.lo && s.hi <= b.hi);
            expect(inside.length).toBeGreaterThan(0);
            if (inside.length > 1) expect(b.width).toBeLessThanOrEqual(1 + 1e-9);
            if (inside.some((s) => s.kind === 'error')) expect(b.kind).toBe('error');
            expect(b.mixed).toBe(new Set(inside.map((s) => s.kind)).size > 1);
          }
        },
      ),
    );
  });
});

describe('sweep axis ticks', () => {
  // Newcomer report: a one-message 3 MB file read "750.003 750.004 750.004" under the chart.
  it('a one-message 3 MB transcript: distinct integer ticks, labelled like the header (1,234)', () => {
    const one = transcript('anthropic-messages', [user('x'.repeat(3_000_012))]);
    const t1 = countTokens(one, 'anthropic');
    const s1 = sweepContext(prepareEviction(one, t1, 'anthropic'), ['message', 'exchange']);
    const l = layoutSweep(s1.policies, s1.total, s1.total);
    expect(l.domain[1] - l.domain[0]).toBeLessThanOrEqual(2);
    const labels = l.ticks.map((t) => t.label);
    expect(labels.length).toBeGreaterThan(0);
    expect(new Set(labels).size).toBe(labels.length);
    for (const t of l.ticks) {
      expect(Number.isInteger(t.value)).toBe(true);
      expect(t.label).toMatch(/^\d{1,3}(,\d{3})+$/);
      expect(t.label).toBe(t.value.toLocaleString('en-US'));
    }
  });

  it('any domain: ticks are distinct integers inside it, in order, formatted with ","', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 5_000_000 }),
        fc.integer({ min: 1, max: 3_000_000 }),
        (lo, span) => {
          const l = layoutSweepFrom([], lo + span, lo);
          const [dlo, dhi] = l.domain;
          expect(l.ticks.length).toBeGreaterThan(0);
          for (let i = 0; i < l.ticks.length; i++) {
            const t = l.ticks[i] as { value: number; x: number; label: string };
            expect(Number.isInteger(t.value)).toBe(true);
            expect(t.value).toBeGreaterThanOrEqual(dlo);
            expect(t.value).toBeLessThanOrEqual(dhi);
            expect(t.label).toBe(t.value.toLocaleString('en-US'));
            if (i > 0) expect(t.value).toBeGreaterThan(l.ticks[i - 1]?.value as number);
          }
          expect(new Set(l.ticks.map((t) => t.label)).size).toBe(l.ticks.length);
        },
      ),
    );
  });
});

describe('sweep axis labels never overlap', () => {
  const apart = (l: ReturnType<typeof layoutSweepFrom>) => {
    for (let i = 0; i < l.ticks.length; i++) {
      const [left, right] = tickExtent(l.ticks[i] as Parameters<typeof tickExtent>[0]);
      expect(left).toBeGreaterThanOrEqual(0);
      expect(right).toBeLessThanOrEqual(DEFAULT_SWEEP_SIZE.width);
      if (i > 0) {
        const prev = tickExtent(l.ticks[i - 1] as Parameters<typeof tickExtent>[0]);
        expect(prev[1] + TICK_GAP_PX).toBeLessThanOrEqual(left);
      }
    }
  };

  // Newcomer report: "5,000,00010,000,000…" under the 100k-message log, "2,000,0004,000,000…"
  // under the 50 MB body.
  it('the reported axes: 0 to 12,600,000 and 0 to 13,900,000 tokens', () => {
    for (const total of [12_600_000, 13_900_000, 27_000_000]) {
      const l = layoutSweepFrom([], total, 0);
      expect(l.ticks.length).toBeGreaterThanOrEqual(2);
      apart(l);
    }
  });

  it('any domain, up to ten-digit budgets: labels at the chart font keep their gap and stay on the chart', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2_000_000_000 }),
        fc.integer({ min: 1, max: 2_000_000_000 }),
        (lo, span) => {
          const l = layoutSweepFrom([], lo + span, lo);
          expect(l.ticks.length).toBeGreaterThan(0);
          apart(l);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('a small axis keeps several labels', () => {
    const l = layoutSweepFrom([], 32_000, 0);
    expect(l.ticks.length).toBeGreaterThanOrEqual(3);
    apart(l);
  });
});

describe('budget and overshoot wording', () => {
  it('percentages of ten and more use the shared thousands separator', () => {
    expect(fmtPercent(13_887.2)).toBe('13,887 %');
    expect(fmtPercent(100)).toBe('100 %');
  });

  it('the window reading: a share up to the window, a multiple past it', () => {
    expect(windowReadingText(160_000, 200_000)).toBe('compact at 80 % of a 200,000-token window');
    expect(windowReadingText(200_000, 200_000)).toBe('compact at 100 % of a 200,000-token window');
    expect(windowReadingText(27_774_000, 200_000)).toBe(
      'budget 139× a 200,000-token window (13,887 %): no trigger of this window reaches it',
    );
    expect(windowReadingText(300_000, 200_000)).toBe(
      'budget 1.5× a 200,000-token window (150 %): no trigger of this window reaches it',
    );
    expect(windowReadingText(10, 0)).toBe('compact at — of a 0-token window');
  });

  it('the overshoot sentence says "discards more" only when the shown ratio is above 1.00', () => {
    for (const m of [1, 1.0001, 1.0049]) {
      const s = overshootSentence(m);
      expect(s).toContain('1.00×');
      expect(s).not.toMatch(/more history than it must/);
      expect(s).toContain('about as much history as it must');
    }
    expect(overshootSentence(1.37)).toContain('1.37× the deficit');
    expect(overshootSentence(1.37)).toContain('discards 37 % more history than it must');
    expect(overshootSentence(1.006)).toContain('discards 1.0 % more history');
    expect(overshootSentence(3.5)).toContain('discards 3.50× the history it must');
  });
});

describe('sweepBudgetAt (a click on the chart)', () => {
  it('inverts the x scale: the budget at a cursor x comes back', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: sweep.total }), (budget) => {
        const l = layoutSweep(sweep.policies, sweep.total, budget);
        const x = sweepCursorX(l, budget);
        if (x === null) return;
        // The cursor sits at the left edge of the budget's [b, b + 1) column.
        expect(sweepBudgetAt(l, x + 1e-6)).toBe(budget);
      }),
    );
  });

  it('clamps to the domain outside the plot', () => {
    const l = layoutSweep(sweep.policies, sweep.total, sweep.total);
    expect(sweepBudgetAt(l, -50)).toBe(l.domain[0]);
    expect(sweepBudgetAt(l, DEFAULT_SWEEP_SIZE.width + 50)).toBe(l.domain[1]);
  });
});

describe('sweepKeyBudget (the focused chart)', () => {
  it('arrows step by a pixel of tokens, Home/End reach the ends, other keys are ignored', () => {
    const l = { domain: [1000, 32_000] as [number, number] };
    const px = Math.round(31_001 / (DEFAULT_SWEEP_SIZE.width - DEFAULT_SWEEP_SIZE.left));
    expect(sweepKeyBudget(l, 5000, 'ArrowRight')).toBe(5000 + px);
    expect(sweepKeyBudget(l, 5000, 'ArrowLeft')).toBe(5000 - px);
    expect(sweepKeyBudget(l, 5000, 'ArrowLeft', true)).toBe(5000 - 10 * px);
    expect(sweepKeyBudget(l, 5000, 'Home')).toBe(1000);
    expect(sweepKeyBudget(l, 5000, 'End')).toBe(32_000);
    expect(sweepKeyBudget(l, 1000, 'PageDown')).toBe(1000);
    expect(sweepKeyBudget(l, 5000, 'a')).toBeNull();
    // A budget left of the axis moves from its left end.
    expect(sweepKeyBudget(l, 10, 'ArrowRight')).toBe(1000 + px);
  });
});
