import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RequestSummary } from './diffProtocol.ts';
import {
  labelAt,
  packRequestList,
  requestAt,
  sparseAt,
  unpackRequests,
  type RequestColumns,
} from './requestColumns.ts';

const compaction = fc.record({
  kind: fc.constantFrom('compaction' as const, 'rollback' as const),
  trigger: fc.string(),
  tokensBefore: fc.option(fc.nat()),
  tokensAfter: fc.option(fc.nat()),
  removed: fc.tuple(fc.nat(), fc.nat()),
  summary: fc.option(fc.nat()),
  line: fc.option(fc.nat()),
});

const summary: fc.Arbitrary<RequestSummary> = fc
  .record(
    {
      request: fc.nat(),
      label: fc.string({ unit: 'grapheme' }),
      messages: fc.nat(),
      tokens: fc.nat(),
      compaction: fc.option(compaction),
      valid: fc.boolean(),
      firstRule: fc.option(
        fc.record({
          rule: fc.constantFrom('orphan_tool_result' as const, 'unanswered_tool_use' as const),
          code: fc.constantFrom('A1', 'A2', 'B7'),
        }),
      ),
      retry: fc.boolean(),
      thread: fc.constantFrom('main', 'side-1', 'side-2'),
      usageTokens: fc.nat(),
      apiError: fc.string(),
      retryOf: fc.nat(),
    },
    {
      requiredKeys: [
        'request',
        'label',
        'messages',
        'tokens',
        'compaction',
        'valid',
        'firstRule',
        'retry',
      ],
    },
  )
  // Plain objects, as the worker makes them (fast-check's records have no prototype).
  .map((r) => structuredClone(r) as RequestSummary);

/** Objects in `v` as a structured clone copies them (a typed array counts as one). */
function objectsIn(v: unknown): number {
  if (v === null || typeof v !== 'object') return 0;
  if (ArrayBuffer.isView(v)) return 1;
  let n = 1;
  for (const x of Object.values(v)) n += objectsIn(x);
  return n;
}

describe('a listing in columns', () => {
  it('reads back each request as the object it was packed from, also after a structured clone', () => {
    fc.assert(
      fc.property(fc.array(summary, { maxLength: 40 }), (list) => {
        const c = structuredClone(packRequestList(list));
        expect(unpackRequests(c)).toStrictEqual(list);
        list.forEach((r, k) => expect(labelAt(c, k)).toBe(r.label));
        expect(requestAt(c, list.length)).toBeUndefined();
        expect(requestAt(c, -1)).toBeUndefined();
      }),
    );
  });

  it('holds a few objects, however many requests (28,000 objects took 30–50 ms of the page to take in)', () => {
    const row = (k: number): RequestSummary => ({
      request: k + 1,
      label: `call ${k + 1} · ${k} messages${k % 7 === 0 ? ' · side-1' : ''}`,
      messages: k,
      tokens: 100 * k,
      compaction:
        k === 500
          ? {
              kind: 'compaction',
              trigger: 'auto',
              tokensBefore: 9,
              tokensAfter: 1,
              removed: [0, 4],
              summary: 5,
              line: 12,
            }
          : null,
      valid: k < 900,
      firstRule: k < 900 ? null : { rule: 'orphan_tool_result', code: 'A1' },
      retry: k === 42,
      ...(k % 7 === 0 ? { thread: 'side-1' } : { thread: 'main' }),
      ...(k % 3 === 0 ? { usageTokens: k } : {}),
      ...(k === 41 ? { apiError: 'API Error: 400' } : {}),
      ...(k === 42 ? { retryOf: 42 } : {}),
    });
    const small = packRequestList(Array.from({ length: 2_800 }, (_, k) => row(k)));
    const large = packRequestList(Array.from({ length: 28_000 }, (_, k) => row(k)));
    expect(objectsIn(large)).toBeLessThan(40);
    expect(objectsIn(large)).toBe(objectsIn(small));
    expect(requestAt(large, 27_999)).toStrictEqual(row(27_999));
    expect(requestAt(large, 42)).toStrictEqual(row(42));
  });

  it('finds a sparse field by binary search', () => {
    const s = { at: Int32Array.from([2, 5, 9]), values: ['a', 'b', 'c'] };
    expect([0, 2, 3, 5, 9, 10].map((k) => sparseAt(s, k))).toEqual([
      undefined,
      'a',
      undefined,
      'b',
      'c',
      undefined,
    ]);
  });
});

export type { RequestColumns };
