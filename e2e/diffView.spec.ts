/**
 * The diff view (issue 33) beyond e2e/strip.spec.ts: a provider compaction (an Anthropic
 * `compaction` block, a Responses `compaction` item) that replaced a span is labelled `sealed`;
 * the row a compaction left is scrolled into view; the cache-prefix label covers no row; the
 * compaction of a log shaped as a real Claude Code log (e2e/sessionLog.ts, our own fixture).
 */
import { expect, test, type Page } from '@playwright/test';
import { encodePermalink } from '../src/model/permalink/codec.ts';
import { defaultPermalinkState, type PermalinkView } from '../src/model/permalink/schema.ts';
import { diffRequests, listFileRequests } from '../src/model/diff/index.ts';
import { loadBpeCounter } from '../src/model/tokens.ts';
import { openApp, openDefault, dropFile, shownRequestMark } from './helpers.ts';
import { oaiParallel } from './fixtures.ts';
import { compactedSessionLog, realShapedCompactionLog } from './sessionLog.ts';

/** The page's link of `text` with `view`, as Copy link writes it. */
function link(text: string, view: Partial<PermalinkView>): string {
  const state = defaultPermalinkState();
  state.source = { kind: 'inline', text, redacted: false };
  state.view = { ...state.view, ...view };
  return `/#${encodePermalink(state)}`;
}

const longer = [
  { role: 'user', content: 'Read it.' },
  { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'read', input: {} }] },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok' }] },
  { role: 'assistant', content: 'Done.' },
  { role: 'user', content: 'Next.' },
];
const anthropic = {
  model: 'claude-sonnet-4-5',
  max_tokens: 100,
  tools: [{ name: 'read', input_schema: { type: 'object' } }],
};
/** Two Anthropic batch requests: the conversation, then it sealed in a `compaction` block. */
const anthropicBatch = JSON.stringify({
  requests: [
    { custom_id: 'before', params: { ...anthropic, messages: longer } },
    {
      custom_id: 'after',
      params: {
        ...anthropic,
        messages: [
          { role: 'assistant', content: [{ type: 'compaction', content: 'Read it; it was ok.' }] },
          { role: 'user', content: 'Next.' },
        ],
      },
    },
  ],
});
const responses = { model: 'gpt-5', tools: [{ type: 'function', name: 'read', parameters: {} }] };
/** Two OpenAI Responses batch requests: the conversation, then a `compaction` item for it. */
const responsesBatch = [
  {
    custom_id: 'before',
    method: 'POST',
    url: '/v1/responses',
    body: {
      ...responses,
      input: [
        { role: 'user', content: 'Read it.' },
        { type: 'function_call', call_id: 'call_1', name: 'read', arguments: '{}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'ok' },
        { role: 'assistant', content: [{ type: 'output_text', text: 'Done.' }] },
        { role: 'user', content: 'Next.' },
      ],
    },
  },
  {
    custom_id: 'after',
    method: 'POST',
    url: '/v1/responses',
    body: {
      ...responses,
      input: [
        { type: 'compaction', id: 'cmp_1', encrypted_content: 'gAAAAB-sealed' },
        { role: 'user', content: 'Next.' },
      ],
    },
  },
]
  .map((r) => JSON.stringify(r))
  .join('\n');

const changes = (page: Page) =>
  page.getByTestId('diff-row').evaluateAll((els) => els.map((e) => e.getAttribute('data-change')));

for (const [what, text] of [
  ['an Anthropic compaction block', anthropicBatch],
  ['a Responses compaction item', responsesBatch],
] as const)
  test(`${what} that replaced the conversation is labelled sealed`, async ({ page }) => {
    await openApp(page, link(text, { diff: { kind: 'requests', left: 0, right: 1 } }));
    const view = page.getByTestId('diff-view');
    await expect(view.getByTestId('diff-summary')).toHaveText(
      /sealed messages 0–3 in a compaction; it is still valid\.$/,
    );
    await expect
      .poll(() => changes(page))
      .toEqual(['sealed', 'sealed', 'sealed', 'sealed', 'kept']);
    // The left side keeps its pair; nothing broke, so no red arc.
    await expect(view.locator('[data-testid="diff-arcs-left"] path')).toHaveCount(1);
    await expect(view.locator('path.broken')).toHaveCount(0);
  });

/** Boxes of two locators overlap (px, both in view). */
async function overlap(a: ReturnType<Page['locator']>, b: ReturnType<Page['locator']>) {
  const x = await a.boundingBox();
  const y = await b.boundingBox();
  if (!x || !y) throw new Error('not in view');
  return !(
    x.y + x.height <= y.y ||
    y.y + y.height <= x.y ||
    x.x + x.width <= y.x ||
    y.x + y.width <= x.x
  );
}

test('the cache-prefix label covers no row; the row a compaction left is scrolled into view', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 640 });
  const log = compactedSessionLog();
  await openDefault(page);
  await dropFile(page, 'session.jsonl', log);
  await expect(page.getByTestId('request-mark')).toHaveCount(6);
  // Call 2 continues call 1: the prefix is kept, then the new messages are inserted.
  await page.getByTestId('request-mark').nth(1).click();
  await expect(shownRequestMark(page)).toHaveAttribute('data-index', '1');
  await page.getByTestId('diff-previous').click();
  const view = page.getByTestId('diff-view');
  await expect(view.getByTestId('diff-summary')).toBeVisible();
  const firstInserted = view.locator('[data-testid="diff-row"][data-change="inserted"]').first();
  await expect(firstInserted).toBeVisible();
  const label = view.locator('[data-testid="diff-cache-line"] span');
  await expect(label).toBeVisible();
  expect(await overlap(label, firstInserted)).toBe(false);
  const kept = view.locator('[data-testid="diff-row"][data-change="kept"]').last();
  expect(await overlap(label, kept)).toBe(false);

  // The compacted call: the summary row (what the compaction left) is in the rows' view.
  await page.getByTestId('diff-close').click();
  await page.getByTestId('request-mark').nth(4).click();
  await expect(shownRequestMark(page)).toHaveAttribute('data-index', '4');
  await page.getByTestId('diff-previous').click();
  const summaryRow = view.locator('[data-testid="diff-row"][data-change="rewritten"]');
  await expect(summaryRow).toBeVisible();
  await expect
    .poll(async () => {
      const box = await summaryRow.boundingBox();
      const pane = await view.locator('.diff-scroll').boundingBox();
      const inPane =
        !!box && !!pane && box.y >= pane.y && box.y + box.height <= pane.y + pane.height + 1;
      // …and in the window: the pane may start below the fold.
      return inPane && !!box && box.y >= 0 && box.y + box.height <= 641;
    })
    .toBe(true);
});

test('a compaction in a log shaped as a real Claude Code log: the strip marks it, the diff says the summary replaced the turns before, keys and a reload keep it', async ({
  page,
}) => {
  const log = realShapedCompactionLog();
  await openDefault(page);
  await dropFile(page, 'session.jsonl', log);
  const marks = page.getByTestId('request-mark');
  // Eight replies, each written as one line per block: eight calls, not one per line.
  await expect(marks).toHaveCount(8);
  await expect(page.getByTestId('strip-sentence')).toContainText(
    '8 model calls, 1 compaction or rollback',
  );
  await expect(marks.nth(6)).toHaveAttribute(
    'aria-label',
    /compaction before it \(auto, 181,402 → 5,310 tokens\)/,
  );
  await marks.nth(6).click();
  await expect(shownRequestMark(page)).toHaveAttribute('data-index', '6');
  // The summary and the next prompt: the attachment and bookkeeping lines are no messages.
  await expect(page.getByTestId('count-messages')).toHaveText('2');
  await page.getByTestId('diff-previous').click();
  const view = page.getByTestId('diff-view');
  const listing = listFileRequests(log, { name: 'session.jsonl' });
  if (!listing.ok) throw new Error(listing.error.message);
  const expected = diffRequests(listing.value, 6, undefined, { counter: await loadBpeCounter() });
  if (!expected.ok) throw new Error(expected.error);
  expect(expected.value.summary).toMatch(
    /^Request 7 replaced messages 0–10 \(2 exchanges, [\d,]+ tokens\) with a summary and added 1 message \([\d,]+ tokens?\); it is still valid\.$/,
  );
  await expect(view.getByTestId('diff-summary')).toHaveText(expected.value.summary);
  await expect
    .poll(() => changes(page))
    .toEqual([...Array.from({ length: 11 }, () => 'dropped'), 'rewritten', 'inserted']);
  // The four tool pairs of the turns before are drawn on the left; nothing broke.
  await expect(view.locator('[data-testid="diff-arcs-left"] path')).toHaveCount(4);
  await expect(view.locator('path.broken')).toHaveCount(0);
  await expect(view.getByTestId('diff-broken')).toHaveCount(0);
  await expect(view.getByTestId('diff-side-right')).toContainText('valid');
  await expect.poll(() => page.url()).toMatch(/rq=7.*d=prev|d=prev.*rq=7/);
  // `.` steps to the next change after the summary's row, `,` back.
  const current = view.locator('[data-testid="diff-row"][aria-current="true"]');
  await page.locator('body').press('.');
  await expect(current).toHaveAttribute('data-row', '0');
  await page.locator('body').press('.');
  await expect(current).toHaveAttribute('data-row', '1');
  await page.locator('body').press(',');
  await expect(current).toHaveAttribute('data-row', '0');
  await page.reload();
  await expect(page.getByTestId('diff-summary')).toHaveText(expected.value.summary, {
    timeout: 30_000,
  });
});

test('choosing a pasted transcript after the cuts asks for the paste, not for a budget', async ({
  page,
}) => {
  await openApp(page, link(oaiParallel(), { budget: 30, diff: { kind: 'cuts' } }));
  const view = page.getByTestId('diff-view');
  await expect(view).toBeVisible();
  await expect(page.getByTestId('diff-mode')).toHaveValue('cuts');
  await page.getByTestId('diff-mode').selectOption('pasted');
  await expect(page.getByTestId('diff-note')).toHaveText(
    'Paste the transcript to compare with in the box above, then press Compare.',
  );
  await expect(view.getByTestId('diff-row')).toHaveCount(0);
  await expect(page.getByTestId('diff-paste')).toBeVisible();
});

test("a single request reaches the diff of the two policies' cuts from the simulator, and its sentence names the rows as they are labelled", async ({
  page,
}) => {
  // Newcomer, 2026-12-07: no control opened this view (only a hand-typed `d=cuts`), and its
  // sentence said "dropped messages 0–3" above rows labelled #10–#13.
  await openApp(page, '/#v=1&src=coding-agent&b=1000');
  await expect(page.getByTestId('diff-view')).toHaveCount(0);
  await page.getByTestId('open-cuts-diff').click();
  const view = page.getByTestId('diff-view');
  await expect(view).toBeVisible();
  await expect(page.getByTestId('diff-mode')).toHaveValue('cuts');
  await expect(page).toHaveURL(/d=cuts/);
  const dropped = view.locator('[data-testid="diff-row"][data-change="dropped"]');
  await expect(dropped.first()).toBeVisible();
  const first = (await dropped.first().locator('.diff-num').first().innerText()).slice(1);
  const last = (await dropped.last().locator('.diff-num').first().innerText()).slice(1);
  await expect(page.getByTestId('diff-summary')).toContainText(`dropped messages ${first}–${last}`);
  expect(Number(first)).toBeGreaterThan(0);
});
