import { expect, test, type Page } from '@playwright/test';
import { prepareEviction, simulatePolicy } from '../src/model/evict/policies.ts';
import type { PolicyId } from '../src/model/evict/types.ts';
import { parseTranscript } from '../src/model/parse/index.ts';
import { countTokensCached, TokenCache } from '../src/model/tokenCache.ts';
import { loadBpeCounter } from '../src/model/tokens.ts';
import { DEFAULT_PROVIDER } from '../src/model/validate/index.ts';
import { sample } from './fixtures.ts';
import { openApp } from './helpers.ts';
import { policyVerdict } from '../src/ui/budget/policyVerdict.ts';

// Issue 39: the new policies appear in the simulator's pickers and give their verdicts; "clear
// results, keep pairs" and "evict exchanges" side by side at one budget, with the figures the
// model gives in Node with the page's counter.

const NEW: PolicyId[] = [
  'clear-tool-results',
  'provider-compaction',
  'ai-sdk-prune',
  'langchain-trim',
];
const BUDGET = 900;

async function expected(policy: PolicyId, budget = BUDGET) {
  const parsed = parseTranscript(sample('coding-agent.json'), { name: 'coding-agent.json' });
  if (!parsed.ok) throw new Error('coding-agent.json does not parse');
  const t = parsed.value.transcript;
  const provider = DEFAULT_PROVIDER[t.format];
  const table = countTokensCached(t, provider, await loadBpeCounter(), new TokenCache(), {
    preferUsage: true,
  });
  return simulatePolicy(prepareEviction(t, table, provider), policy, budget);
}

const card = (page: Page, side: 0 | 1) =>
  page.locator(`[data-testid="policy-card"][data-side="${side}"]`);

test.describe('compaction policies in the simulator', () => {
  test('clear-tool-results beside exchange at one budget: verdicts, tokens freed, cleared results', async ({
    page,
  }) => {
    await openApp(page, `/#v=1&src=coding-agent&b=${BUDGET}&p=clear-tool-results&p2=exchange`);
    await expect(page.getByTestId('token-basis')).toContainText('o200k_base');
    const clear = await expected('clear-tool-results');
    const exchange = await expected('exchange');
    const a = card(page, 0);
    const b = card(page, 1);
    await expect(a).toHaveAttribute('data-policy', 'clear-tool-results');
    await expect(b).toHaveAttribute('data-policy', 'exchange');
    await expect(a).toHaveAttribute('data-valid', String(clear.validation.valid));
    await expect(b).toHaveAttribute('data-valid', String(exchange.validation.valid));
    const approx = ((await page.getByTestId('token-basis').textContent()) ?? '').includes('≈');
    await expect(a.getByTestId('policy-verdict')).toHaveText(policyVerdict(clear, approx).long);
    await expect(a.getByTestId('policy-freed')).toContainText(clear.freed.toLocaleString('en-US'));
    await expect(b.getByTestId('policy-freed')).toContainText(
      exchange.freed.toLocaleString('en-US'),
    );
    const cleared = clear.edits?.filter((e) => e.kind === 'cleared').length ?? 0;
    expect(cleared).toBeGreaterThan(0);
    await expect(a.getByTestId('policy-edited')).toContainText(`${cleared} results cleared`);
    // Nothing is evicted: every call and result stays.
    await expect(a.getByTestId('policy-evicted')).toContainText('0 messages');
    await expect(b.getByTestId('policy-edited')).toHaveCount(0);
  });

  test('every new policy is in the picker and gives the model’s verdict', async ({ page }) => {
    await openApp(page, `/#v=1&src=coding-agent&b=${BUDGET}`);
    await expect(page.getByTestId('token-basis')).toContainText('o200k_base');
    const select = card(page, 1).getByTestId('policy-select');
    for (const id of NEW) await expect(select.locator(`option[value="${id}"]`)).toHaveCount(1);
    for (const id of NEW) {
      const want = await expected(id);
      await card(page, 1).getByTestId('policy-select').selectOption(id);
      const c = card(page, 1);
      await expect(c).toHaveAttribute('data-policy', id);
      await expect(c).toHaveAttribute('data-valid', String(want.validation.valid));
      await expect(c).toHaveAttribute('data-fits', String(want.fits));
      if (!want.validation.valid)
        await expect(c.getByTestId('policy-verdict')).toContainText(`[${want.firstError?.code}]`);
    }
  });

  test('what-if rows: a smaller window gives each shown policy its verdict at that budget', async ({
    page,
  }) => {
    await openApp(page, `/#v=1&src=coding-agent&b=${BUDGET}&p=clear-tool-results&p2=message`);
    await expect(page.getByTestId('token-basis')).toContainText('o200k_base');
    const whatIf = page.getByTestId('what-if');
    await whatIf.getByTestId('what-if-toggle').click();
    await whatIf.getByLabel('Smaller model window in tokens').fill('700');
    const row = whatIf.locator('[data-testid="what-if-row"][data-trigger="smaller-window"]');
    await expect(row.locator('th')).toContainText('budget 700');
    for (const id of ['clear-tool-results', 'message'] as const) {
      const want = await expected(id, 700);
      await expect(row.locator(`td[data-policy="${id}"]`)).toHaveAttribute(
        'data-valid',
        String(want.validation.valid),
      );
    }
    await expect(
      whatIf.locator('[data-testid="what-if-row"][data-trigger="retry-413"]'),
    ).toContainText('nothing to do');
  });
});
