import { expect, test, type Page } from '@playwright/test';
import { deflateSync } from 'fflate';
import { base64url, openApp, saveDownload } from './helpers.ts';

/** Wait until the page counts with its tokenizer (not the chars/4 stand-in shown while it loads). */
async function tokenizerReady(page: Page) {
  await expect(page.getByTestId('token-basis')).not.toContainText('loading');
}

test.describe('permalink', () => {
  test('a copied link reproduces provider, budget, policies and selection in a new page', async ({
    page,
    context,
  }) => {
    await openApp(page, '/#v=1&src=coding-agent&b=5000&p=exchange&p2=turn-pair');
    await expect(page.getByTestId('count-exchanges')).toHaveText('9');
    await page.getByTestId('provider-select').selectOption('openai-chat');
    await page.locator('[data-message-index="5"]').first().click();
    // The URL follows the store (debounced replaceState), without a new history entry per change.
    await expect(page).toHaveURL(/pr=openai-chat/);
    await expect(page).toHaveURL(/sel=m5/);

    await page.getByTestId('share-open').click();
    const link = await page.getByTestId('share-link').inputValue();
    for (const part of [
      'src=coding-agent',
      'b=5000',
      'p=exchange',
      'p2=turn-pair',
      'pr=openai-chat',
      'sel=m5',
    ])
      expect(link).toContain(part);
    await expect(page.getByTestId('share-link-length')).toContainText(`${link.length} characters`);

    const other = await context.newPage();
    await openApp(other, link);
    await expect(other.getByTestId('sample-select')).toHaveValue('coding-agent');
    await expect(other.getByTestId('provider-select')).toHaveValue('openai-chat');
    await expect(other.getByTestId('count-exchanges')).toHaveText('9');
    await expect(other.locator('[data-message-index="5"][aria-selected="true"]')).toHaveCount(1);
    await expect(other.locator('[aria-selected="true"]')).toHaveCount(1);
    await expect(other).toHaveURL(/b=5000/);
    await expect(other).toHaveURL(/p2=turn-pair/);
    await expect(other.getByTestId('permalink-notices')).toHaveCount(0);
  });

  test('garbage in the fragment gives a notice and the page still works', async ({ page }) => {
    await openApp(page, '/#v=1&b=lots&pr=nope&sel=%25%25&at=17&zz=1');
    await expect(page.getByTestId('permalink-notices')).toContainText('Ignored the budget');
    await expect(page.getByTestId('permalink-notices')).toContainText('Ignored the provider');
    // Something was ignored: marked as a problem, unlike a note on what a link shows.
    await expect(page.getByTestId('permalink-notices')).toHaveAttribute('data-tone', 'problem');
    await expect(page.getByTestId('count-exchanges')).toHaveText('1');
    await expect(page.getByTestId('provider-select')).toHaveValue('');
  });

  test('a link the page cannot read does not ask for the transcript it was made for', async ({
    page,
  }) => {
    for (const hash of ['#v=1&learn=nope', '#v=1&t=1.d.AAAAgarbage']) {
      await page.goto(`/${hash}`);
      await expect(page.getByTestId('permalink-notices'), hash).toBeVisible();
      await expect(page.getByTestId('loading'), hash).toHaveText(
        'No transcript: this link could not be read (see the note above). Paste (Ctrl/Cmd+V) or drop a transcript anywhere on the page, or choose a sample.',
      );
    }
  });

  test('a decompression bomb is refused with a notice and the page still works', async ({
    page,
  }) => {
    // 32 MiB of zeros deflate to ~32 KB; the page refuses anything that inflates past 16 MiB.
    const bomb = base64url(deflateSync(new Uint8Array(32 * 1024 * 1024), { level: 9 }));
    await page.goto(`/#v=1&t=1.d.${bomb}&b=900`);
    await expect(page.getByTestId('permalink-notices')).toContainText('decompression bomb');
    // No sample passes for the refused transcript; the link's view stays in the address.
    await expect(page.getByTestId('permalink-notices')).toContainText('No transcript is shown');
    await expect(page).toHaveURL(/b=900/);
    await expect(page).not.toHaveURL(/src=/);
    // The page still works: a sample opens on request.
    await page.getByTestId('permalink-show-sample').click();
    await expect(page.getByTestId('count-exchanges')).toHaveText('1');
  });

  test('a structure-only link reproduces the view with no original content, and no other origin is contacted', async ({
    page,
    context,
    baseURL,
  }) => {
    const foreign: string[] = [];
    context.on('request', (r) => {
      const url = r.url();
      if (
        !url.startsWith(baseURL ?? 'http://127.0.0.1') &&
        !url.startsWith('blob:') &&
        !url.startsWith('data:')
      )
        foreign.push(url);
    });
    await openApp(page, '/#v=1&src=broken-partial-answer');
    const counts = async (p: Page) =>
      Promise.all(
        ['count-messages', 'count-exchanges', 'count-arcs', 'count-broken'].map((id) =>
          p.getByTestId(id).innerText(),
        ),
      );
    const before = await counts(page);
    const verdict = await page.getByTestId('verdict').innerText();
    const original = await page.getByTestId('summary').innerText();
    expect(original.length).toBeGreaterThan(0);

    await page.getByTestId('share-open').click();
    await page.getByTestId('share-hide-names').check();
    const link = await page.getByTestId('structure-link').inputValue();
    expect(link).toContain('r=1');
    const preview = await page.getByTestId('structure-preview').textContent();
    expect(preview).toMatch(/x{1,4}( x{1,4})+/);

    const other = await context.newPage();
    await openApp(other, link);
    expect(await counts(other)).toEqual(before);
    await expect(other.getByTestId('verdict')).toHaveAttribute('data-valid', 'false');
    expect(verdict.length).toBeGreaterThan(0);
    // No word of five letters or more from the sample's texts survives.
    const sampleText = await (await page.request.get('samples/broken-partial-answer.json')).text();
    const body = JSON.parse(sampleText) as { system?: string; messages: { content: unknown }[] };
    const words = new Set<string>();
    const collect = (v: unknown, key?: string): void => {
      // Tool names count as content here: the link was made with "Hide tool names".
      if (
        typeof v === 'string' &&
        key !== 'type' &&
        key !== 'role' &&
        key !== 'id' &&
        key !== 'tool_use_id'
      )
        for (const w of v.match(/[A-Za-z0-9-]{5,}/g) ?? []) words.add(w);
      else if (Array.isArray(v)) v.forEach((x) => collect(x, key));
      else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) collect(x, k);
    };
    collect(body.system);
    collect(body.messages);
    // Role names are the page's own labels, not content.
    words.delete('assistant');
    expect(words.size).toBeGreaterThan(5);
    const shown = await other.locator('body').innerText();
    await other.getByTestId('toggle-text').click();
    const source = await other.getByTestId('source-text').inputValue();
    for (const w of words) {
      expect(shown).not.toContain(w);
      expect(source).not.toContain(w);
    }
    expect(foreign).toEqual([]);
  });
  test('exports: kept request, Markdown summary, timeline SVG and PNG open as their formats', async ({
    page,
  }) => {
    await openApp(page, '/#v=1&src=coding-agent&b=900&p=message');
    await page.getByTestId('share-open').click();
    const save = (testId: string) => saveDownload(page, testId);
    const kept = await save('export-kept');
    expect(kept.name).toMatch(/^coding-agent\.message-900\.json$/);
    const body = JSON.parse(kept.bytes.toString('utf8')) as { model?: string; messages: unknown[] };
    expect(body.model).toBeTruthy();
    expect(body.messages.length).toBeGreaterThan(0);
    expect(body.messages.length).toBeLessThan(50);

    const md = (await save('export-summary')).bytes.toString('utf8');
    expect(md).toMatch(/^# Transcript incident summary/);
    expect(md).toContain('- Chosen: policy `message` at a budget of 900 tokens');
    expect(md).toContain('- Exchange-level alternative: policy `exchange`');
    // Issue 15: by default the summary is of the structure-only copy, with its link and a
    // sentence saying what the link holds; the transcript goes in only when ticked in.
    expect(md).toContain('This link opens a structure-only copy');
    expect(md).not.toContain('src=coding-agent');
    await expect(page.getByTestId('summary-link-note')).toContainText('structure-only copy');
    await page.getByTestId('summary-include-transcript').check();
    await expect(page.getByTestId('summary-link-note')).toContainText('whole transcript');
    const full = (await save('export-summary')).bytes.toString('utf8');
    expect(full).toContain('src=coding-agent');

    const svg = (await save('export-svg')).bytes.toString('utf8');
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg.match(/data-arc-id=/g)?.length).toBe(19);

    const png = (await save('export-png')).bytes;
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(png.length).toBeGreaterThan(1000);
  });
  test('issue 6 follow-up: a faulted view survives Copy link; no key is written unset (no learn=undefined)', async ({
    page,
    context,
  }) => {
    await openApp(page, '/#v=1&src=coding-agent');
    await tokenizerReady(page);
    const tokensBefore = await page.getByTestId('token-basis').innerText();
    await page.locator('[data-arc-id="p0"]').dispatchEvent('click');
    await page.getByTestId('fault-timeout').first().click();
    await expect(page.getByTestId('fault-applied')).toHaveCount(1);
    // The fault is listed from the store at once; the counts come with the engine's answer.
    await expect(page.getByTestId('app')).toHaveAttribute('data-ready', 'true');
    const broken = await page.getByTestId('count-broken').innerText();
    expect(Number(broken)).toBeGreaterThan(0);
    const counts = async (p: Page) =>
      Promise.all(
        ['count-messages', 'count-exchanges', 'count-arcs', 'count-broken', 'token-basis'].map(
          (id) => p.getByTestId(id).innerText(),
        ),
      );
    await tokenizerReady(page);
    const before = await counts(page);
    expect(before[4]).not.toEqual(tokensBefore);

    await page.getByTestId('share-open').click();
    const link = await page.getByTestId('share-link').inputValue();
    const structure = await page.getByTestId('structure-link').inputValue();
    for (const l of [link, structure]) {
      expect(l).not.toContain('undefined');
      expect(l).not.toContain('learn=');
    }
    expect(link).toMatch(/[#&]fx=/);
    // The structure-only text is the view as shown (the fault already applied): no fx= on top.
    expect(structure).not.toMatch(/[#&]fx=/);
    // The address bar carries the faults too.
    await expect(page).toHaveURL(/fx=/);

    const other = await context.newPage();
    await openApp(other, link);
    await tokenizerReady(other);
    await expect(other.getByTestId('fault-applied')).toHaveCount(1);
    expect(await counts(other)).toEqual(before);
    await expect(other.getByTestId('permalink-notices')).toHaveCount(0);
    await expect(other.getByTestId('learn-panel')).toHaveCount(0);
  });

  test('issue 6 follow-up: the structure-only link of a faulted view keeps model, token counts and verdicts', async ({
    page,
    context,
  }) => {
    await openApp(page, '/#v=1&src=coding-agent');
    await page.locator('[data-arc-id="p0"]').dispatchEvent('click');
    await page.getByTestId('fault-timeout').first().click();
    await expect(page.getByTestId('fault-applied')).toHaveCount(1);
    // The fault is listed from the store at once; the counts come with the engine's answer.
    await expect(page.getByTestId('app')).toHaveAttribute('data-ready', 'true');
    await tokenizerReady(page);
    const counts = async (p: Page) =>
      Promise.all(
        ['count-messages', 'count-exchanges', 'count-arcs', 'count-broken', 'token-basis'].map(
          (id) => p.getByTestId(id).innerText(),
        ),
      );
    const before = await counts(page);
    const violations = await page.getByTestId('violations').innerText();
    expect(violations).not.toContain('were not checked');
    await page.getByTestId('share-open').click();
    const structure = await page.getByTestId('structure-link').inputValue();
    const preview = (await page.getByTestId('structure-preview').textContent()) ?? '';
    expect(preview).toContain('"model"');

    const other = await context.newPage();
    await openApp(other, structure);
    await tokenizerReady(other);
    expect(await counts(other)).toEqual(before);
    await expect(other.getByTestId('violations')).not.toContainText('were not checked');
    await other.getByTestId('toggle-text').click();
    const source = await other.getByTestId('source-text').inputValue();
    const model = /"model":\s*"([^"]+)"/.exec(preview)?.[1];
    expect(model).toBeTruthy();
    expect(source).toMatch(new RegExp(`"model":\\s*"${model ?? ''}"`));
  });

  test('issue 6 follow-up: the address bar follows keyboard moves and Esc at once (latest state)', async ({
    page,
  }) => {
    await openApp(page, '/#v=1&src=coding-agent');
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await expect(page.locator('[data-message-index="2"][aria-selected="true"]')).toHaveCount(1);
    await expect(page).toHaveURL(/sel=m2(&|$)/);
    await page.keyboard.press('Escape');
    await expect(page.locator('[aria-selected="true"]')).toHaveCount(0);
    await expect(page).not.toHaveURL(/sel=/);
  });

  test('issue 6 follow-up: the Share popover closes on Esc and on a click outside, and leaves the verdict visible', async ({
    page,
  }) => {
    await openApp(page, '/#v=1&src=broken-partial-answer&sel=m1');
    await expect(page.locator('[aria-selected="true"]')).toHaveCount(1);
    await page.getByTestId('share-open').click();
    const panel = page.getByTestId('share-panel');
    await expect(panel).toBeVisible();
    const verdict = page.getByTestId('verdict').first();
    const pb = await panel.boundingBox();
    const vb = await verdict.boundingBox();
    expect(pb && vb).toBeTruthy();
    if (pb && vb) {
      const overlap =
        pb.x < vb.x + vb.width &&
        vb.x < pb.x + pb.width &&
        pb.y < vb.y + vb.height &&
        vb.y < pb.y + pb.height;
      expect(overlap).toBe(false);
    }
    await page.keyboard.press('Escape');
    await expect(panel).toHaveCount(0);
    await expect(page.getByTestId('share-open')).toHaveAttribute('aria-expanded', 'false');
    // That Esc closed the popover only: the selection stays.
    await expect(page.locator('[aria-selected="true"]')).toHaveCount(1);
    await page.getByTestId('share-open').click();
    await expect(panel).toBeVisible();
    // A click outside (on the verdict, which the panel leaves uncovered) closes it.
    await page.getByTestId('verdict').first().click();
    await expect(panel).toHaveCount(0);
    // A click inside the panel keeps it open.
    await page.getByTestId('share-open').click();
    await panel.getByRole('heading', { name: 'Link to this view' }).click();
    await expect(panel).toBeVisible();
  });
});
