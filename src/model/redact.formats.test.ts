/**
 * The sharing contract (issue 15) for every format the project writes, over generated
 * transcripts: a transcript written in the format and pasted back is shared structure-only and
 * exported (as loaded, cut by each policy at a budget, repaired); each copy reads back with no
 * hint as the same format with the same messages, exchanges, pairs, token counts and violations,
 * and the structure-only copy leaks none of the generated texts or ids.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyze } from './analyze.ts';
import { keptTranscript } from './exportSummary.ts';
import { POLICIES, prepareEviction, simulatePolicy } from './evict/policies.ts';
import { reindexForView } from './faults.ts';
import { parseTranscript } from './parse/index.ts';
import { PARSERS } from './parse/registry.ts';
import { redactTranscriptWithMaps } from './redact.ts';
import { leakedStrings, shapeDifferences } from './redact/contract.ts';
import { readBack } from './redact/roundTrip.ts';
import { repairTranscript } from './repair.ts';
import { arbTranscript, assistant, call, transcript, user } from './testing/index.ts';
import { CHARS_PER_4, countTokens } from './tokens.ts';
import type { FormatId, Transcript } from './types.ts';
import { writeTranscript } from './write.ts';

/**
 * A generated transcript as a file in `format` would hold it: written, then read back;
 * `undefined` when the format holds nothing of it (a codex rollout of image-only messages).
 */
function pasted(t: Transcript, format: FormatId): Transcript | null | undefined {
  const fresh: Transcript = {
    ...t,
    format,
    raw: undefined,
    messages: t.messages.map((m) => ({ ...m, raw: undefined })),
  };
  const text = writeTranscript(fresh);
  if (text.trim() === '') return undefined;
  const r = parseTranscript(text, { format });
  return r.ok ? r.value.transcript : null;
}

/**
 * What a format cannot hold, named here so that nothing else is excused:
 * - a ChatGPT export pairs a result with its call by position and holds no result ids, so a
 *   result whose call was cut, or whose id named no call, reads back as an orphan without id,
 *   and the results a cut leaves are paired again by position when read back;
 * - a Gemini `functionResponse.response` is an object, so a result a repair created as plain
 *   text is written as `{error: text}` and counted with that wrapper;
 * - a Gemini CLI session stores each result inside its call, so the results of a turn read back
 *   in the order of the calls, whatever order a repair added them in, or a cut left them in
 *   (results out of call order in a later message, which a cut brings next to the call: seed
 *   1642697767): the same pairs, a result at another block, the same violations in another order.
 * The last two, for a repair, are it creating a turn in a shape the format does not have
 * (reported for `repair.ts`: it should build the turn as the format holds it). ChatGPT, SWE-agent and
 * Inspect histories answer each call with a tool message, and the repair now writes them so.
 */
function known(format: FormatId, label: string, diffs: string[]): string[] {
  const repairShape = label === 'repaired' && (format === 'gemini-cli' || format === 'gemini');
  return diffs.filter(
    (d) =>
      !(format === 'gemini-cli' && inCallOrder(d)) &&
      !(
        format === 'chatgpt-export' &&
        (/^(pairs|violations)\[\d+\]: (orphan|tool_result_wrong_id|missing_tool_id)/.test(d) ||
          // The same broken pairs judged by the other providers.
          /^providers\[\d+\]: [\w-]+: (orphan|tool_result_wrong_id|missing_tool_id)/.test(d) ||
          (label !== 'as loaded' && /^(pairs|violations|providers)\b/.test(d)))
      ) &&
      !repairShape,
  );
}

/**
 * A difference that is only results read back in the order of their calls: a pair whose result
 * is at another block of the same message, or the same violations (and the result ids each
 * names) listed in another order.
 */
function inCallOrder(d: string): boolean {
  const [a, b] = d.replace(/^\w+\[\d+\]: /, '').split(' in the original, ');
  if (a === undefined || b === undefined) return false;
  const copy = b.replace(/ in the copy$/, '');
  if (d.startsWith('pairs['))
    return a.replace(/ (\d+)\.\d+$/, ' $1') === copy.replace(/ (\d+)\.\d+$/, ' $1');
  if (d.startsWith('providers[')) {
    // Each finding `rule@message id,id`: its ids are the results' in their order, so in call order
    // in the copy (Mistral's M3 lists the tool messages past a count).
    const finding = (f: string) =>
      f.replace(/ ([^ ]+)$/, (_, ids: string) => ` ${ids.split(',').sort().join(',')}`);
    const sorted = (s: string) => s.split('; ').map(finding).sort().join('; ');
    return sorted(a) === sorted(copy);
  }
  return false;
}

function expectSame(copy: Transcript, label: string) {
  const view = reindexForView(copy);
  const back = readBack(view, writeTranscript(view));
  expect(back.ok, `${label} reads back`).toBe(true);
  if (back.ok)
    expect(
      known(copy.format, label, shapeDifferences(view, back.value, { counter: CHARS_PER_4 })),
      label,
    ).toEqual([]);
}

const WRITTEN = PARSERS.filter((p) => p.write !== undefined).map((p) => p.id);

describe('every written format keeps the sharing contract (generated transcripts)', () => {
  it('covers every format the project reads (each has a writer)', () => {
    expect(WRITTEN).toEqual(PARSERS.map((p) => p.id));
  });

  it('vercel-ai: the error result a repair adds is a tool message, so the repaired copy reads back the same', () => {
    // The shrunk counterexample of a CI run (seed 1863186584): a call answered by a user's text.
    const generated = transcript('anthropic-messages', [
      assistant(call('toolu_0_0')),
      user('Question 0 (0).'),
    ]);
    const t = pasted(generated, 'vercel-ai');
    if (!t) throw new Error('vercel-ai reads what it writes');
    const repaired = repairTranscript(t).transcript;
    expect(repaired.messages.map((m) => m.role)).toEqual(['assistant', 'tool', 'user']);
    expectSame(repaired, 'repaired');
  });

  for (const format of WRITTEN) {
    it(`${format}: structure-only copy and every export read back the same`, () => {
      fc.assert(
        fc.property(
          fc
            .constantFrom('anthropic-messages' as const, 'openai-chat' as const)
            .chain(arbTranscript),
          fc.constantFrom('keep' as const, 'hide' as const),
          fc.double({ min: 0.1, max: 0.9, noNaN: true }),
          (generated, toolNames, share) => {
            const t = pasted(generated, format);
            fc.pre(t !== undefined);
            expect(t, `${format} reads what it writes`).not.toBeNull();
            if (!t) return;
            const red = redactTranscriptWithMaps(t, { toolNames });
            expect(red.inexact).toBe(0);
            const written = writeTranscript(red.transcript);
            const back = readBack(t, written);
            expect(back.ok, 'the copy reads back').toBe(true);
            if (!back.ok) return;
            const names = toolNames === 'hide' ? { names: red.names } : {};
            expect(
              shapeDifferences(t, back.value, { counter: CHARS_PER_4, ids: red.ids, ...names }),
            ).toEqual([]);
            const kept = toolNames === 'keep' ? new Set(red.names.keys()) : new Set<string>();
            expect(leakedStrings(t, written, kept)).toEqual([]);

            expectSame(t, 'as loaded');
            const provider = analyze(t).provider;
            const table = countTokens(t, provider, CHARS_PER_4);
            const ctx = prepareEviction(t, table, provider);
            for (const policy of POLICIES) {
              const r = simulatePolicy(ctx, policy, Math.floor(table.total * share));
              expectSame(keptTranscript(t, r), `${policy} at ${share}`);
            }
            expectSame(repairTranscript(t).transcript, 'repaired');
          },
        ),
        { numRuns: 25 },
      );
    });
  }
});
