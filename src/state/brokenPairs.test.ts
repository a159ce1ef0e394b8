import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyze, type Analysis } from '../model/analyze.ts';
import { isArcPair } from '../model/pairTables.ts';
import { arbAnyTranscript, arbTranscript, parsedText } from '../model/testing/index.ts';
import type { ProviderId } from '../model/types.ts';
import { VALIDATORS } from '../model/validate/index.ts';
import { selectBrokenPairs, selectCounts } from './selectors.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const sample = (file: string): Analysis => {
  const text = readFileSync(path.join(repoRoot, 'public/samples', file), 'utf8');
  return analyze(parsedText(text, { name: file }).transcript);
};

describe('selectBrokenPairs on the samples', () => {
  it('Bedrock results split over two user messages: B2 names tooluse_Cs44LmPe, 1 of 2 arcs broken', () => {
    const a = sample('broken-bedrock-split-results.json');
    expect(a.provider).toBe('bedrock');
    // Pairing alone says both calls are answered (both results are in the answer run).
    expect(a.pairs.map((p) => [p.id, p.status])).toEqual([
      ['tooluse_Qd81sVxN', 'answered'],
      ['tooluse_Cs44LmPe', 'answered'],
    ]);
    const b = selectBrokenPairs(a);
    expect([...b.broken]).toEqual([0, 1]);
    expect(b.isBroken('p0')).toBe(false);
    expect(b.isBroken('p1')).toBe(true);
    // The first error naming it is the B2 at the call's message.
    expect(b.violation('p1')).toMatchObject({ code: 'B2', rule: 'partial_answer' });
    expect(b.violation('p0')).toBeUndefined();
    expect(b.arcCount).toBe(1);
    expect(b.providerLabel).toBe('AWS Bedrock Converse');
    expect(selectCounts(a)).toMatchObject({ arcs: 2, broken: 1 });
    // Same object per analysis (memoised).
    expect(selectBrokenPairs(a)).toBe(b);
  });

  it('text before tool_result: A3 names toolu_01TxtWeather2, its one arc broken', () => {
    const a = sample('broken-text-before-result.json');
    expect(a.provider).toBe('anthropic');
    expect(a.pairs.map((p) => p.status)).toEqual(['answered']);
    const b = selectBrokenPairs(a);
    expect([...b.broken]).toEqual([1]);
    expect(b.violation('p0')).toMatchObject({ code: 'A3', ids: ['toolu_01TxtWeather2'] });
    expect(selectCounts(a)).toMatchObject({ arcs: 1, broken: 1 });
  });

  it('the valid invoice sample marks nothing', () => {
    const a = sample('invoice.json');
    expect(a.validation.valid).toBe(true);
    const b = selectBrokenPairs(a);
    expect([...b.broken].every((x) => x === 0)).toBe(true);
    expect(b.arcCount).toBe(0);
  });

  it('unknown keys are not broken and name no violation', () => {
    const b = selectBrokenPairs(sample('broken-text-before-result.json'));
    expect(b.positionOf('p9')).toBe(-1);
    expect(b.positionOf('x')).toBe(-1);
    expect(b.isBroken('p9')).toBe(false);
    expect(b.violation('p9')).toBeUndefined();
  });
});

const PROVIDERS = VALIDATORS.map((v) => v.id) as ProviderId[];

/** The rule, naively: O(violations × pairs). */
function naiveBroken(a: Analysis): number[] {
  return a.pairs.map((p) =>
    p.status !== 'answered' ||
    a.validation.violations.some(
      (v) =>
        v.severity === 'error' &&
        p.id !== null &&
        v.ids.includes(p.id) &&
        (v.index === p.call?.message || v.index === p.result?.message),
    )
      ? 1
      : 0,
  );
}

describe('selectBrokenPairs properties', () => {
  for (const format of ['anthropic-messages', 'openai-chat'] as const) {
    it(`equals the naive rule on any ${format} transcript and provider (property)`, () => {
      fc.assert(
        fc.property(arbAnyTranscript(format), fc.constantFrom(...PROVIDERS), (t, provider) => {
          const a = analyze(t, provider);
          const b = selectBrokenPairs(a);
          expect([...b.broken]).toEqual(naiveBroken(a));
          const arcs = a.pairs.filter((p, i) => isArcPair(p) && b.broken[i] === 1).length;
          expect(b.arcCount).toBe(arcs);
          expect(selectCounts(a).broken).toBe(arcs);
        }),
      );
    });

    it(`a valid validation marks no pair beyond pairing's own statuses (${format}, property)`, () => {
      fc.assert(
        fc.property(arbTranscript(format), fc.constantFrom(...PROVIDERS), (t, provider) => {
          const full = analyze(t, provider);
          // The same analysis with the request accepted: warnings only (they mark nothing).
          const warnings = full.validation.violations.filter((v) => v.severity === 'warning');
          const a: Analysis = {
            ...full,
            validation: { ...full.validation, valid: true, violations: warnings },
          };
          const b = selectBrokenPairs(a);
          a.pairs.forEach((p, i) => {
            expect(b.broken[i]).toBe(p.status === 'answered' ? 0 : 1);
            expect(b.violationOf[i]).toBe(-1);
          });
          if (full.validation.valid)
            expect([...selectBrokenPairs(full).broken]).toEqual([...b.broken]);
        }),
      );
    });
  }
});
