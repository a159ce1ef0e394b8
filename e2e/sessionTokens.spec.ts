import { expect, test } from '@playwright/test';
import { listFileRequests } from '../src/model/diff/index.ts';
import { loadBpeCounter } from '../src/model/tokens.ts';
import { dropFile, fileShown, openDefault, pickRequest, requestMarks } from './helpers.ts';
import { compactedThreeCallLog } from '../src/model/testing/claudeCodeLog.ts';

// One call, one number (newcomer: posthog call 84 was 2,804 on its strip mark, ≈4,869 in the
// header and in check --requests): the strip counts a call's request as the header and the CLI do
// once the page's tokenizer has loaded. (A log with usage records: the header counts the replies by
// them and says so, 'N replies from the log's usage'; the mark labels the recorded usage apart.)

test('a chosen call: the strip mark, the header and check --requests give the same request tokens', async ({
  page,
}) => {
  const log = compactedThreeCallLog();
  await openDefault(page);
  await dropFile(page, 'session.jsonl', log);
  await fileShown(page, 'session.jsonl');
  await pickRequest(page, 1);
  await expect(page.getByTestId('strip-shown')).toContainText('Call 2 of 3');
  const basis = page.getByTestId('token-basis');
  await expect(basis).not.toHaveAttribute('data-estimate', 'true', { timeout: 30_000 });
  await expect(basis).toContainText('o200k_base');
  const header = Number(
    /([\d,]+) tokens/.exec((await basis.textContent()) ?? '')?.[1]?.replace(/,/g, ''),
  );

  const cli = listFileRequests(log, { name: 'session.jsonl', counter: await loadBpeCounter() });
  if (!cli.ok) throw new Error(cli.error.message);
  const call = cli.value.requests[1];
  expect(header).toBe(call?.tokens);

  const mark = requestMarks(page).nth(1);
  await expect(mark).toHaveAttribute(
    'aria-label',
    new RegExp(`request ${header.toLocaleString('en-US')} tokens \\(o200k_base\\)`),
  );
});
