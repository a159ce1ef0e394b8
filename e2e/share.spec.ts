/**
 * Sharing without leaking (issue 15), as a user clicks it: the structure-only link of a Claude
 * Code log reopens as a Claude Code log with the same counts and verdict; the incident summary
 * and the timeline export are of the structure-only copy unless the transcript (its previews) is
 * ticked in; a copy that would not read back the same is not linked, and the panel says why; a
 * link that cannot be honoured says so; a name with a right-to-left override is shown as it is.
 */
import { expect, test, type Page } from '@playwright/test';
import { CHAT_ASSISTANT_IMAGE, GEMINI_INLINE_IMAGE } from '../src/model/testing/shapes.ts';
import { dropFile, fileShown, openApp, paste, saveDownload } from './helpers.ts';
import { sample } from './fixtures.ts';
import { compactedSessionLog } from './sessionLog.ts';
import { encodeInlinePayload } from '../src/model/permalink/inline.ts';

const counts = async (p: Page) =>
  Promise.all(
    ['format', 'count-messages', 'count-exchanges', 'count-arcs', 'count-broken'].map((id) =>
      p.getByTestId(id).innerText(),
    ),
  );

test('the structure-only link of a Claude Code log reopens as that log, with nothing of it', async ({
  page,
  context,
}) => {
  await openApp(page, '/#v=1&src=claude-code-session');
  const before = await counts(page);
  expect(before[0]).toBe('claude-code-jsonl');
  await page.getByTestId('share-open').click();
  await expect(page.getByTestId('structure-keeps')).toContainText('tool names');
  const link = await page.getByTestId('structure-link').inputValue();
  // Built and checked off the page's thread, in the share-copy worker (engine/shareCopyClient.ts).
  const names = await Promise.all(page.workers().map((w) => w.evaluate(() => self.name)));
  expect(names).toContain('share-copy');
  const preview = (await page.getByTestId('structure-preview').textContent()) ?? '';
  expect(preview).toContain('"sessionId"');
  expect(preview).not.toContain('Invoice export');

  const other = await context.newPage();
  await openApp(other, link);
  expect(await counts(other)).toEqual(before);
  await expect(other.getByTestId('verdict')).toHaveAttribute(
    'data-valid',
    (await page.getByTestId('verdict').getAttribute('data-valid')) ?? '',
  );
  await expect(other.locator('body')).not.toContainText('Invoice export');
  // The page says what it shows, as a note rather than a problem (nothing was refused).
  const notices = other.getByTestId('permalink-notices');
  await expect(notices).toContainText('Structure-only link');
  await expect(notices).toHaveAttribute('data-tone', 'info');
  const [border, bad, accent] = await notices.evaluate((el) => {
    const probe = document.createElement('span');
    document.body.append(probe);
    const colour = (v: string) => {
      probe.style.color = `var(${v})`;
      return getComputedStyle(probe).color;
    };
    const out = [getComputedStyle(el).borderTopColor, colour('--bad'), colour('--accent')];
    probe.remove();
    return out;
  });
  expect(border).not.toBe(bad);
  expect(border).toBe(accent);
});

test('the page loads no tokenizer of its own for a file the worker counts; the share panel loads it for its placeholders (issue 38)', async ({
  page,
}) => {
  // The page's own resource timeline lists the chunks the page fetched (a worker's are its own).
  const pageLoadedTokenizer = () =>
    page.evaluate(() =>
      performance.getEntriesByType('resource').some((e) => /o200k_base/.test(e.name)),
    );
  await openApp(page);
  await dropFile(page, 'session.jsonl', compactedSessionLog());
  await fileShown(page, 'session.jsonl');
  await expect(page.getByTestId('format')).toHaveText('claude-code-jsonl');
  // The count shown is the worker's exact one, labelled as such.
  await expect(page.getByTestId('token-basis')).toContainText('o200k_base');
  await expect(page.getByTestId('token-basis')).not.toHaveAttribute('data-estimate', 'true');
  expect(await pageLoadedTokenizer()).toBe(false);
  await page.getByTestId('share-open').click();
  await expect(page.getByTestId('structure-link')).not.toHaveValue('');
  expect(await pageLoadedTokenizer()).toBe(true);
});

test('the incident summary holds no transcript unless ticked in, and says what its link holds', async ({
  page,
}) => {
  await openApp(page, '/#v=1&src=claude-code-session');
  await page.getByTestId('share-open').click();
  await expect(page.getByTestId('structure-link')).toBeVisible();
  const save = async () => (await saveDownload(page, 'export-summary')).bytes.toString('utf8');
  const md = await save();
  expect(md).toContain('This link opens a structure-only copy');
  expect(md).not.toContain('src=claude-code-session');
  const text = sample('claude-code-session.jsonl');
  const ids = [...text.matchAll(/"(toolu_[A-Za-z0-9]+)"/g)].map((m) => m[1] ?? '');
  expect(ids.length).toBeGreaterThan(0);
  for (const id of ids) expect(md).not.toContain(id);

  await page.getByTestId('summary-include-transcript').check();
  const full = await save();
  expect(full).toContain('whole transcript');
  expect(full).toContain('src=claude-code-session');
});

test('the timeline export holds no transcript text unless previews are ticked in, and says so', async ({
  page,
}) => {
  await openApp(page, '/#v=1&src=claude-code-session');
  await page.getByTestId('share-open').click();
  const save = async (testId: string) => (await saveDownload(page, testId)).bytes;
  // The start of every text the log's messages hold (what a row's preview shows first).
  const starts = sample('claude-code-session.jsonl')
    .split('\n')
    .flatMap((line) => [...line.matchAll(/"text":"([^"\\]{12})/g)].map((m) => m[1] ?? ''));
  expect(starts.length).toBeGreaterThan(2);

  await expect(page.getByTestId('timeline-note')).toContainText('structure-only copy');
  await expect(page.getByTestId('timeline-note')).toContainText('no transcript content');
  const svg = (await save('export-svg')).toString('utf8');
  expect(svg).toContain('Structure-only copy');
  expect(svg).not.toContain('claude-code-session');
  for (const s of starts) expect(svg).not.toContain(s);
  const png = await save('export-png');
  expect([...png.subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);

  await page.getByTestId('timeline-include-previews').check();
  await expect(page.getByTestId('timeline-note')).toContainText(
    'whoever has the image can read them',
  );
  const full = (await save('export-svg')).toString('utf8');
  expect(full).toContain('claude-code-session');
  expect(starts.filter((s) => full.includes(s)).length).toBeGreaterThan(0);
  // Same rows and arcs either way.
  expect(full.match(/data-message-index=/g)?.length).toBe(
    svg.match(/data-message-index=/g)?.length,
  );
  expect(full.match(/data-arc-id=/g)?.length).toBe(svg.match(/data-arc-id=/g)?.length);
});

test('a structure-only copy that would read back otherwise is not linked, and the panel says why', async ({
  page,
}) => {
  // Chat cannot send an image back in an assistant turn (its writer writes the text only): the
  // copy would count other tokens.
  await openApp(page);
  await paste(page, JSON.stringify(CHAT_ASSISTANT_IMAGE));
  await expect(page.getByTestId('format')).toHaveText('openai-chat');
  await page.getByTestId('share-open').click();
  const unsafe = page.getByTestId('structure-unsafe');
  await expect(unsafe).toContainText('No structure-only link');
  await expect(unsafe).toContainText('tokens:');
  await expect(page.getByTestId('structure-link')).toHaveCount(0);
  await expect(page.getByTestId('structure-building')).toHaveCount(0);
});

test('the structure-only note counts the renamed ids in the singular for one', async ({ page }) => {
  const request = (ids: string[]) => ({
    model: 'claude-sonnet-4-5',
    max_tokens: 64,
    messages: [
      { role: 'user', content: 'look' },
      {
        role: 'assistant',
        content: ids.map((id) => ({ type: 'tool_use', id, name: 'read', input: {} })),
      },
      {
        role: 'user',
        content: ids.map((id) => ({ type: 'tool_result', tool_use_id: id, content: 'ok' })),
      },
    ],
  });
  await openApp(page);
  await paste(page, JSON.stringify(request(['toolu_01'])));
  await expect(page.getByTestId('count-messages')).toHaveText('3');
  await page.getByTestId('share-open').click();
  await expect(page.getByTestId('structure-link')).toBeVisible();
  await expect(page.getByTestId('structure-note')).toContainText('are renamed (1 id);');
  await page.keyboard.press('Escape');
  await paste(page, JSON.stringify(request(['toolu_01', 'toolu_02'])));
  await expect(page.getByTestId('count-arcs')).toHaveText('2');
  await page.getByTestId('share-open').click();
  await expect(page.getByTestId('structure-link')).toBeVisible();
  await expect(page.getByTestId('structure-note')).toContainText('are renamed (2 ids);');
});

test('a Gemini image is kept in the structure-only copy (inline data of its size), so it is linked', async ({
  page,
  context,
}) => {
  await openApp(page);
  await paste(page, JSON.stringify(GEMINI_INLINE_IMAGE));
  await expect(page.getByTestId('format')).toHaveText('gemini');
  const before = await counts(page);
  await page.getByTestId('share-open').click();
  const link = await page.getByTestId('structure-link').inputValue();
  await expect(page.getByTestId('structure-unsafe')).toHaveCount(0);
  const other = await context.newPage();
  await openApp(other, link);
  expect(await counts(other)).toEqual(before);
  await expect(other.locator('body')).not.toContainText('What is in this picture?');
});

test('a link that cannot be honoured says so instead of showing something else silently', async ({
  page,
}) => {
  // No transcript is shown in place of the unknown sample (not even the default one).
  await page.goto('/#v=1&src=no-such-sample');
  await expect(page.getByTestId('permalink-notices')).toContainText('no sample “no-such-sample”');
  await expect(page.getByTestId('count-messages')).toHaveCount(0);

  await openApp(page, '/#v=1&src=invoice&learn=no-such-step');
  await expect(page.getByTestId('permalink-notices')).toContainText(
    'no lesson step “no-such-step”',
  );
  await expect(page.getByTestId('learn-panel')).toHaveCount(0);
});

test('a name from a link with a right-to-left override is shown as it is', async ({ page }) => {
  await page.goto(`/#v=1&n=${encodeURIComponent('invoice\u202Enosj.exe')}&b=100`);
  await expect(page.getByTestId('permalink-notices')).toContainText('invoice[U+202E]nosj.exe');
});

test('while the structure-only copy is being built, the summary waits for its link instead of carrying the view only', async ({
  page,
}) => {
  // Hold the share-copy worker's script back, as a slow machine does (CI caught a summary made
  // in that gap carrying the view-only link).
  let release = () => {};
  const held = new Promise<void>((r) => (release = r));
  await page.route('**/assets/shareCopy.worker*', async (route) => {
    await held;
    await route.continue();
  });
  await openApp(page, '/#v=1&src=claude-code-session');
  await page.getByTestId('share-open').click();
  await expect(page.getByTestId('structure-building')).toBeVisible();
  await expect(page.getByTestId('export-summary')).toBeDisabled();
  await expect(page.getByTestId('export-summary-copy')).toBeDisabled();
  await expect(page.getByTestId('summary-link-note')).toContainText('still being built');
  // Ticked in, the summary carries the link to this view: nothing to wait for.
  await page.getByTestId('summary-include-transcript').check();
  await expect(page.getByTestId('export-summary')).toBeEnabled();
  await page.getByTestId('summary-include-transcript').uncheck();
  await expect(page.getByTestId('export-summary')).toBeDisabled();

  release();
  await expect(page.getByTestId('structure-link')).toBeVisible();
  await expect(page.getByTestId('summary-link-note')).toContainText('structure-only copy');
  const md = (await saveDownload(page, 'export-summary')).bytes.toString('utf8');
  expect(md).toContain('This link opens a structure-only copy');
  expect(md).not.toContain('src=claude-code-session');
});

test('"Hide tool names" holds for the exports made from the structure-only copy: the timeline and the summary', async ({
  page,
}) => {
  await openApp(page, '/#v=1&src=coding-agent');
  await page.getByTestId('share-open').click();
  await expect(page.getByTestId('structure-link')).toBeVisible();
  const save = async (testId: string) => (await saveDownload(page, testId)).bytes.toString('utf8');
  const named = await save('export-svg');
  const names = [...new Set([...named.matchAll(/tool_use ([A-Za-z][\w-]{2,})/g)].map((m) => m[1]))];
  expect(names.length).toBeGreaterThan(0);

  await page.getByTestId('share-hide-names').check();
  await expect(page.getByTestId('timeline-note')).toContainText('tool names are hidden');
  await expect(page.getByTestId('structure-link')).toBeVisible();
  const svg = await save('export-svg');
  for (const n of names) expect(svg).not.toContain(`tool_use ${n ?? ''}`);
  expect(svg).toMatch(/tool_use A(_x)*</);
  expect(svg.match(/data-arc-id=/g)?.length).toBe(named.match(/data-arc-id=/g)?.length);
  const md = await save('export-summary');
  expect(md).toContain('structure-only copy');
  for (const n of names) expect(md).not.toContain(n ?? '');
});

test('exports made from the structure-only copy have neutral names; the file name only with previews', async ({
  page,
}) => {
  await openApp(page, '/');
  await dropFile(page, 'acme-payroll-outage.jsonl', sample('claude-code-session.jsonl'));
  await expect(page.getByTestId('format')).toHaveText('claude-code-jsonl');
  await page.getByTestId('share-open').click();
  await expect(page.getByTestId('structure-link')).toBeVisible();
  const summary = await saveDownload(page, 'export-summary');
  expect(summary.name).toBe('incident.md');
  expect(summary.bytes.toString('utf8')).not.toContain('acme-payroll');
  const svg = await saveDownload(page, 'export-svg');
  expect(svg.name).toBe('timeline.svg');
  expect(svg.bytes.toString('utf8')).not.toContain('acme-payroll');
  expect((await saveDownload(page, 'export-png')).name).toBe('timeline.png');

  await page.getByTestId('timeline-include-previews').check();
  expect((await saveDownload(page, 'export-svg')).name).toBe('acme-payroll-outage-timeline.svg');
  await page.getByTestId('summary-include-transcript').check();
  expect((await saveDownload(page, 'export-summary')).name).toBe('acme-payroll-outage-incident.md');
});

test('a link with both src and t shows its inline transcript and says so, as the CLI reads it', async ({
  page,
}) => {
  const t = encodeInlinePayload(sample('coding-agent.json'));
  await openApp(page, `/#v=1&src=invoice&t=${t}`);
  await expect(page.getByTestId('count-exchanges')).toHaveText('9');
  await expect(page.getByTestId('permalink-notices')).toContainText(
    'names both a sample and an inline transcript',
  );
});
