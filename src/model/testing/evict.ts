/**
 * Test support for the fast cut engine: one cut checked against validating the kept messages
 * (simulate.reference.ts), as the property tests of simulate.ts and the id rules use it.
 * Also the project's fixtures as transcripts, and every budget of a policy's sweep, for the
 * library-backed policies' tests (`ai-sdk-prune`, `langchain-trim`).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CASE_FIXTURES } from './cases.ts';
import { parseTranscript } from '../parse/index.ts';
import { countTokens, type TokenTable } from '../tokens.ts';
import type { ProviderId, Transcript } from '../types.ts';
import { defaultProviderOf, type Validation } from '../validate/index.ts';
import { prepareEviction, type EvictionContext } from '../evict/policies.ts';
import { sweepPolicy } from '../evict/sweep.ts';
import type { PolicyId, PolicyOptions } from '../evict/types.ts';
import { expect } from 'vitest';
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

const SAMPLES = path.resolve(import.meta.dirname, '../../../public/samples');

/** One fixture, parsed, with its provider, token table and eviction context. */
export interface LoadedFixture {
  name: string;
  t: Transcript;
  provider: ProviderId;
  table: TokenTable;
  ctx: EvictionContext;
}

/** Load a transcript from text (its detected format's default provider). */
export function loadFixture(name: string, text: string): LoadedFixture | null {
  const r = parseTranscript(text, { name });
  if (!r.ok || r.value.transcript.messages.length === 0) return null;
  const t = r.value.transcript;
  const provider = defaultProviderOf(t);
  const table = countTokens(t, provider);
  return { name, t, provider, table, ctx: prepareEviction(t, table, provider) };
}

/** Every sample in public/samples and every case fixture (src/model/fixtures), parsed. */
export function projectFixtures(): LoadedFixture[] {
  const index = JSON.parse(readFileSync(path.join(SAMPLES, 'index.json'), 'utf8')) as {
    file: string;
  }[];
  const out: LoadedFixture[] = [];
  for (const s of index) {
    const f = loadFixture(s.file, readFileSync(path.join(SAMPLES, s.file), 'utf8'));
    if (f) out.push(f);
  }
  for (const c of CASE_FIXTURES) {
    const f = loadFixture(c.name, JSON.stringify(c.transcript));
    if (f) out.push(f);
  }
  return out;
}

/**
 * Every budget at which a policy's result may change: each selectable cut's lowest and highest
 * budget, one below the lowest reachable, and the total (tokens).
 */
export function sweepBudgets(
  ctx: EvictionContext,
  policy: PolicyId,
  options: PolicyOptions = {},
): number[] {
  const s = sweepPolicy(ctx, policy, options);
  const out = new Set<number>([ctx.table.total, Math.max(0, s.minBudget - 1), 0]);
  for (let j = 0; j < s.cuts.length; j++) {
    const lo = s.budgetLo[j] as number;
    const hi = s.budgetHi[j] as number;
    if (hi < lo) continue;
    out.add(lo);
    out.add(hi);
  }
  return [...out].sort((a, b) => a - b);
}
