/**
 * Display defects a newcomer found on large inputs (a 100,000-message Claude Code log, a 50 MB
 * Anthropic body), checked here on a generated log of a few thousand messages so the spec stays
 * fast. Assertions are on text and geometry, never on time. Inputs come from scripts/gen.ts.
 */
import { expect, test, type Page } from '@playwright/test';
import { generate } from '../scripts/gen.ts';
import { parseTranscript } from '../src/model/parse/index.ts';
import { dropFile, fileShown, holdLoadAfterPreview, openApp, paste } from './helpers.ts';

/** Upper bound of a monospace glyph's advance (em) assumed by sweepTicks.ts's tick spacing. */
const TICK_CHAR_EM = 0.62;
const TICK_FONT_PX = 10;

// A Claude Code log of ~2,400 messages and 4 MB: above the 2 MiB line, so the worker streams it.
const LOG = generate({ format: 'claude-code-jsonl', messages: 3000, mb: 4, seed: 3 });
const LOG_FILE = {
  name: 'cc3k.jsonl',
  mimeType: 'application/x-ndjson',
  buffer: Buffer.from(LOG),
};

/**
 * Row labels: each fits its column (nothing hidden) and ends before the chips, at the page's
 * font size and at a larger one, at the top and at the bottom of the timeline.
 */
async function expectRowLabelsFit(page: Page): Promise<void> {
  const labelsFit = () =>
    page.evaluate(() => {
      const bad: string[] = [];
      for (const el of Array.from(document.querySelectorAll<HTMLElement>('.msg-index'))) {
        const chips = el.parentElement?.querySelector('.chips');
        const r = el.getBoundingClientRect();
        const range = document.createRange();
        range.selectNodeContents(el);
        const text = range.getBoundingClientRect();
        if (text.right > r.right + 0.5 || el.scrollWidth > el.clientWidth + 0.5)
          bad.push(`${el.textContent} overflows its column`);
        if (chips && text.right > chips.getBoundingClientRect().left + 0.5)
          bad.push(`${el.textContent} runs under the chips`);
      }
      return { rows: document.querySelectorAll('.msg-index').length, bad };
    });
  const timeline = page.getByTestId('timeline');
  for (const fontSize of [null, '20px']) {
    if (fontSize) await page.addStyleTag({ content: `.msg-index { font-size: ${fontSize}; }` });
    for (const end of ['top', 'bottom'] as const) {
      await timeline.evaluate((el, e) => {
        el.scrollTop = e === 'top' ? 0 : el.scrollHeight;
      }, end);
      await expect(page.locator('.msg-index').first()).toBeVisible();
      const r = await labelsFit();
      expect(r.rows).toBeGreaterThan(3);
      expect(r.bad).toEqual([]);
    }
  }
}

/**
 * Sweep axis labels: formatted like the header, inside the chart, never overlapping, and no wider
 * than the width the layout assumes for them.
 */
async function expectSweepTicksApart(page: Page): Promise<void> {
  const ticks = page.getByTestId('sweep-tick');
  await expect(ticks.first()).toBeVisible({ timeout: 60_000 });
  const boxes = await ticks.evaluateAll((els) =>
    els.map((el) => {
      const b = (el as SVGTextElement).getBBox();
      const svg = (el as SVGTextElement).ownerSVGElement as SVGSVGElement;
      return { label: el.textContent ?? '', x: b.x, w: b.width, svgW: svg.width.baseVal.value };
    }),
  );
  expect(boxes.length).toBeGreaterThan(1);
  for (let i = 0; i < boxes.length; i++) {
    const b = boxes[i] as (typeof boxes)[number];
    expect(b.label).toMatch(/^\d{1,3}(,\d{3})*$/);
    expect(b.x).toBeGreaterThanOrEqual(0);
    expect(b.x + b.w).toBeLessThanOrEqual(b.svgW + 0.5);
    expect(b.w).toBeLessThanOrEqual(b.label.length * TICK_CHAR_EM * TICK_FONT_PX + 0.5);
    const prev = boxes[i - 1];
    if (prev) expect(prev.x + prev.w).toBeLessThan(b.x);
  }
}

test('a large log: counts with separators, row labels not clipped at any font size, sweep labels apart', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const parsed = parseTranscript(LOG, { name: LOG_FILE.name });
  if (!parsed.ok) throw new Error('generated log did not parse');
  const n = parsed.value.transcript.messages.length;
  expect(n).toBeGreaterThan(1000);
  await openApp(page);
  await page.getByTestId('file-input').setInputFiles(LOG_FILE);
  await fileShown(page, LOG_FILE.name, 120_000);

  // 3. Counts use the shared formatter: "2,420 messages", not "2420".
  await expect(page.getByTestId('count-messages')).toHaveText(n.toLocaleString('en-US'));
  for (const where of [
    page.getByTestId('summary'),
    page.getByTestId('window-percent'),
    page.getByTestId('simulator').locator('summary'),
    page.getByTestId('policy-kept').first(),
    page.getByTestId('sweep-table'),
  ]) {
    const text = (await where.textContent()) ?? '';
    expect(text, `a number of four digits or more without separators in "${text}"`).not.toMatch(
      /\d{4}/,
    );
  }
  // The window reading: a share of the window up to it, a multiple past it.
  await expect(page.getByTestId('window-percent')).toHaveText(
    /^(compact at [\d.,]+ % of a [\d,]+-token window|budget [\d.,]+× a [\d,]+-token window \([\d,]+ %\): no trigger of this window reaches it)$/,
  );

  // 4. The overshoot sentence never says "discards more" at 1.00×.
  const overshoot = page.getByTestId('exchange-overshoot');
  if ((await overshoot.count()) > 0) {
    const s = (await overshoot.textContent()) ?? '';
    if (/ 1\.00×/.test(s)) expect(s).not.toMatch(/more history/);
    else expect(s).toMatch(/discards [\d.,]+ (%|×)/);
  }

  // 1. Row labels fit their column, at two font sizes, at both ends of the timeline.
  await expectRowLabelsFit(page);
  // The last rows carry labels of four digits or more (#2,4xx is printed as a position: #2419).
  await expect(page.locator('.msg-index').last()).toHaveText(/^#\d{4,}/);

  // 2. Sweep axis labels: formatted, inside the chart, apart.
  await expectSweepTicksApart(page);
});

/**
 * Watch the page from inside: the first frame that shows a streamed file's preview (its rows
 * replaced the sample's) while the load still runs is recorded — what the verdict, simulator,
 * stats line and timeline show — and Cancel is clicked in that same frame.
 */
function watchPreviewThenCancel(page: Page, sampleCount: string) {
  return page.evaluate(
    (sampleCount) =>
      new Promise<{
        verdict: string;
        provisional: string | null;
        copyButtons: number;
        simulator: string | null;
        policyVerdicts: number;
        summary: string | null;
        brokenCounts: number;
        brokenPending: string;
        cutMarkers: number;
        violationRows: number;
        brokenArcs: number;
        errorChips: number;
      }>((resolve) => {
        const look = () => {
          const verdict = document.querySelector('[data-testid=verdict]');
          const cancel = document.querySelector<HTMLButtonElement>('[data-testid=load-cancel]');
          const messages = document.querySelector('[data-testid=count-messages]')?.textContent;
          if (
            verdict &&
            cancel &&
            messages !== sampleCount &&
            document.querySelector('.msg-index')
          ) {
            const out = {
              verdict: verdict.textContent ?? '',
              provisional: verdict.getAttribute('data-provisional'),
              copyButtons: document.querySelectorAll(
                '[data-testid=violations] [data-testid=copy-error]',
              ).length,
              simulator:
                document
                  .querySelector('[data-testid=simulator]')
                  ?.getAttribute('data-provisional') ?? null,
              policyVerdicts: document.querySelectorAll('[data-testid=policy-verdict]').length,
              summary:
                document.querySelector('[data-testid=summary]')?.getAttribute('data-provisional') ??
                null,
              brokenCounts: document.querySelectorAll('[data-testid=count-broken]').length,
              brokenPending:
                document.querySelector('[data-testid=count-broken-pending]')?.textContent ?? '',
              cutMarkers: document.querySelectorAll('[data-testid=cut-marker]').length,
              violationRows: document.querySelectorAll('.msg.has-violation').length,
              brokenArcs: document.querySelectorAll('[data-testid=arc-layer] .arc.broken').length,
              errorChips: document.querySelectorAll('.chip.broken').length,
            };
            cancel.click();
            resolve(out);
            return;
          }
          requestAnimationFrame(look);
        };
        requestAnimationFrame(look);
      }),
    sampleCount,
  );
}

test('while a large file streams its verdicts are provisional; Cancel gives the Sample menu back', async ({
  page,
}) => {
  test.setTimeout(180_000);
  // Larger than the first test's log, so the preview of the first rows is on screen well before
  // the whole file is read; and held open after its preview (never released: Cancel ends it), so
  // a fast machine cannot answer the whole file before a frame shows the preview.
  const text = generate({ format: 'claude-code-jsonl', messages: 3000, mb: 24, seed: 4 });
  await holdLoadAfterPreview(page);
  await openApp(page);
  const select = page.getByTestId('sample-select');
  await expect(select).toHaveValue('invoice');
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-valid', 'true');
  // The preview is the first frame whose count is no longer the sample's.
  const sampleCount = (await page.getByTestId('count-messages').textContent()) ?? '';
  expect(sampleCount).toMatch(/^\d+$/);
  const seen = watchPreviewThenCancel(page, sampleCount);
  await page.getByTestId('file-input').setInputFiles({
    name: 'cc24.jsonl',
    mimeType: 'application/x-ndjson',
    buffer: Buffer.from(text),
  });
  const preview = await seen;

  // 5. The preview's verdict waits: no "Invalid … HTTP 400", no error body to copy.
  expect(preview.provisional).toBe('true');
  expect(preview.verdict).toContain('Provisional: waiting for the whole of cc24.jsonl');
  expect(preview.verdict).not.toContain('HTTP 400');
  expect(preview.copyButtons).toBe(0);
  expect(preview.simulator).toBe('true');
  expect(preview.policyVerdicts).toBe(0);
  // The stats line's counts read as provisional, and no pair is counted broken (a call near the
  // preview's end may be answered further on); no row or cut is marked from the preview's verdict.
  expect(preview.summary).toBe('true');
  expect(preview.brokenCounts).toBe(0);
  expect(preview.brokenPending).toContain('broken: after the whole file');
  expect(preview.cutMarkers).toBe(0);
  expect(preview.violationRows).toBe(0);
  expect(preview.brokenArcs).toBe(0);
  expect(preview.errorChips).toBe(0);

  // 7. Cancelled: the previous transcript comes back, and the Sample menu names it again.
  await expect(page.getByTestId('load-cancelled')).toContainText(
    'Loading cc24.jsonl was cancelled.',
  );
  await expect(page.getByTestId('count-exchanges')).toHaveText('1');
  await expect(select).toHaveValue('invoice');
  await expect(select.locator('option:checked')).not.toContainText('cc24.jsonl');
  await expect(page.getByTestId('verdict')).not.toHaveAttribute('data-provisional', 'true');
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-valid', 'true');
});

test('an empty or binary file: the note says what is shown and that the file could not be read', async ({
  page,
}) => {
  await openApp(page);
  await dropFile(page, 'blob.bin', [0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x01]);
  const banner = page.getByTestId('parse-error');
  await expect(banner).toContainText('Not a text file');
  await expect(banner.getByTestId('parse-error-kept')).toHaveText(
    'blob.bin could not be read; still showing the sample invoice.json.',
  );
  await expect(banner).not.toContainText('Fix the text below');

  // An earlier paste in the text box, then an empty file: the note names the paste, not the box.
  await paste(page, '{"messages": [{"role": "user", "content": "hi"}]}');
  await expect(page.getByTestId('count-messages')).toHaveText('1');
  await dropFile(page, 'empty.json', '');
  await expect(banner).toContainText('Nothing to read');
  await expect(banner.getByTestId('parse-error-kept')).toHaveText(
    'empty.json could not be read; still showing the text pasted earlier.',
  );
  await expect(banner).not.toContainText('text below');
});
