/**
 * Corpus suite (issue 15): every real log in ../shared/real, shared and exported. The
 * structure-only copy and every export (the request a policy leaves at a budget, the repaired
 * transcript, the transcript as loaded) read back as the same format with the same messages,
 * exchanges, pairs, token counts and violations, and the copy leaks nothing of the original.
 * Test input only: nothing from these files is copied into the repository. When CI=true the
 * corpus must be present (a missing folder fails the suite); elsewhere its absence is reported.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze } from './analyze.ts';
import { keptTranscript } from './exportSummary.ts';
import { POLICIES, prepareEviction, simulatePolicy } from './evict/policies.ts';
import { reindexForView } from './faults.ts';
import { parseTranscript } from './parse/index.ts';
import { redactTranscriptWithMaps } from './redact.ts';
import { leakedStrings, shapeDifferences } from './redact/contract.ts';
import { readBack } from './redact/roundTrip.ts';
import { repairTranscript } from './repair.ts';
import { CHARS_PER_4, countTokens, loadBpeCounter, type TextCounter } from './tokens.ts';
import type { Transcript } from './types.ts';
import { writeTranscript } from './write.ts';

const REAL = path.resolve(import.meta.dirname, '../../../shared/real');
const present = existsSync(REAL);
const files = present
  ? readdirSync(REAL)
      .filter((d) => statSync(path.join(REAL, d)).isDirectory())
      .flatMap((d) => readdirSync(path.join(REAL, d)).map((f) => path.join(REAL, d, f)))
  : [];

let o200k: TextCounter;
beforeAll(async () => {
  o200k = await loadBpeCounter('o200k_base');
});

function load(file: string): Transcript {
  const r = parseTranscript(readFileSync(file, 'utf8'), { name: path.basename(file) });
  if (!r.ok) throw new Error(`${file}: ${r.error.message}`);
  return r.value.transcript;
}

/** `copy` written and read back keeps the contract against `t` (ids compared as they are). */
function expectExportRoundTrip(t: Transcript, label: string) {
  const view = reindexForView(t);
  const back = readBack(view, writeTranscript(view));
  expect(back.ok, `${label} reads back`).toBe(true);
  if (back.ok)
    expect(shapeDifferences(view, back.value, { counter: CHARS_PER_4 }), label).toEqual([]);
}

describe('real-log corpus: sharing and exports (issue 15)', () => {
  it('has the corpus (required when CI=true)', () => {
    if (process.env.CI === 'true') expect(present, `${REAL} is missing`).toBe(true);
    else if (!present) console.warn(`${REAL} is absent: the real-log corpus was not checked`);
    if (present) expect(files.length).toBeGreaterThan(0);
  });

  for (const file of files) {
    const label = path.relative(REAL, file);
    // Real logs are up to 1.5 MB: BPE-counting them several times takes seconds.
    it(`structure-only copy: ${label}`, { timeout: 120_000 }, () => {
      const t = load(file);
      for (const [counter, toolNames] of [
        [CHARS_PER_4, 'keep'],
        [o200k, 'hide'],
      ] as const) {
        const red = redactTranscriptWithMaps(t, { counter, toolNames });
        expect(red.inexact).toBe(0);
        const written = writeTranscript(red.transcript);
        const back = readBack(t, written);
        expect(back.ok, `${label} reads back`).toBe(true);
        if (!back.ok) return;
        const opts = {
          counter,
          ids: red.ids,
          ...(toolNames === 'hide' ? { names: red.names } : {}),
        };
        expect(shapeDifferences(t, back.value, opts), label).toEqual([]);
        const kept = toolNames === 'keep' ? new Set(red.names.keys()) : new Set<string>();
        expect(leakedStrings(t, written, kept), label).toEqual([]);
      }
    });

    it(`exports read back the same: ${label}`, { timeout: 120_000 }, () => {
      const t = load(file);
      expectExportRoundTrip(t, `${label} as loaded`);
      const provider = analyze(t).provider;
      const table = countTokens(t, provider, CHARS_PER_4);
      const ctx = prepareEviction(t, table, provider);
      for (const policy of POLICIES)
        for (const share of [0.3, 0.7]) {
          const r = simulatePolicy(ctx, policy, Math.floor(table.total * share));
          expectExportRoundTrip(keptTranscript(t, r), `${label} ${policy} at ${share}`);
        }
      expectExportRoundTrip(repairTranscript(t).transcript, `${label} repaired`);
    });
  }
});
