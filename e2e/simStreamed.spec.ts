/**
 * The eviction simulator on a Claude Code log larger than the page reads whole (STREAM_MIN_BYTES):
 * the worker streams it and the page reads its messages' texts from the file when first read
 * (issue 38). A newcomer chose call 3 of such a log with `]` and the simulator said "message 400 /
 * exchange 400 · [A10] empty message" with nothing evicted, every cut dot red, where the verdict
 * column said valid and the CLI's `simulate` agreed (the page had prepared the simulator from
 * messages whose texts were not read yet, and kept it). The simulator must say what the verdict
 * column says, and at a budget what the CLI says (its code path, run here in Node).
 */
import { expect, test, type Page } from '@playwright/test';
import { STREAM_MIN_BYTES } from '../src/engine/limits.ts';
import { bigSessionLog } from '../src/engine/testing/bigSessionLog.ts';
import { cutMarkers } from '../src/model/evict/cuts.ts';
import { prepareEviction, simulatePolicy } from '../src/model/evict/policies.ts';
import { parseTranscript, readSource } from '../src/model/parse/index.ts';
import { withSessionCall } from '../src/model/sessionCall.ts';
import { countTokensCached, TokenCache } from '../src/model/tokenCache.ts';
import { loadBpeCounter } from '../src/model/tokens.ts';
import { policyVerdict } from '../src/ui/budget/policyVerdict.ts';
import { fileShown, openDefault, requestMarks, shownRequestMark } from './helpers.ts';

/** The CLI's eviction context of call `k` (0-based) of the log, counted as it counts. */
async function cliContext(text: string, k: number) {
  const parsed = parseTranscript(text, { name: 'build.jsonl' });
  const doc = readSource(text, 'build.jsonl');
  if (!parsed.ok || !doc.ok) throw new Error('the log does not parse');
  const t = withSessionCall(doc.value, parsed.value, k).transcript;
  const table = countTokensCached(t, 'anthropic', await loadBpeCounter(), new TokenCache(), {
    preferUsage: true,
  });
  return prepareEviction(t, table, 'anthropic');
}

async function openLog(page: Page, text: string) {
  await openDefault(page);
  await page.getByTestId('file-input').setInputFiles({
    name: 'build.jsonl',
    mimeType: 'application/x-ndjson',
    buffer: Buffer.from(text),
  });
  await fileShown(page, 'build.jsonl');
}

for (const [what, pad] of [
  ['a 2.5 MB log', false],
  ['the log with a 3 MB line the parse skips', true],
] as const)
  test(`${what}: call 3 chosen with ], the simulator agrees with the verdict column and the CLI`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const text = bigSessionLog(pad);
    expect(text.length).toBeGreaterThan(STREAM_MIN_BYTES);
    await openLog(page, text);
    // Call 3 by the keyboard, as the newcomer did (`]` moves to the next call; from the whole log,
    // the first press chooses call 1).
    await expect(requestMarks(page)).toHaveCount(3);
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press(']');
      await expect(shownRequestMark(page)).toHaveAttribute('data-index', String(i));
    }
    await expect(page.getByTestId('count-messages')).toHaveText('5');
    const verdict = page.getByTestId('verdict');
    await expect(verdict).toHaveAttribute('data-valid', 'true');
    await expect(verdict).toContainText('Valid: Anthropic Messages would accept this request');
    await expect(page.getByTestId('token-basis')).not.toContainText('chars/4');

    const sim = page.getByTestId('simulator');
    await expect(sim).not.toHaveAttribute('data-preparing', 'true', { timeout: 30_000 });
    if ((await sim.getAttribute('open')) === null) await sim.locator('summary').click();
    await expect(page.getByTestId('budget-input')).toBeVisible();
    // Nothing evicted: the request itself, valid as the verdict column says.
    await expect(page.getByTestId('simulator-summary-a')).toHaveText('message valid');
    await expect(page.getByTestId('simulator-summary-b')).toHaveText('exchange valid');
    await expect(sim).not.toContainText('[A10]');

    // Every cut dot as the CLI's cut markers classify it.
    const ctx = await cliContext(text, 2);
    const markers = cutMarkers(ctx.cuts);
    const dots = page.getByTestId('cut-marker');
    await expect(dots.first()).toBeAttached();
    const shown = await dots.evaluateAll((els) =>
      els.map((e) => [Number(e.getAttribute('data-cut')), e.getAttribute('data-safe')] as const),
    );
    expect(shown.length).toBeGreaterThan(0);
    for (const [k, safe] of shown)
      expect(safe, `cut ${k}`).toBe(markers.safe[k] === 1 ? 'true' : 'false');
    expect(shown.some(([, safe]) => safe === 'true')).toBe(true);

    // At budgets that evict, each policy reads as the CLI's `simulate` says.
    const approx = ((await page.getByTestId('token-basis').textContent()) ?? '').includes('≈');
    for (const budget of [2000, 200]) {
      await page.getByTestId('budget-input').fill(String(budget));
      await page.getByTestId('budget-input').press('Enter');
      for (const [side, policy] of [
        ['a', 'message'],
        ['b', 'exchange'],
      ] as const) {
        const r = simulatePolicy(ctx, policy, budget);
        await expect(
          page.getByTestId(`simulator-summary-${side}`),
          `${policy} at ${budget}`,
        ).toHaveText(`${policy} ${policyVerdict(r, approx).short}`);
        const card = page.locator(`[data-testid="policy-card"][data-policy="${policy}"]`);
        await expect(card).toHaveAttribute('data-valid', String(r.validation.valid));
      }
    }
  });
