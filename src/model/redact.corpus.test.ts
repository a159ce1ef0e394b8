/**
 * Corpus suite (issue 15): every real log of the corpus (`real/`), shared and exported. The
 * structure-only copy and every export (the request a policy leaves at a budget, the repaired
 * transcript, the transcript as loaded) read back as the same format with the same messages,
 * exchanges, pairs, token counts and violations, and the copy leaks nothing of the original.
 * Test input only: nothing from these files is copied into the repository. The corpus suite
 * (vitest.corpus.config.ts) runs this file only when the corpus is there, and fails when CI=true
 * and it is not.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readReal, realFiles } from '../testing/corpus.ts';
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

const files = realFiles();

let o200k: TextCounter;
beforeAll(async () => {
  o200k = await loadBpeCounter('o200k_base');
});

function load(file: string): Transcript {
  const r = parseTranscript(readReal(file), { name: path.basename(file) });
  if (!r.ok) throw new Error(`${file}: ${r.error.message}`);
  return r.value.transcript;
}

/** `copy` written and read back keeps the contract against `t` (ids compared as they are). */
function expectExportRoundTrip(t: Transcript, label: string) {
  const view = reindexForView(t);
  const back = readBack(view, writeTranscript(view));
  expect(back.ok, `${label} reads back`).toBe(true);
  if (!back.ok) return;
  // A session log says its model on its assistant lines only, so a request a trim left empty
  // (langchain-trim keeps no message of a short log at 30 %) is written without it; the page's
  // link carries the model beside the text (m=). Only then is the model taken from the original.
  const copy =
    view.messages.length === 0 && back.value.settings.model === undefined
      ? { ...back.value, settings: { ...back.value.settings, model: view.settings.model } }
      : back.value;
  expect(shapeDifferences(view, copy, { counter: CHARS_PER_4 }), label).toEqual([]);
}

describe('real-log corpus: sharing and exports (issue 15)', () => {
  it('has real logs to check', () => expect(files.length).toBeGreaterThan(0));

  for (const file of files) {
    const label = file;
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
