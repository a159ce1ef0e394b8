import { expect, test, type Page } from '@playwright/test';
import { openApp } from './helpers.ts';
import { sample } from './fixtures.ts';

// Narrow widths (newcomer report): on first view the timeline shows rows at every width, the
// stats line is below the toolbar and above the text area, and the simulator is collapsed below
// about 1200 px. Screenshots go to the test's output dir (look at them when changing the layout).

const WIDTHS = [1440, 1024, 800, 390];

async function overlaps(page: Page, a: string, b: string): Promise<boolean> {
  const ba = await page.locator(a).first().boundingBox();
  const bb = await page.locator(b).first().boundingBox();
  if (!ba || !bb) throw new Error(`no box for ${ba ? b : a}`);
  return (
    ba.x < bb.x + bb.width &&
    bb.x < ba.x + ba.width &&
    ba.y < bb.y + bb.height &&
    bb.y < ba.y + ba.height
  );
}

for (const width of WIDTHS) {
  test(`first view at ${width}×800: timeline rows (below the verdict when narrow), stats line clear`, async ({
    page,
  }, info) => {
    await page.setViewportSize({ width, height: 800 });
    await openApp(page);
    await expect(page.getByTestId('token-basis')).toContainText('o200k_base');
    await page.screenshot({ path: info.outputPath(`first-${width}.png`) });
    if (width < 900) {
      // Where the stats line wraps, the token basis reads whole on a line of its own (at 390 px
      // it was squeezed beside the counts to one cut word per line; newcomer).
      const basis = await page.getByTestId('token-basis').evaluate((el) => ({
        cut: el.scrollWidth > el.clientWidth + 1,
        width: el.getBoundingClientRect().width,
        line: (el.parentElement as HTMLElement).clientWidth,
      }));
      expect(basis.cut).toBe(false);
      expect(basis.width).toBeGreaterThan(basis.line * 0.8);
    }
    const sim = page.getByTestId('simulator');
    if (width < 1200) await expect(sim).not.toHaveAttribute('open');
    else await expect(sim).toHaveAttribute('open');
    const row = page.getByTestId('message-row').first();
    if (width < 900) {
      // Narrow screens put the verdict first (issue 16): it is on the first screen, and the
      // timeline's rows follow it on the page.
      await expect(page.getByTestId('violations')).toBeInViewport();
      const verdict = await page.getByTestId('violations').boundingBox();
      const first = await row.boundingBox();
      expect(verdict && first && first.y > verdict.y).toBe(true);
      await row.scrollIntoViewIfNeeded();
    }
    await expect(row).toBeInViewport();
    const box = await row.boundingBox();
    expect(box && box.y + Math.min(box.height, 24)).toBeLessThanOrEqual(800);
    expect(await overlaps(page, 'header.top', '[data-testid="summary"]')).toBe(false);
    // The collapsed simulator opens on a click, and the choice stays while the page lives.
    if (width < 1200) await sim.locator('summary').click();
    await expect(sim).toHaveAttribute('open');
    await page.screenshot({ path: info.outputPath(`simulator-open-${width}.png`) });
    // With the text area open the stats line is neither hidden nor overlapped.
    await page.getByTestId('toggle-text').click();
    await expect(page.getByTestId('source-text')).toBeVisible();
    await page.screenshot({ path: info.outputPath(`edit-text-${width}.png`) });
    expect(await overlaps(page, '[data-testid="source-text"]', '[data-testid="summary"]')).toBe(
      false,
    );
    expect(await overlaps(page, 'header.top', '[data-testid="summary"]')).toBe(false);
    // Narrow screens scroll as a page (the verdict first): the stats line is reached by scrolling.
    if (width < 900) await page.getByTestId('summary').scrollIntoViewIfNeeded();
    await expect(page.getByTestId('summary')).toBeInViewport();
  });
}

// A link's notice (something ignored, or what a view-only link shows) sits in the header: it must
// not push the Share button off the header's first row at desktop widths (found by a reviewer).
for (const width of [1440, 1280])
  test(`a link's notice at ${width}×800 leaves Share on the header's first row`, async ({
    page,
  }, info) => {
    await page.setViewportSize({ width, height: 800 });
    await openApp(page, '/#v=1&b=lots&pr=nope&sel=%25%25&at=17&zz=1');
    const notices = page.getByTestId('permalink-notices');
    await expect(notices).toContainText('Ignored the budget');
    await page.screenshot({ path: info.outputPath(`notice-${width}.png`) });
    const brand = await page.locator('header.top .brand').boundingBox();
    const share = await page.getByTestId('share-open').boundingBox();
    if (!brand || !share) throw new Error('no box for the title or Share');
    // On the title's row: the two boxes share some height.
    expect(share.y).toBeLessThan(brand.y + brand.height);
    expect(share.y + share.height).toBeGreaterThan(brand.y);
    await expect(page.getByTestId('share-open')).toBeInViewport({ ratio: 1 });
    await expect(notices).toBeInViewport();
    expect(
      await overlaps(page, '[data-testid="permalink-notices"]', '[data-testid="share-open"]'),
    ).toBe(false);
    expect(await overlaps(page, 'header.top', '[data-testid="summary"]')).toBe(false);
  });

// A summary policy's card says what it evicted and into what ("evicted 37 messages → one
// 500-token summary"): at 1440×900 that line was cut off at the card's edge (newcomer report).
test('at 1440×900 a summary policy card shows its whole text, wrapped inside the card', async ({
  page,
}, info) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openApp(page, '/#v=1&src=coding-agent&b=920&p2=summary');
  const card = page.locator('[data-testid="policy-card"][data-policy="summary"]');
  await expect(card.getByTestId('policy-evicted')).toContainText(/→ one [\d,]+-token summary$/);
  await page.screenshot({ path: info.outputPath('summary-card-1440.png') });
  for (const c of await page.getByTestId('policy-card').all()) {
    const cut = await c.evaluate((el) => {
      const box = el.getBoundingClientRect();
      const out: string[] = [];
      if (el.scrollWidth > el.clientWidth) out.push(`card ${el.scrollWidth} > ${el.clientWidth}`);
      for (const e of Array.from(el.querySelectorAll('dl, dd, dt'))) {
        const r = e.getBoundingClientRect();
        if (e.scrollWidth > e.clientWidth || r.right > box.right + 0.5)
          out.push(`${e.tagName} "${e.textContent ?? ''}" ends at ${r.right} > ${box.right}`);
      }
      return out;
    });
    expect(cut).toEqual([]);
  }
});

// A card is about 210 px wide at 1280 px (three columns): the primary card's "primary" ran past
// its edge under the next card ("prin" seen). Every part of a card's head stays inside the card,
// and each policy select shows its chosen name whole, at the widths around that layout.
for (const width of [1280, 1366]) {
  test(`at ${width}×800 each policy card's head stays inside its card, its policy named whole`, async ({
    page,
  }, info) => {
    await page.setViewportSize({ width, height: 800 });
    await openApp(page, '/#v=1&src=coding-agent&b=920&p2=provider-compaction');
    const card = page.locator('[data-testid="policy-card"][data-policy="provider-compaction"]');
    await expect(card).toBeVisible();
    await page.screenshot({ path: info.outputPath(`policy-cards-${width}.png`) });
    const cards = await page.getByTestId('policy-card').all();
    expect(cards).toHaveLength(2);
    for (const c of cards) {
      const found = await c.evaluate((el) => {
        const box = el.getBoundingClientRect();
        const out: string[] = [];
        const head = el.querySelector('.policy-head');
        if (!head) return ['no head'];
        for (const e of Array.from(head.children)) {
          const r = e.getBoundingClientRect();
          if (r.right > box.right + 0.5 || r.left < box.left - 0.5)
            out.push(
              `"${e.textContent ?? ''}" spans ${r.left}–${r.right} outside ${box.left}–${box.right}`,
            );
        }
        const s = head.querySelector('select');
        if (!s) return [...out, 'no select'];
        const copy = document.createElement('select');
        copy.style.width = 'auto';
        copy.style.minWidth = 'max-content';
        copy.style.position = 'absolute';
        copy.append(new Option(s.selectedOptions[0]?.textContent ?? ''));
        document.body.append(copy);
        const whole = copy.getBoundingClientRect().width;
        copy.remove();
        if (s.getBoundingClientRect().width < whole - 0.5)
          out.push(`select "${s.value}" ${s.getBoundingClientRect().width} < ${whole}`);
        return out;
      });
      expect(found).toEqual([]);
    }
    await expect(page.locator('.policy-role')).toHaveText('primary');
  });
}

// The stats line ends in the token basis, cut with an ellipsis at 1280 px ("≈ Claud…"); its
// hover said only "How the token counts were obtained" (newcomer report): it now says itself whole.
test('at 1280×800 the token basis, cut to fit the stats line, is whole in its title', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openApp(page);
  const basis = page.getByTestId('token-basis');
  // Once the exact count is in (text and title change together when the tokenizer loads; read
  // between the two they can differ for a frame).
  await expect(basis).toContainText('o200k_base');
  const text = ((await basis.textContent()) ?? '').trim();
  expect(await basis.getAttribute('title')).toContain(text);
});

/**
 * The header's controls and what its selects show: each control's box and, for each select, its
 * width beside the width the same select takes to show its chosen label whole (a one-option copy
 * of it, unbounded, in the same place).
 */
async function headerControls(page: Page) {
  return page.locator('header.top').evaluate((header) => {
    const shown = Array.from(header.querySelectorAll<HTMLElement>('button, select')).filter(
      (e) => e.offsetParent !== null,
    );
    const boxes = shown.map((e) => {
      const r = e.getBoundingClientRect();
      const name = e.dataset.testid ?? e.textContent ?? '';
      return { name, top: r.top, bottom: r.bottom, left: r.left, right: r.right };
    });
    const selects = Array.from(header.querySelectorAll('select'))
      .filter((s) => s.offsetParent !== null)
      .map((s) => {
        const label = s.selectedOptions[0]?.textContent ?? '';
        const copy = document.createElement('select');
        copy.className = s.className;
        copy.style.maxWidth = 'none';
        copy.style.width = 'auto';
        // Not shrunk by its flex row: the label's own width.
        copy.style.flexShrink = '0';
        copy.style.minWidth = 'max-content';
        copy.append(new Option(label));
        s.after(copy);
        const whole = copy.getBoundingClientRect().width;
        copy.remove();
        // What the title must hold: the chosen label, or its inner words for an "Auto (…)" one
        // (the title says "Detect (…)" or "Follow the input (…)").
        const titleWants = label.replace(/^Auto \((.*)\)$/, '$1');
        const title = s.title;
        return { label, width: s.getBoundingClientRect().width, whole, title, titleWants };
      });
    return { boxes, selects };
  });
}

/**
 * Open a Claude Code session log under `name` with the file picker, and wait until it is the
 * transcript shown (the file menu named after it, Follow offered).
 */
async function openSessionAs(page: Page, name: string): Promise<void> {
  await page.getByTestId('file-input').setInputFiles({
    name,
    mimeType: 'application/json',
    buffer: Buffer.from(sample('claude-code-session.jsonl')),
  });
  await expect(page.getByTestId('sample-select')).toHaveAttribute('title', `(file: ${name})`);
  await expect(page.getByTestId('app')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('follow-file')).toBeVisible();
}

/** The header's controls, with theme, help, Learn and Share among them, on one row. */
async function expectOneRow(page: Page, step: string) {
  const controls = await headerControls(page);
  const { boxes } = controls;
  for (const id of ['theme-toggle', 'help-button', 'learn-toggle', 'share-open'])
    expect(boxes.map((b) => b.name)).toContain(id);
  // One row: some horizontal line crosses every control.
  const lowestTop = Math.max(...boxes.map((b) => b.top));
  const highestBottom = Math.min(...boxes.map((b) => b.bottom));
  expect(lowestTop, `${step}: ${JSON.stringify(boxes)}`).toBeLessThan(highestBottom);
  return controls;
}

// The header at 1440 px (newcomer screenshots): the selects cut their labels ("Invoice looku…",
// "Follow the in…") and, with a file open, the theme and `?` buttons wrapped to a second row.
test('at 1440×800 the header is one row of controls and no select cuts its label, with a file open too', async ({
  page,
}, info) => {
  await page.setViewportSize({ width: 1440, height: 800 });
  await openApp(page);
  for (const step of ['sample', 'file'] as const) {
    if (step === 'file') await openSessionAs(page, 'claude-code-session.jsonl');
    await page.locator('header.top').screenshot({ path: info.outputPath(`header-${step}.png`) });
    const { selects } = await expectOneRow(page, step);
    expect(selects).toHaveLength(3);
    for (const s of selects)
      expect(s.width, `${step}: "${s.label}"`).toBeGreaterThanOrEqual(s.whole - 0.5);
  }
});

// A real session log is named by a UUID: its name is wider than the row has room for. At 1440 px
// the file menu gives way (its whole name on hover) and no control wraps; before, `?` wrapped alone.
test('at 1440×800 a long file name shrinks the file menu, not the row: one row of controls', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 800 });
  await openApp(page);
  const name = '3f2a9c1e-7b4d-4e8a-9c21-5d6e7f8a9b0c-a-long-session.jsonl';
  await openSessionAs(page, name);
  const { selects } = await expectOneRow(page, 'file');
  // The file menu is the one cut; format and provider are read whole.
  const [file, ...rest] = selects;
  expect(file?.width).toBeLessThan((file?.whole ?? 0) - 0.5);
  for (const s of rest) expect(s.width, s.label).toBeGreaterThanOrEqual(s.whole - 0.5);
  // The cut name is whole on hover of the menu and of its option in the opened list (newcomer:
  // the option had no title), and whole in the option's text (what the opened list and a screen
  // reader show).
  const option = page.getByTestId('sample-select').locator('option').first();
  await expect(page.getByTestId('sample-select')).toHaveAttribute('title', `(file: ${name})`);
  await expect(option).toHaveAttribute('title', `(file: ${name})`);
  await expect(option).toHaveText(`(file: ${name})`);
  // A sample chosen: its empty option names nothing, and has no title either.
  await page.getByTestId('sample-select').selectOption('invoice');
  await expect(page.getByTestId('sample-select')).toHaveAttribute('title', /^Invoice lookup/);
  await expect(option).toHaveText('');
  await expect(option).not.toHaveAttribute('title');
});

// At 1280 px (newcomer) the theme and `?` buttons wrapped alone to a second row of the header.
// From 1200 px the row holds: the sample or file menu gives way first, then format and provider,
// each whole in its title; no control runs into another, with a long-named file open too.
for (const width of [1200, 1280]) {
  test(`at ${width}×800 the header is one row of controls that do not overlap, with a file open too`, async ({
    page,
  }, info) => {
    await page.setViewportSize({ width, height: 800 });
    await openApp(page);
    for (const step of ['sample', 'file'] as const) {
      if (step === 'file')
        await openSessionAs(page, '3f2a9c1e-7b4d-4e8a-9c21-5d6e7f8a9b0c-a-long-session.jsonl');
      await page.locator('header.top').screenshot({ path: info.outputPath(`header-${step}.png`) });
      const { boxes, selects } = await expectOneRow(page, step);
      // Left to right without overlap, every control inside the page.
      const byX = [...boxes].sort((a, b) => a.left - b.left);
      for (let i = 1; i < byX.length; i++)
        expect(byX[i]!.left, `${byX[i]!.name} after ${byX[i - 1]!.name}`).toBeGreaterThanOrEqual(
          byX[i - 1]!.right,
        );
      expect(byX[byX.length - 1]!.right).toBeLessThanOrEqual(width);
      // A select cut to fit says its whole choice in its title.
      for (const s of selects)
        if (s.width < s.whole - 0.5) expect(s.title, s.label).toContain(s.titleWants);
      // With the sample shown, only the sample menu gives way: format and provider read whole.
      if (step === 'sample')
        for (const s of selects.slice(1))
          expect(s.width, s.label).toBeGreaterThanOrEqual(s.whole - 0.5);
    }
  });
}

// The keyboard help's keys wrapped ("J /" over "Shift+↓") in its narrow table (newcomer).
test('the keyboard help shows each shortcut on one line', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openApp(page);
  await page.getByTestId('help-button').click();
  const keys = page.getByTestId('help').locator('kbd');
  expect(await keys.count()).toBeGreaterThan(10);
  const lines = await keys.evaluateAll((ks) =>
    ks.map((k) => ({
      key: k.textContent ?? '',
      lines: k.getClientRects().length,
      height: k.getBoundingClientRect().height,
    })),
  );
  const one = Math.min(...lines.map((l) => l.height));
  for (const l of lines) {
    expect(l.lines, l.key).toBe(1);
    expect(l.height, l.key).toBeLessThan(one * 1.5);
  }
});

// At 1440 px the stats line cut the token basis after its first word ("40 tokens, exact o…";
// newcomer): it has a line of its own, where it reads whole.
test('at 1440×900 the token basis reads whole, on its own line under the counts', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openApp(page);
  const basis = page.getByTestId('token-basis');
  await expect(basis).toContainText('o200k_base');
  const box = await basis.evaluate((el) => ({
    cut: el.scrollWidth > el.clientWidth + 1,
    top: el.getBoundingClientRect().top,
    counts: (
      el.parentElement?.querySelector('[data-testid="count-messages"]') as HTMLElement
    ).getBoundingClientRect().bottom,
  }));
  expect(box.cut).toBe(false);
  expect(box.top).toBeGreaterThanOrEqual(box.counts - 1);
});
