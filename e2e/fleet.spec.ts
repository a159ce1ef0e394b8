import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { scanTokensWords } from '../src/model/tokenWords.ts';
import { openDefault, shownRequestMark } from './helpers.ts';
import type { Page } from '@playwright/test';

// A team lead scanned a folder of session logs with the CLI (`scan`) and opens the Parquet in
// the page: the fleet view shows the rates, the failure signatures and every request; with the
// scanned folder opened too, a row opens its session in the inspector at its request.

const root = path.resolve(import.meta.dirname, '..');
const samples = path.join(root, 'public', 'samples');
let dir: string;
let parquet: string;

test.beforeAll(() => {
  const tmp = mkdtempSync(path.join(tmpdir(), 'fleet-e2e-'));
  dir = path.join(tmp, 'sessions');
  mkdirSync(path.join(dir, 'team'), { recursive: true });
  copyFileSync(
    path.join(samples, 'broken-duplicate-id.json'),
    path.join(dir, 'broken-duplicate-id.json'),
  );
  copyFileSync(path.join(samples, 'claude-code-session.jsonl'), path.join(dir, 'team', 'cc.jsonl'));
  copyFileSync(
    path.join(samples, 'coding-agent.json'),
    path.join(dir, 'team', 'coding-agent.json'),
  );
  // An archive of two requests (a JSON list of bodies): its second request is the broken one.
  const ok = JSON.parse(readFileSync(path.join(samples, 'coding-agent.json'), 'utf8')) as unknown;
  const bad = JSON.parse(
    readFileSync(path.join(samples, 'broken-partial-answer.json'), 'utf8'),
  ) as unknown;
  writeFileSync(path.join(dir, 'archive.json'), JSON.stringify({ requests: [ok, bad] }));
  parquet = path.join(tmp, 'fleet.parquet');
  execFileSync(
    process.execPath,
    [path.join(root, 'scripts', 'cli.js'), 'scan', dir, '--out', parquet],
    {
      cwd: root,
      env: { ...process.env, CI: '1' },
    },
  );
});

test('the fleet view of a scan, and a row opening its session at its request', async ({ page }) => {
  const foreign: string[] = [];
  // Nothing leaves the page: every request is to its own origin (its files, blobs it made).
  page.on('request', (r) => {
    const own = /^(blob:)?http:\/\/127\.0\.0\.1:\d+\//.test(r.url()) || r.url().startsWith('data:');
    if (!own) foreign.push(r.url());
  });
  await openDefault(page);
  await page.getByTestId('file-input').setInputFiles(parquet);
  const view = page.getByTestId('fleet-view');
  await expect(view).toBeVisible();
  // The fleet is what is shown: no "Showing the sample …" above it (newcomer).
  await expect(page.getByTestId('input-hint')).toHaveCount(0);
  await expect(page.getByTestId('fleet-totals')).toContainText(
    '4 files · 10 requests · 0 unreadable · 2 get a 400',
  );
  await expect(page.getByTestId('fleet-rates')).toContainText('Sessions that compact');
  // A signature in words, with its catalogue code; no internal id on screen (issue 41).
  await expect(page.getByTestId('fleet-signatures')).toContainText('tool call id used twice');
  await expect(view).not.toContainText('duplicate_tool_use_id');
  await expect(view).not.toContainText('partial_answer');
  await expect(page.getByTestId('fleet-policies')).toContainText('exchange');
  await expect(page.getByTestId('fleet-row')).toHaveCount(10);

  // Sorted by verdict, descending: the 400s first.
  await page.getByTestId('fleet-sort-verdict').click();
  await page.getByTestId('fleet-sort-verdict').click();
  await expect(page.getByTestId('fleet-row').first()).toContainText('400');
  // Its first error says which message the provider's 400 names (newcomer: "at #27" read as
  // where the rule's words happened, the turn before it for A3).
  await expect(page.getByTestId('fleet-row').first()).toContainText(/· the 400 names #\d+/);

  // Without the folder, a row says what to open.
  await page
    .locator('[data-testid="fleet-row"][data-path="archive.json"][data-request="1"]')
    .click();
  await expect(page.getByTestId('fleet-notice')).toContainText('not in the opened folder');

  await page.getByTestId('fleet-folder-input').setInputFiles(dir);
  await expect(page.getByTestId('fleet-folder')).toContainText('4 files of the folder opened');
  await page
    .locator('[data-testid="fleet-row"][data-path="archive.json"][data-request="1"]')
    .click();
  await expect(view).toBeHidden();
  await expect(page.getByTestId('app')).toHaveAttribute('data-ready', 'true');
  // The archive's second request is shown: the strip says so, and it is the broken one.
  await expect(shownRequestMark(page)).toHaveAttribute('data-index', '1');
  await expect(page.getByText(/INVALID|HTTP 400/).first()).toBeVisible();

  // Back to the fleet, and another row: a session log, one row per model call (6 calls).
  await page.getByTestId('fleet-back').click();
  await expect(page.locator('[data-testid="fleet-row"][data-path="team/cc.jsonl"]')).toHaveCount(6);
  await page
    .locator('[data-testid="fleet-row"][data-path="team/cc.jsonl"][data-request="5"]')
    .click();
  await expect(view).toBeHidden();
  await expect(page.getByTestId('app')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('app')).toContainText('(file: cc.jsonl)');
  await expect(page.getByTestId('app')).toContainText('claude-code-jsonl → anthropic');
  // At that call: the strip marks the log's sixth model call.
  await expect(shownRequestMark(page)).toHaveAttribute('data-index', '5');
  expect(foreign).toEqual([]);
});

/** The fleet report as the page shows it: totals, rates, signatures, policies. */
async function reportText(page: Page): Promise<string[]> {
  const ids = ['fleet-totals', 'fleet-rates', 'fleet-signatures', 'fleet-policies'];
  return Promise.all(ids.map((id) => page.getByTestId(id).innerText()));
}

test("the page scans a folder itself: the report of the CLI's Parquet, and a row opening its session", async ({
  page,
}) => {
  const foreign: string[] = [];
  page.on('request', (r) => {
    const own = /^(blob:)?http:\/\/127\.0\.0\.1:\d+\//.test(r.url()) || r.url().startsWith('data:');
    if (!own) foreign.push(r.url());
  });
  // The CLI's report, as the page shows it from the Parquet.
  await openDefault(page);
  await page.getByTestId('file-input').setInputFiles(parquet);
  await expect(page.getByTestId('fleet-totals')).toContainText('4 files · 10 requests');
  // The CLI names an example by the path it scanned; the page by its path in the folder.
  const fromCli = (await reportText(page)).map((t) => t.replaceAll(`${dir}/`, ''));

  // A fresh tab: the folder itself, picked with the folder input, scanned in the page's workers.
  await openDefault(page);
  const started: string[] = [];
  page.on('worker', (w) => started.push(w.url()));
  await page.getByTestId('fleet-scan-input').setInputFiles(dir);
  const view = page.getByTestId('fleet-view');
  await expect(view).toBeVisible();
  await expect(page.getByTestId('fleet-totals')).toContainText(
    '4 files · 10 requests · 0 unreadable · 2 get a 400',
  );
  await expect(page.getByTestId('fleet-scan-progress')).toBeHidden();
  expect(await reportText(page)).toEqual(fromCli);
  // Scanned off the page's thread: the scan started its workers (under the page's CSP, blob:).
  expect(started.length).toBeGreaterThan(0);
  await expect(page.getByTestId('fleet-row')).toHaveCount(10);
  await expect(page.getByTestId('fleet-folder')).toContainText('4 files of the folder opened');
  // The tokens column says what it counts (chars/4 and the log's usage, as the simulator).
  await expect(page.getByTestId('fleet-sort-tokens')).toHaveAttribute(
    'title',
    scanTokensWords('chars/4'),
  );

  // A row opens its session at its request (the scanned folder is the opened one).
  await page
    .locator('[data-testid="fleet-row"][data-path="archive.json"][data-request="1"]')
    .click();
  await expect(view).toBeHidden();
  await expect(page.getByTestId('app')).toHaveAttribute('data-ready', 'true');
  await expect(shownRequestMark(page)).toHaveAttribute('data-index', '1');
  expect(foreign).toEqual([]);
});

test('several session files dropped at once are scanned as a fleet', async ({ page }) => {
  await openDefault(page);
  const names = ['broken-duplicate-id.json', 'coding-agent.json', 'claude-code-session.jsonl'];
  const texts = names.map((n) => readFileSync(path.join(samples, n), 'utf8'));
  const dt = await page.evaluateHandle(
    ([ns, ts]) => {
      const dt = new DataTransfer();
      ns.forEach((n, i) => dt.items.add(new File([ts[i] as string], n)));
      return dt;
    },
    [names, texts] as const,
  );
  await page.dispatchEvent('body', 'dragover', { dataTransfer: dt });
  await page.dispatchEvent('body', 'drop', { dataTransfer: dt });
  await expect(page.getByTestId('fleet-view')).toBeVisible();
  // 1 + 1 + 6 requests (the session log's six model calls); the duplicate id is the one 400.
  await expect(page.getByTestId('fleet-totals')).toContainText(
    '3 files · 8 requests · 0 unreadable · 1 get a 400',
  );
  await expect(page.getByTestId('fleet-signatures')).toContainText('tool call id used twice');
  await page
    .locator('[data-testid="fleet-row"][data-path="claude-code-session.jsonl"][data-request="5"]')
    .click();
  await expect(page.getByTestId('app')).toContainText('(file: claude-code-session.jsonl)');
  await expect(shownRequestMark(page)).toHaveAttribute('data-index', '5');
});

test("a folder of one file of one request: the totals say '1 file · 1 request'", async ({
  page,
}) => {
  const one = path.join(mkdtempSync(path.join(tmpdir(), 'fleet-one-')), 'one');
  mkdirSync(one);
  copyFileSync(path.join(samples, 'coding-agent.json'), path.join(one, 'coding-agent.json'));
  await openDefault(page);
  await page.getByTestId('fleet-scan-input').setInputFiles(one);
  await expect(page.getByTestId('fleet-view')).toBeVisible();
  await expect(page.getByTestId('fleet-totals')).toContainText('1 file · 1 request · 0 unreadable');
});
