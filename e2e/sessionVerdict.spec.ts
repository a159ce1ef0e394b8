import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { dropFile, fileShown, openDefault, pickRequest, requestMarks } from './helpers.ts';

// A session log's verdicts as an incident reviewer reads them (newcomer): the calls the log
// records an API error for are counted in the strip's headline and said beside the chosen call's
// structural verdict; a log shown whole says its own verdict judges a request no call sent, under
// the calls' verdicts, not as the page's red or green.

/** Claude Code JSON lines chained by `parentUuid`; content invented. */
function writer() {
  const lines: string[] = [];
  let parent: string | null = null;
  let n = 0;
  const line = (v: Record<string, unknown>) => {
    const uuid = `u${n++}`;
    lines.push(JSON.stringify({ parentUuid: parent, uuid, sessionId: 's', timestamp: 't', ...v }));
    parent = uuid;
  };
  return {
    user: (content: unknown) => line({ type: 'user', message: { role: 'user', content } }),
    assistant: (id: string, content: unknown[]) =>
      line({
        type: 'assistant',
        message: { id, role: 'assistant', model: 'claude-opus-4-7', content },
      }),
    apiError: (id: string, text: string) =>
      line({
        type: 'assistant',
        isApiErrorMessage: true,
        message: {
          id,
          role: 'assistant',
          model: '<synthetic>',
          content: [{ type: 'text', text }],
        },
      }),
    text: () => `${lines.join('\n')}\n`,
  };
}

/** Three calls: one answered, then two the log records a 400 for (a model name, a quota). */
function failedCallsLog(): string {
  const w = writer();
  w.user('Summarise the release notes.');
  w.assistant('m1', [{ type: 'text', text: 'Here is the summary.' }]);
  w.user('Now with the sonnet thinking model.');
  w.apiError(
    'e1',
    'API Error: 400 {"type":"error","error":{"type":"invalid_request_error","message":"Invalid model: claude-sonnet-4-6-thinking"}}',
  );
  w.user('Try again.');
  w.apiError(
    'e2',
    'API Error: 400 {"type":"error","error":{"type":"invalid_request_error","message":"RESOURCE_EXHAUSTED: Quota will reset after 2h13m45s."}}',
  );
  return w.text();
}

/** Two calls that pass; the log ends on a tool call nothing answered (the session stopped). */
function unansweredToolLog(): string {
  const w = writer();
  w.user('List the files.');
  w.assistant('m1', [{ type: 'tool_use', id: 'toolu_1', name: 'ls', input: {} }]);
  w.user([{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'a.ts b.ts' }]);
  w.assistant('m2', [{ type: 'tool_use', id: 'toolu_2', name: 'cat', input: { path: 'a.ts' } }]);
  return w.text();
}

async function open(page: Page, name: string, text: string) {
  await openDefault(page);
  await dropFile(page, name, text);
  await fileShown(page, name);
}

async function axe(page: Page) {
  const r = await new AxeBuilder({ page })
    .include('[data-testid="request-strip"]')
    .include('[data-testid="violations"]')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .analyze();
  const bad = r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    bad,
    bad.map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(' '))}`).join('\n'),
  ).toEqual([]);
}

test('calls the log records an API error for: counted in the headline, said beside the chosen call’s verdict', async ({
  page,
}) => {
  await open(page, 'failed.jsonl', failedCallsLog());
  await expect(requestMarks(page)).toHaveCount(3);
  const sentence = page.getByTestId('strip-sentence');
  await expect(sentence).toContainText('the log records an API error for 2 calls (2–3)');
  await expect(sentence).toContainText('the structure is not the cause');
  await expect(sentence).not.toContainText('every one passes.');

  await pickRequest(page, 1);
  await expect(page.getByTestId('strip-shown')).toContainText('Call 2 of 3');
  const verdict = page.getByTestId('verdict');
  await expect(verdict).toHaveAttribute('data-valid', 'true');
  await expect(verdict).toContainText('Structure valid');
  await expect(verdict).not.toContainText('would accept this request');
  const recorded = page.getByTestId('recorded-error');
  await expect(recorded).toBeVisible();
  await expect(recorded).toContainText('The log records an API error for this call');
  await expect(recorded).toContainText('Invalid model: claude-sonnet-4-6-thinking');
  await expect(recorded).toContainText('the structure is not the cause');
  await axe(page);

  // A call the log records no error for reads as before.
  await pickRequest(page, 0);
  await expect(page.getByTestId('strip-shown')).toContainText('Call 1 of 3');
  await expect(recorded).toHaveCount(0);
  await expect(verdict).toContainText('would accept this request');
});

test('a session log shown whole: the calls lead, the log as one request (never sent) is said under them, muted', async ({
  page,
}) => {
  await open(page, 'unanswered.jsonl', unansweredToolLog());
  await expect(page.getByTestId('strip-sentence')).toHaveText('2 model calls; every one passes.');
  await expect(page.getByTestId('verdict-whole-log-lead')).toContainText(
    'the calls the log sent are judged in the request strip',
  );
  const verdict = page.getByTestId('verdict');
  await expect(verdict).toHaveAttribute('data-scope', 'whole-log');
  await expect(verdict).toHaveText(
    'The log as one request (never sent): Anthropic Messages would answer HTTP 400 (1 violation).',
  );
  // Neither the page's red nor its green: the muted colour of a note.
  const colours = await page.evaluate(() => {
    const v = document.querySelector('[data-testid="verdict"]') as HTMLElement;
    const muted = document.createElement('span');
    muted.style.color = 'var(--muted)';
    v.parentElement?.appendChild(muted);
    const out = [getComputedStyle(v).color, getComputedStyle(muted).color];
    muted.remove();
    return out;
  });
  expect(colours[0]).toBe(colours[1]);
  await expect(page.getByTestId('violation-rank').first()).toHaveText(
    'the error the log as one request would get',
  );
  await expect(page.getByTestId('simulator-whole-log')).toContainText(
    'cuts of the log as one request (never sent)',
  );
  await axe(page);

  // A chosen call is judged as the provider got it: its own verdict, no whole-log wording.
  await pickRequest(page, 1);
  await expect(page.getByTestId('strip-shown')).toContainText('Call 2 of 2');
  await expect(verdict).not.toHaveAttribute('data-scope', 'whole-log');
  await expect(verdict).toContainText('Valid:');
  await expect(page.getByTestId('verdict-whole-log-lead')).toHaveCount(0);
  await expect(page.getByTestId('simulator-whole-log')).toHaveCount(0);
});
