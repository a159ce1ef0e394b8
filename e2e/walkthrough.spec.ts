import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { generate } from '../scripts/gen.ts';
import { REPAIR_KINDS } from '../src/model/repair/kinds.ts';
import { oneSpan } from '../src/model/testing/otel.fixtures.ts';
import { RULE_IDS } from '../src/model/validate/ruleRegistry.ts';
import {
  dropFile,
  fileShown,
  openApp,
  openDefault,
  paste,
  pickRequest,
  requestMarks,
} from './helpers.ts';
import { compactedSessionLog } from './sessionLog.ts';

// What a newcomer's walkthrough found (issue 41), one test per finding; each failed before its
// fix. Transcripts and traces are invented.

test('an OTel call whose answer was recorded is judged as it was sent: no A12, no empty row, no prefill note', async ({
  page,
}) => {
  // One call to a model without prefill: the request ended on a tool result and got an answer.
  const trace = JSON.stringify(
    oneSpan({
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.request.model': 'claude-opus-4-7',
      'gen_ai.input.messages': JSON.stringify([
        { role: 'user', parts: [{ type: 'text', content: 'Is payments-db up?' }] },
        {
          role: 'assistant',
          parts: [{ type: 'tool_call', id: 'c_a', name: 'ping', arguments: { host: 'db' } }],
        },
        { role: 'tool', parts: [{ type: 'tool_call_response', id: 'c_a', response: 'pong' }] },
      ]),
      'gen_ai.output.messages': JSON.stringify([
        { role: 'assistant', parts: [{ type: 'text', content: 'payments-db is up.' }] },
      ]),
    }),
  );
  await openDefault(page);
  await dropFile(page, 'trace.json', trace);
  const app = page.getByTestId('app');
  await expect(app).toHaveAttribute('data-view-chars', String(trace.length), { timeout: 30_000 });
  await expect(app).toHaveAttribute('data-ready', 'true', { timeout: 30_000 });
  await expect(page.getByTestId('count-messages')).toHaveText('3');
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-valid', 'true');
  await expect(
    page.locator('[data-testid="violation"][data-rule="trailing_assistant"]'),
  ).toHaveCount(0);
  await expect(page.locator('ul.warnings')).toContainText(
    'is what this request returned; it is not appended, so the request is judged as it was sent',
  );
  await expect(page.getByText('accepted as prefill')).toHaveCount(0);
  await expect(page.getByText('(no content)')).toHaveCount(0);
});

test('a view link too long for chat tools suggests the structure-only link only when that one is short; a long structure-only link warns too and says what to send', async ({
  page,
}) => {
  test.setTimeout(90_000);
  // A Claude Code log of a few hundred KB: its link carries it (under 2 MiB) but is far above
  // 8,192 characters, and so is its structure-only link.
  const log = generate({ format: 'claude-code-jsonl', messages: 600, seed: 3 });
  await openDefault(page);
  await page.getByTestId('file-input').setInputFiles({
    name: 'long.jsonl',
    mimeType: 'application/x-ndjson',
    buffer: Buffer.from(log),
  });
  await fileShown(page, 'long.jsonl');
  await page.getByTestId('share-open').click();
  const structure = page.getByTestId('structure-link');
  await expect(structure).toHaveCount(1, { timeout: 30_000 });
  const length = (await structure.inputValue()).length;
  expect(length).toBeGreaterThan(8192);
  const warn = page.getByTestId('share-too-long');
  await expect(warn).toContainText(
    `The structure-only link below is too long as well (${length.toLocaleString('en-US')} characters)`,
  );
  await expect(warn).not.toContainText('Share the structure-only link below');
  await expect(page.getByTestId('structure-too-long')).toContainText(
    'Download the structure-only copy and send it as a file instead',
  );
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('structure-download').click(),
  ]);
  expect(download.suggestedFilename()).toBe('long.structure-only.jsonl');
});

test('a short structure-only link is what the long-link warning suggests, with its length', async ({
  page,
}) => {
  const log = generate({ format: 'claude-code-jsonl', messages: 90, seed: 3 });
  await openDefault(page);
  await page.getByTestId('file-input').setInputFiles({
    name: 'short.jsonl',
    mimeType: 'application/x-ndjson',
    buffer: Buffer.from(log),
  });
  await fileShown(page, 'short.jsonl');
  await page.getByTestId('share-open').click();
  const structure = page.getByTestId('structure-link');
  await expect(structure).toHaveCount(1, { timeout: 30_000 });
  const length = (await structure.inputValue()).length;
  expect(length).toBeLessThanOrEqual(8192);
  expect((await page.getByTestId('share-link').inputValue()).length).toBeGreaterThan(8192);
  await expect(page.getByTestId('share-too-long')).toContainText(
    `Share the structure-only link below (${length.toLocaleString('en-US')} characters)`,
  );
  await expect(page.getByTestId('structure-too-long')).toHaveCount(0);
});

test('a replayed OpenAI turn: O6 gives the 400 and no warning says OpenAI does not reject it; the arcs are counted against the calls', async ({
  page,
}) => {
  const call = (text: string) => ({
    role: 'assistant',
    content: text,
    tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'ls', arguments: '{}' } }],
  });
  const body = {
    model: 'gpt-4.1',
    messages: [
      { role: 'user', content: 'List the files.' },
      call('Listing.'),
      { role: 'tool', tool_call_id: 'call_1', content: 'a.txt' },
      call('Listing again.'),
      { role: 'tool', tool_call_id: 'call_1', content: 'a.txt' },
    ],
  };
  await openDefault(page);
  await paste(page, JSON.stringify(body, null, 2));
  await expect(page.getByTestId('count-messages')).toHaveText('5');
  const first = page.locator('[data-testid="violation"][data-rank="first"]');
  await expect(first).toHaveAttribute('data-rule', 'duplicate_tool_result');
  // The card names its rule as a rule: "O6" alone read as the number 06 (newcomer, 2026-12-07).
  await expect(first.locator('.violation-code')).toHaveText('rule O6');
  await expect(page.getByText('has not been reported to reject')).toHaveCount(0);
  await expect(
    page.locator('[data-testid="violation"][data-rule="duplicate_tool_use_id"]'),
  ).toHaveCount(0);
  await expect(page.getByTestId('count-arcs')).toHaveText('3');
  await expect(page.getByTestId('count-calls')).toHaveText('(2 tool calls + 1 second result)');
});

test('a Gemini CLI log that ends on the reply is history (no G7, as A12 on a Claude Code log); its row numbers are explained by the count', async ({
  page,
}) => {
  const session = {
    sessionId: 's1',
    projectHash: 'p',
    messages: [
      { id: 'u1', type: 'user', content: 'List the files.' },
      {
        id: 'g1',
        type: 'gemini',
        model: 'gemini-2.5-flash',
        content: 'Listing.',
        toolCalls: [
          {
            id: 'ls-1',
            name: 'list_directory',
            args: { path: '.' },
            status: 'success',
            result: [
              {
                functionResponse: {
                  id: 'ls-1',
                  name: 'list_directory',
                  response: { output: 'NOTES.md' },
                },
              },
            ],
          },
        ],
      },
      { id: 'g2', type: 'gemini', model: 'gemini-2.5-flash', content: 'One file: NOTES.md.' },
    ],
  };
  await openDefault(page);
  await paste(page, JSON.stringify(session, null, 2));
  await expect(page.getByTestId('format')).toHaveText('gemini-cli');
  await expect(page.getByTestId('count-messages')).toHaveText('4');
  await expect(page.locator('[data-testid="violation"]')).toHaveCount(0);
  await expect(page.locator('ul.notes')).toContainText(
    'This is a session log: its last assistant message is history, not a prefill, so G7 was not checked.',
  );
  await expect(page.getByTestId('count-numbered')).toHaveText(
    "(numbered as the source's 3: #N.1, #N.2 are rows of one)",
  );
});

test('"pick a Claude model id" can be followed: a Model picker where the rules depend on the model, carried by the link', async ({
  page,
}) => {
  const body = {
    messages: [
      { role: 'user', content: [{ text: 'Hi' }] },
      { role: 'assistant', content: [{ text: 'Hello' }] },
    ],
  };
  await openDefault(page);
  await paste(page, JSON.stringify(body, null, 2));
  await expect(page.getByTestId('format')).toHaveText('bedrock-converse');
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-valid', 'true');
  await expect(page.locator('ul.notes')).toContainText(
    'pick a Claude model id under Model, or --model, to see them',
  );
  const picker = page.getByTestId('model-select');
  await expect(picker).toBeVisible();
  await picker.fill('anthropic.claude-opus-4-6-v1');
  await picker.press('Enter');
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-valid', 'false');
  await expect(page.locator('[data-testid="violation"][data-rank="first"]')).toHaveAttribute(
    'data-rule',
    'trailing_assistant',
  );
  await expect(page.locator('ul.warnings')).toContainText(
    'Judged as model anthropic.claude-opus-4-6-v1 (chosen under Model, --model); the input names no model.',
  );
  await expect
    .poll(() => page.evaluate(() => location.hash))
    .toContain('m=anthropic.claude-opus-4-6-v1');
  // Opened from the link, the same model is chosen.
  await page.reload();
  await expect(page.getByTestId('model-select')).toHaveValue('anthropic.claude-opus-4-6-v1');
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-valid', 'false');
  // Cleared: the transcript's own (none named) again.
  await page.getByTestId('model-select').fill('');
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-valid', 'true');
});

test('no internal codes on screen: rule classes and repair changes are said in words', async ({
  page,
}) => {
  const codes = /orphan_tool_result|partial_answer|orphan_removed|error_result_added/;
  await openDefault(page);
  for (const sample of ['broken-orphan-after-trim', 'broken-partial-answer']) {
    await page.getByTestId('sample-select').selectOption(sample);
    await expect(page.getByTestId('verdict')).toHaveAttribute('data-valid', 'false');
    await page.getByTestId('budget-input').fill('60');
    await page.getByTestId('budget-input').press('Enter');
    await page.getByTestId('repair-all').click();
    await expect(page.getByTestId('repair-changes').locator('li').first()).toBeVisible();
    expect(await page.locator('body').innerText()).not.toMatch(codes);
  }
  await expect(page.getByTestId('repair-changes')).toContainText('error result added');
});

test('the filters say on screen that they dim the other rows; the leading band does not say "user message" over a user row', async ({
  page,
}) => {
  await openDefault(page);
  await expect(page.getByTestId('filters-label')).toHaveText('Highlight (others dimmed):');
  await expect(page.getByTestId('filters-label')).toBeVisible();
  // A trimmed transcript that starts with a tool result (a user row) before the first prompt.
  const body = {
    model: 'claude-opus-4-7',
    messages: [
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't0', content: 'ok' }] },
      { role: 'assistant', content: 'Done.' },
      { role: 'user', content: 'Next?' },
    ],
  };
  await paste(page, JSON.stringify(body, null, 2));
  const band = page.getByTestId('band').first();
  await expect(band).toContainText(
    'Before the first user prompt: the transcript starts mid-exchange',
  );
  await expect(band).not.toContainText('Before the first user message');
});

test('the JSON error caret points at the text, not at an empty line after it', async ({ page }) => {
  await openDefault(page);
  await paste(page, '{\n  "messages": [\n    {"role": "user", "content": "hi"}\n\n\n');
  await expect(page.getByTestId('parse-error-location')).toContainText('line 3');
  await expect(page.getByTestId('parse-error-line')).toContainText(
    '{"role": "user", "content": "hi"}',
  );
});

test('a skip link, the first Tab stop, moves the focus to the timeline', async ({ page }) => {
  await openDefault(page);
  await page.keyboard.press('Tab');
  const skip = page.getByTestId('skip-link');
  await expect(skip).toBeFocused();
  await expect(skip).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page.locator('[data-testid="timeline"] .msg-row:focus')).toHaveCount(1);
});

test.describe('the simulator at 1440×900', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('the sweep chart has a y scale and a readout on hover; the parts below the chart are named above it and one click away', async ({
    page,
  }) => {
    await openApp(page, '/#v=1&src=coding-agent&b=1000');
    const chart = page.getByTestId('sweep-chart');
    await expect(chart).toBeVisible();
    const yTicks = page.getByTestId('sweep-ytick');
    await expect(yTicks).toHaveCount(2);
    await expect(yTicks.last()).toHaveText('0');
    const readout = page.getByTestId('sweep-readout');
    await expect(readout).toContainText('Budget 1,000 tokens: message');
    await chart.hover({ position: { x: 300, y: 40 } });
    await expect(readout).toContainText(
      /^At [\d,]+ tokens: message (valid|HTTP 400), keeps [\d,]+/,
    );
    await expect(readout).toContainText('(click to choose this budget)');
    // What is below the chart is said above it, where it is seen without scrolling.
    await expect(page.getByTestId('sweep-contents')).toBeInViewport();
    await page
      .getByTestId('sweep-contents')
      .getByRole('button', { name: 'rate calculator' })
      .click();
    await expect(page.getByTestId('sweep-table')).toBeInViewport();
    await expect(page.getByTestId('exchange-overshoot')).toBeInViewport();
    await expect(page.getByTestId('rate-calc')).toBeInViewport();
  });

  test('a click on a red cut dot selects that cut: the budget becomes the one that cuts there', async ({
    page,
  }) => {
    await openApp(page, '/#v=1&src=coding-agent&b=1000');
    // The exact counts first: a cut's budget is a number of tokens, and the estimate's budget for
    // a cut cuts elsewhere once the exact counts arrive (under load, after the click).
    await expect(page.getByTestId('token-basis')).toContainText('o200k_base');
    const red = page.locator('[data-testid="cut-marker"][data-safe="false"]').first();
    await expect(red).toBeVisible();
    const k = Number(await red.getAttribute('data-cut'));
    await red.hover();
    await expect(page.getByTestId('cut-select-hint')).toContainText(
      'Click (or Enter) to select this cut',
    );
    await red.click();
    await expect(page.getByTestId('budget-input')).not.toHaveValue('1000');
    const lane = (m: number) =>
      page.locator(`[data-message-index="${m}"] [data-testid="evict-lane"][data-policy="message"]`);
    await expect(lane(k - 1)).toHaveAttribute('data-evicted', 'true');
    await expect(lane(k)).toHaveAttribute('data-evicted', 'false');
  });
});

test('the first screen says its sample gets no 400 and shows a broken one on request; counts are labelled estimates until exact', async ({
  page,
  context,
}) => {
  let release: () => void = () => {};
  const released = new Promise<void>((r) => (release = r));
  await context.route(/o200k_base-[^/]*\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  await openApp(page);
  // Before the exact counts: every figure is said to be an estimate.
  const basis = page.getByTestId('token-basis');
  await expect(basis).toHaveAttribute('data-estimate', 'true');
  await expect(basis).toContainText(/^≈[\d,]+ tokens, ≈ estimate/);
  await expect(basis).toContainText('the counts change when exact ones arrive');
  await expect(page.getByTestId('simulator-estimate')).toContainText(
    'estimates until the tokenizer loads',
  );
  release();
  // The sample is Claude's: still an estimate (≈), now from the o200k tokenizer, and final.
  await expect(basis).toContainText('o200k_base', { timeout: 30_000 });
  await expect(basis).not.toHaveAttribute('data-estimate', 'true');
  await expect(page.getByTestId('simulator-estimate')).toHaveCount(0);

  const hint = page.getByTestId('input-hint-sample');
  await expect(hint).toContainText('a valid request, no 400');
  await page.getByTestId('show-broken').click();
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-valid', 'false');
  await expect(page.getByTestId('input-hint-sample')).not.toContainText('a valid request');
});

test('the repair panel opens the repaired transcript in place, and Back to the original returns', async ({
  page,
}) => {
  await openDefault(page);
  await page.getByTestId('sample-select').selectOption('broken-orphan-after-trim');
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-valid', 'false');
  const before = await page.getByTestId('count-messages').innerText();
  await page.getByTestId('repair-all').click();
  await expect(page.getByTestId('repair-verdict')).toHaveAttribute('data-valid', 'true');
  await page.getByTestId('repair-open').click();
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-valid', 'true');
  await expect(page.getByTestId('repaired-note')).toContainText('Showing the repaired transcript');
  await expect(page.getByTestId('count-messages')).not.toHaveText(before);
  await page.getByTestId('repair-back').click();
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-valid', 'false');
  await expect(page.getByTestId('count-messages')).toHaveText(before);
  await expect(page.getByTestId('repaired-note')).toHaveCount(0);
});

test('a LiteLLM log is judged as it was sent: its logged response is a note, not the last turn', async ({
  page,
}) => {
  // A StandardLoggingPayload of an Anthropic pass-through call to a model without prefill: the
  // request ended on a tool result and got an answer.
  const payload = JSON.stringify({
    id: 'chatcmpl-1',
    call_type: 'anthropic_messages',
    status: 'success',
    model: 'claude-opus-4-7',
    response_cost: 0.002,
    messages: {
      model: 'claude-opus-4-7',
      max_tokens: 1024,
      tools: [{ name: 'ping', input_schema: { type: 'object' } }],
      messages: [
        { role: 'user', content: 'Is payments-db up?' },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'toolu_1', name: 'ping', input: { host: 'db' } }],
        },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'pong' }],
        },
      ],
    },
    response: {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      content: [{ type: 'text', text: 'payments-db is up.' }],
      stop_reason: 'end_turn',
    },
  });
  await openDefault(page);
  await dropFile(page, 'litellm.json', payload);
  const app = page.getByTestId('app');
  await expect(app).toHaveAttribute('data-view-chars', String(payload.length), { timeout: 30_000 });
  await expect(app).toHaveAttribute('data-ready', 'true', { timeout: 30_000 });
  await expect(page.getByTestId('format')).toHaveText('anthropic-messages');
  await expect(page.getByTestId('count-messages')).toHaveText('3');
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-valid', 'true');
  await expect(
    page.locator('[data-testid="violation"][data-rule="trailing_assistant"]'),
  ).toHaveCount(0);
  await expect(page.locator('ul.warnings')).toContainText(
    'The logged response is what this request returned; it is not appended, so the request is judged as it was sent.',
  );
  await expect(page.getByText('payments-db is up.')).toHaveCount(0);
});

/** Every rule class and repair kind id, and the checked fetch's outcomes, as whole words. */
const INTERNAL = new RegExp(
  `\\b(${[...RULE_IDS, ...REPAIR_KINDS, 'sent-repaired', 'sent-anyway', 'answered-400', 'sent-unchecked'].join('|')})\\b`,
);

/** The page's visible text and its titles and accessible names, where a code would show. */
async function shownText(page: Page): Promise<string> {
  const text = await page.locator('body').innerText();
  const attrs = await page
    .locator('[title], [aria-label]')
    .evaluateAll((els) =>
      els.map((e) => `${e.getAttribute('title') ?? ''} ${e.getAttribute('aria-label') ?? ''}`),
    );
  return `${text}\n${attrs.join('\n')}`;
}

test('no internal codes on screen: a checked-fetch record’s notes, the strip, and the diff of a compacted call', async ({
  page,
}) => {
  const record = readFileSync(
    path.resolve(import.meta.dirname, '../public/samples/fetch-record.jsonl'),
    'utf8',
  );
  await openDefault(page);
  await dropFile(page, 'calls.jsonl', record);
  await expect(requestMarks(page)).toHaveCount(5);
  for (let i = 0; i < 5; i++) {
    await pickRequest(page, i);
    await expect(page.locator('ul.warnings')).toContainText(`Call ${i + 1} of 5`);
    expect(await shownText(page)).not.toMatch(INTERNAL);
  }
  await expect(page.locator('ul.warnings')).toContainText('invalid, sent anyway (warn mode)');
  await pickRequest(page, 3);
  await expect(page.locator('ul.warnings')).toContainText(
    'inserted (only some parallel calls answered: call_w2)',
  );

  const log = compactedSessionLog();
  await dropFile(page, 'session.jsonl', log);
  await expect(page.getByTestId('app')).toHaveAttribute('data-view-chars', String(log.length), {
    timeout: 30_000,
  });
  await page.getByTestId('strip-first-failing').click();
  await page.getByTestId('diff-previous').click();
  const broken = page.getByTestId('diff-broken-pair');
  await expect(broken).toHaveText([/toolu_04Edit \(A1: tool result with no call before it/]);
  expect(await shownText(page)).not.toMatch(INTERNAL);
});

test('a sample file of several requests is not called "a valid request, no 400" when the one shown is valid', async ({
  page,
}) => {
  await openDefault(page);
  await expect(page.getByTestId('input-hint-sample')).toContainText('a valid request, no 400');
  await page.getByTestId('sample-select').selectOption('fetch-record');
  await expect(requestMarks(page)).toHaveCount(5);
  await pickRequest(page, 3);
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-valid', 'true');
  await expect(page.getByTestId('input-hint-sample')).toContainText('Checked-fetch record');
  await expect(page.getByTestId('input-hint-sample')).not.toContainText('a valid request');
});
