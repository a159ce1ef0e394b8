/**
 * Test support for the fast cut engine: one cut checked against validating the kept messages
 * (simulate.reference.ts), as the property tests of simulate.ts and the id rules use it.
 */
import { expect } from 'vitest';
import type { ProviderId, Transcript } from '../types.ts';
import type { Validation } from '../validate/index.ts';
import { referenceCut } from './simulate.reference.ts';
import { checkCut, type CutContext } from '../evict/simulate.ts';

/**
 * Expect the cut at `k` to agree with the reference: validity, first error and every violation
 * (renumbered paths included).
 * @returns the reference validation, for further checks
 */
export function expectCutAgrees(
  ctx: CutContext,
  t: Transcript,
  provider: ProviderId,
  k: number,
): Validation {
  const fast = checkCut(ctx, k);
  const ref = referenceCut(t, provider, k);
  expect(fast.valid).toBe(ref.valid);
  expect(fast.firstError).toEqual(ref.violations.find((v) => v.severity === 'error') ?? null);
  expect(fast.validation().violations).toEqual(ref.violations);
  return ref;
}
