/**
 * The eviction simulator finds and names the message that holds a cause by our index, also where
 * several rows share one raw index (a retry fault's copy): the policy card's jump selects the copy
 * (#1.2), not the first row with raw index 1, and the cut tooltip names the row by its label.
 */
import { expect, test, type Page } from '@playwright/test';
import { cutMarkers } from '../src/model/evict/cuts.ts';
import { prepareEviction } from '../src/model/evict/policies.ts';
import { applyFault, reindexForView } from '../src/model/faults.ts';
import { messageLabels } from '../src/model/messageLabels.ts';
import { parseTranscript } from '../src/model/parse/index.ts';
import { ruleWords } from '../src/model/ruleWords.ts';
import { countTokens } from '../src/model/tokens.ts';
import { DEFAULT_PROVIDER, validateTranscript } from '../src/model/validate/index.ts';
import { oaiParallel, sample } from './fixtures.ts';
import { openDefault, paste } from './helpers.ts';

const row = (page: Page, i: number) => page.locator(`[data-message-index="${i}"] .msg`);
const card = (page: Page, policy: string) =>
  page.locator(`[data-testid="policy-card"][data-policy="${policy}"]`);

/** The invoice sample after a retry of message 1, as the page shows it (model run in Node). */
function retriedInvoice() {
  const parsed = parseTranscript(sample('invoice.json'), { name: 'invoice.json' });
  if (!parsed.ok) throw new Error('invoice.json does not parse');
  const r = applyFault(parsed.value.transcript, { kind: 'retry', messageIndex: 1 });
  if (!r.ok) throw new Error(r.error);
  const t = reindexForView(r.value.transcript);
  const provider = DEFAULT_PROVIDER[t.format];
  const first = validateTranscript(t, provider).violations.find((v) => v.severity === 'error');
  const markers = cutMarkers(prepareEviction(t, countTokens(t, provider), provider).cuts);
  return { t, first, markers, labels: messageLabels(t.messages) };
}

test.describe('eviction simulator where raw indices repeat', () => {
  test('retry fault: the policy jump selects the copy (#1.2) and the cut tooltip names rows by label', async ({
    page,
  }) => {
    const e = retriedInvoice();
    // The scenario: keeping everything is refused at the copy, which shares raw index 1.
    expect(e.first).toMatchObject({ code: 'A6', index: 2, messageIndex: 1 });
    expect(e.labels.of(2)).toBe('#1.2');

    await openDefault(page);
    await row(page, 1).locator('.role').click();
    await page.getByTestId('fault-retry').click();
    // The retry adds one message, the copy of #1 (the invoice sample ends on its tool results).
    await expect(page.getByTestId('count-messages')).toHaveText(String(e.t.messages.length));
    await expect(row(page, 2).locator('.msg-index')).toHaveText('#1.2');

    // Budget = the whole transcript: nothing is evicted, the kept request is the faulted one.
    const slider = page.getByTestId('budget-slider');
    await slider.focus();
    await page.keyboard.press('End');
    const msg = card(page, 'message');
    await expect(msg).toHaveAttribute('data-valid', 'false');
    await expect(msg.getByTestId('policy-verdict')).toContainText('[A6]');
    const jump = msg.getByTestId('policy-jump');
    await expect(jump).toHaveText('Jump to its cause: message #1.2');
    await jump.click();
    await expect(row(page, 2)).toHaveClass(/selected/);
    await expect(row(page, 1)).not.toHaveClass(/selected/);

    // A red cut marker whose error is held by a row sharing its raw index: the tooltip names it
    // by the row label.
    let k = -1;
    for (let c = 1; c < e.t.messages.length && k < 0; c++) {
      const err = e.markers.errorAt(c);
      if (err && err.index >= 0 && e.labels.of(err.index).includes('.')) k = c;
    }
    expect(k).toBeGreaterThan(0);
    const err = e.markers.errorAt(k);
    const marker = page.locator(`[data-testid="cut-marker"][data-cut="${k}"]`);
    await expect(marker).toHaveAttribute('data-safe', 'false');
    await marker.hover();
    const tip = page.getByRole('tooltip');
    await expect(tip).toContainText(
      // The rule in words, as the page says it (no internal codes on screen, issue 41).
      `[${err?.code}] ${err ? ruleWords(err.rule) : ''} at message ${e.labels.of(err?.index ?? -1)}`,
    );
  });
});

test.describe('cut markers say what they drop', () => {
  test('with the system prompt #0: no marker above #1 (it drops nothing), and #0 said kept', async ({
    page,
  }) => {
    await openDefault(page);
    await paste(page, oaiParallel());
    await expect(page.getByTestId('count-messages')).toHaveText('5');
    await expect(page.locator('[data-testid="cut-marker"][data-cut="2"]')).toHaveAttribute(
      'aria-label',
      /^Cut above #2: drop #1, keep the system prompt #0 \(pinned\) — /,
    );
    await expect(page.locator('[data-testid="cut-marker"][data-cut="1"]')).toHaveCount(0);
    const marker = page.locator('[data-testid="cut-marker"][data-cut="4"]');
    await expect(marker).toHaveAttribute(
      'aria-label',
      /^Cut above #4: drop #1–#3, keep the system prompt #0 \(pinned\) — /,
    );
    await marker.hover();
    await expect(page.getByRole('tooltip')).toContainText(
      'Drop #1–#3, keep the system prompt #0 (pinned):',
    );
  });

  test('without a system prompt: nothing is said to be pinned', async ({ page }) => {
    await openDefault(page);
    const messages = ['Deploy failed, find out why.', 'Looking.', 'Any luck?', 'Not yet.'].map(
      (content, i) => ({ role: i % 2 === 0 ? 'user' : 'assistant', content }),
    );
    await paste(page, JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 64, messages }));
    await expect(page.getByTestId('count-messages')).toHaveText('4');
    const markers = page.getByTestId('cut-marker');
    await expect(markers).toHaveCount(3);
    await expect(page.locator('[data-testid="cut-marker"][data-cut="2"]')).toHaveAttribute(
      'aria-label',
      /^Cut above #2: drop #0–#1 — /,
    );
    for (const label of await markers.evaluateAll((els) =>
      els.map((e) => e.getAttribute('aria-label') ?? ''),
    ))
      expect(label).not.toContain('pinned');
  });
});
