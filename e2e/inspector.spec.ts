import { expect, test } from '@playwright/test';
import { lateResult, partialCodingAgent, sample } from './fixtures.ts';
import { dropFile, openDefault, paste } from './helpers.ts';

test.describe('inspector page', () => {
  test('opens with the invoice sample: one exchange, two arcs, valid', async ({ page }) => {
    await openDefault(page);
    await expect(page.getByTestId('sample-select')).toHaveValue('invoice');
    await expect(page.getByTestId('count-arcs')).toHaveText('2');
    await expect(page.getByTestId('count-broken')).toHaveText('0');
    await expect(page.locator('[data-arc-id]')).toHaveCount(2);
    await expect(page.locator('[data-arc-id][data-status="answered"]')).toHaveCount(2);
    await expect(page.getByTestId('verdict')).toHaveText(
      'Valid: Anthropic Messages would accept this request.',
    );
    await expect(page.locator('[data-message-index]')).toHaveCount(3);
    await expect(page.getByTestId('band')).toContainText('Exchange 1');
    await expect(page.getByTestId('band')).toContainText('3 messages');
    // The request ends where a real one does, on the tool results sent for the answer: its
    // verdict carries no note about a trailing assistant message read as a prefill.
    await expect(page.getByText(/prefill/)).toHaveCount(0);
    await expect(page.getByTestId('pinned-system')).toContainText('billing assistant');
    // The header's selects say their choice on hover too: what "Auto (…)" does, in words.
    await expect(page.getByTestId('sample-select')).toHaveAttribute(
      'title',
      'Invoice lookup (parallel calls)',
    );
    await expect(page.getByTestId('format-select')).toHaveAttribute(
      'title',
      'Detect (Anthropic Messages)',
    );
    await expect(page.getByTestId('provider-select')).toHaveAttribute(
      'title',
      /^Follow the input \(Anthropic/,
    );
    for (const id of ['format-select', 'provider-select'])
      await expect(page.getByTestId(id).locator('option').first()).toHaveText(
        'Auto (Anthropic Messages)',
      );
    await page.getByTestId('provider-select').selectOption('openai-chat');
    await expect(page.getByTestId('provider-select')).toHaveAttribute('title', /OpenAI/);
  });

  test('loads the coding-agent sample from the menu: exchanges, arcs, virtualized rows', async ({
    page,
  }) => {
    await openDefault(page);
    await page.getByTestId('sample-select').selectOption('coding-agent');
    await expect(page.getByTestId('count-exchanges')).toHaveText('9');
    await expect(page.getByTestId('count-arcs')).toHaveText('19');
    await expect(page.getByTestId('verdict')).toHaveAttribute('data-valid', 'true');
    // 50 messages + 9 band rows; only the visible window (plus overscan) is mounted.
    const mounted = await page.locator('[data-index]').count();
    expect(mounted).toBeGreaterThan(5);
    expect(mounted).toBeLessThan(59);
  });

  test('paste a broken transcript: exact error text and red arcs', async ({ page }) => {
    await openDefault(page);
    await paste(page, sample('broken-unanswered-after-cancel.json'));
    await expect(page.getByTestId('verdict')).toHaveAttribute('data-valid', 'false');
    const first = page.getByTestId('violation').first();
    await expect(first.getByTestId('violation-rank')).toHaveText('the error this request gets');
    await expect(first.getByTestId('error-body')).toContainText(
      '"message": "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_01CanDocs4k, toolu_01CanWheel9p. Each `tool_use` block must have a corresponding `tool_result` block in the next message."',
    );
    await expect(
      page.locator('[data-arc-id][data-status="unanswered"][data-broken="true"]'),
    ).toHaveCount(2);
    await expect(page.locator('[data-arc-id][data-broken="true"] .arc-line').first()).toHaveCSS(
      'stroke',
      'rgb(217, 45, 32)',
    );
  });

  test('the copy button puts the exact error body on the clipboard', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await openDefault(page);
    await page.getByTestId('sample-select').selectOption('broken-orphan-after-trim');
    await expect(page.getByTestId('verdict')).toHaveAttribute('data-valid', 'false');
    await page.getByTestId('copy-error').first().click();
    await expect(page.getByTestId('copy-error').first()).toHaveText('Copied');
    const copied = JSON.parse(await page.evaluate(() => navigator.clipboard.readText())) as {
      error: { message: string };
    };
    expect(copied.error.message).toBe(
      "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
    );
  });

  test('a partial answer shows which sibling is missing', async ({ page }) => {
    await openDefault(page);
    await page.getByTestId('sample-select').selectOption('broken-partial-answer');
    await expect(
      page.locator('[data-arc-id][data-status="unanswered"][data-partial="true"]'),
    ).toHaveCount(1);
    await expect(page.locator('[data-arc-id][data-status="answered"]')).toHaveCount(1);
    await expect(page.locator('[data-testid="chip"].broken')).toContainText(
      'toolu_01PartCus8d — missing result (its sibling was answered)',
    );
  });

  test('drop a file: the orphan result after a trim, with the exact OpenAI text', async ({
    page,
  }) => {
    await openDefault(page);
    await dropFile(page, 'trimmed.json', sample('broken-orphan-after-trim.json'));
    await expect(page.getByTestId('format')).toHaveText('openai-chat');
    await expect(page.getByTestId('count-broken')).toHaveText('1');
    await expect(page.locator('[data-arc-id][data-status="orphan"]')).toHaveCount(1);
    await expect(page.getByTestId('error-body').first()).toContainText(
      "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
    );
  });

  test('drop a file that is not text: says so and keeps the transcript', async ({ page }) => {
    await openDefault(page);
    await dropFile(page, 'photo.json', [0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x01]);
    await expect(page.getByTestId('parse-error')).toContainText('Not a text file');
    await expect(page.getByTestId('parse-error')).toContainText('NUL byte');
    await expect(page.getByTestId('count-arcs')).toHaveText('2');
  });

  test('an empty file or a cleared text box says there is nothing to read and keeps the transcript', async ({
    page,
  }) => {
    await openDefault(page);
    await dropFile(page, 'empty.json', '');
    await expect(page.getByTestId('parse-error')).toContainText('Nothing to read');
    await expect(page.getByTestId('parse-error')).toContainText('empty.json: the file is empty');
    await expect(page.getByTestId('count-arcs')).toHaveText('2');
    await paste(page, '{"messages": [{"role": "user", "content": "hi"}]}');
    await expect(page.getByTestId('parse-error')).toHaveCount(0);
    await expect(page.getByTestId('count-arcs')).toHaveText('0');
    await page.getByRole('button', { name: 'Edit text' }).click();
    await page.getByTestId('source-text').fill('');
    await expect(page.getByTestId('parse-error')).toContainText('The text box is empty');
    await expect(page.getByTestId('count-messages')).toHaveText('1');
  });

  test('paste invalid JSON: line, column and line text; the text stays and the last transcript too', async ({
    page,
  }) => {
    await openDefault(page);
    const bad = '{\n  "messages": [\n    {"role": "user" "content": "hi"}\n  ]\n}';
    await paste(page, bad);
    await expect(page.getByTestId('parse-error-location')).toHaveText(/line 3, column \d+/);
    await expect(page.getByTestId('parse-error-line')).toContainText(
      '{"role": "user" "content": "hi"}',
    );
    await expect(page.getByTestId('source-text')).toHaveValue(bad);
    await expect(page.getByTestId('count-arcs')).toHaveText('2');
    // Fixing the text in place replaces the transcript.
    await page
      .getByTestId('source-text')
      .fill(bad.replace('"user" "content"', '"user", "content"'));
    await expect(page.getByTestId('parse-error')).toHaveCount(0);
    await expect(page.getByTestId('count-messages')).toHaveText('1');
  });

  test('changing the provider re-validates at once', async ({ page }) => {
    await openDefault(page);
    await page.getByTestId('sample-select').selectOption('broken-orphan-after-trim');
    await expect(page.getByTestId('provider')).toHaveText('openai-chat');
    await page.getByTestId('provider-select').selectOption('anthropic');
    await expect(page.getByTestId('provider')).toHaveText('anthropic');
    await expect(page.getByTestId('verdict')).toContainText('Anthropic Messages');
  });

  test('changing the provider keeps the scroll position', async ({ page }) => {
    await openDefault(page);
    await page.getByTestId('sample-select').selectOption('coding-agent');
    await expect(page.getByTestId('count-exchanges')).toHaveText('9');
    const timeline = page.getByTestId('timeline');
    await timeline.evaluate((el) => el.scrollTo({ top: 700 }));
    await expect(page.getByTestId('app')).toHaveAttribute('data-ready', 'true');
    const before = await timeline.evaluate((el) => el.scrollTop);
    expect(before).toBeGreaterThan(600);
    await page.getByTestId('provider-select').selectOption('openai-chat');
    await expect(page.getByTestId('provider')).toHaveText('openai-chat');
    await expect(page.getByTestId('app')).toHaveAttribute('data-ready', 'true');
    await expect.poll(() => timeline.evaluate((el) => el.scrollTop)).toBe(before);
  });

  test('keyboard: j/k, J, Enter, and n reaches the next violation off screen', async ({ page }) => {
    await openDefault(page);
    const { text, message } = partialCodingAgent();
    await paste(page, text);
    await expect(page.getByTestId('count-exchanges')).toHaveText('9');
    await page.keyboard.press('j');
    await expect(page.locator('[data-message-index="0"] .msg')).toHaveClass(/selected/);
    await page.keyboard.press('j');
    await expect(page.locator('[data-message-index="1"] .msg')).toHaveClass(/selected/);
    await page.keyboard.press('k');
    await expect(page.locator('[data-message-index="0"] .msg')).toHaveClass(/selected/);
    await page.keyboard.press('Shift+J');
    await expect(page.locator('[data-message-index="6"] .msg')).toHaveClass(/selected/);
    await page.keyboard.press('Enter');
    await expect(
      page.locator('[data-message-index="6"] [data-testid="message-body"]'),
    ).toBeVisible();
    await page.keyboard.press('Enter');
    await expect(page.locator('[data-message-index="6"] [data-testid="message-body"]')).toHaveCount(
      0,
    );
    await page.keyboard.press('n');
    const target = page.locator(`[data-message-index="${message}"] .msg`);
    await expect(target).toHaveClass(/selected/);
    await expect(target).toBeInViewport();
    await expect(target).toHaveClass(/v-first/);
    // The violations panel marks the violation of the selected message.
    await expect(page.locator('[data-testid="violation"][aria-current="true"]')).toHaveAttribute(
      'data-rank',
      'first',
    );
    await page.keyboard.press('?');
    await expect(page.getByTestId('help')).toContainText('next / previous violation');
  });

  test('clicking an arc selects the pair and scrolls to its partner', async ({ page }) => {
    await openDefault(page);
    const { text, resultMessage } = lateResult();
    await paste(page, text);
    await expect(page.getByTestId('count-messages')).toHaveText(String(resultMessage + 1));
    await expect(page.getByTestId('token-basis')).toContainText('o200k_base');
    const arc = page.locator('[data-arc-id="p0"]');
    await expect(arc).toHaveAttribute('data-status', 'answered_late');
    await expect(arc.locator('.arc-stub')).toHaveCount(1);
    await expect(page.locator(`[data-message-index="${resultMessage}"]`)).not.toBeInViewport();
    // Click the arc where a user can: a point on its stroke that nothing covers (the bounding
    // box's centre may fall on a row's cut marker, which stacks above the arcs, issue 16).
    const point = await arc.locator('.arc-hit').evaluate((el) => {
      const hit = el as SVGPathElement;
      const len = hit.getTotalLength();
      const m = hit.getScreenCTM();
      if (!m) return null;
      for (let f = 0.05; f < 1; f += 0.05) {
        const pt = hit.getPointAtLength(len * f);
        const x = pt.x * m.a + m.e;
        const y = pt.y * m.d + m.f;
        if (y >= 0 && y < innerHeight && document.elementFromPoint(x, y) === hit) return { x, y };
      }
      return null;
    });
    expect(point, 'a visible, uncovered point on the arc').not.toBeNull();
    await page.mouse.click(point?.x ?? 0, point?.y ?? 0);
    await expect(arc).toHaveClass(/selected/);
    await expect(
      page.locator(`[data-message-index="${resultMessage}"] [data-testid="chip"].active`),
    ).toBeInViewport();
    // The selected pair's call row stays mounted (rangeExtractor) although it is off screen.
    await expect(page.locator('[data-message-index="1"] [data-testid="chip"].active')).toHaveCount(
      1,
    );
  });

  test('find steps through matches; filters dim rows but keep the arcs', async ({ page }) => {
    await openDefault(page);
    await page.getByTestId('find').fill('toolu_01CustLookup3Zb');
    await expect(page.getByTestId('find-count')).toHaveText('2 matches');
    await page.getByTestId('find').press('Enter');
    await expect(page.getByTestId('find-count')).toHaveText('1 of 2 matches');
    await expect(page.locator('[data-message-index="1"] .msg')).toHaveClass(/selected/);
    await expect(page.locator('[data-message-index="1"] [data-testid="chip"].match')).toHaveCount(
      1,
    );
    await page.getByTestId('filter-role-assistant').check();
    await expect(page.locator('[data-message-index="0"] .msg')).toHaveClass(/dimmed/);
    await expect(page.locator('[data-message-index="1"] .msg')).not.toHaveClass(/dimmed/);
    await expect(page.locator('[data-arc-id]')).toHaveCount(2);
  });

  test('the page makes no request to another origin', async ({ page, baseURL }) => {
    const origin = new URL(baseURL ?? 'http://127.0.0.1:4317/').origin;
    const foreign: string[] = [];
    page.on('request', (r) => {
      const u = new URL(r.url());
      if (u.protocol !== 'data:' && u.protocol !== 'blob:' && u.origin !== origin)
        foreign.push(r.url());
    });
    await openDefault(page);
    await page.getByTestId('sample-select').selectOption('coding-agent');
    await expect(page.getByTestId('count-exchanges')).toHaveText('9');
    await paste(page, sample('broken-orphan-after-trim.json'));
    await expect(page.getByTestId('count-broken')).toHaveText('1');
    // The exact tokenizer loads lazily from the page's own files.
    await expect(page.getByTestId('token-basis')).toContainText('o200k_base');
    expect(foreign).toEqual([]);
  });
});
