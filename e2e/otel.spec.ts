import { expect, test } from '@playwright/test';
import { analyze } from '../src/model/analyze.ts';
import { parseTranscript } from '../src/model/parse/index.ts';
import { oncallSpans, toOtlp } from '../src/model/testing/otel.fixtures.ts';
import { dropFile, openDefault, pickRequest, requestLabels, shownRequestMark } from './helpers.ts';

// An incident reviewer downloads the trace of a failed agent run from the collector (OTLP/JSON)
// and drops it on the page: one OpenAI classifier call, then three Anthropic calls; the agent
// loop lost the result of a tool that timed out, so the newest call got Anthropic's 400. The
// page's verdict is compared with the model run in Node.
const trace = JSON.stringify(toOtlp(oncallSpans()), null, 2);

test('an OTLP/JSON trace opens on its newest LLM call; the strip lists every call with its own verdict', async ({
  page,
}) => {
  const parsed = parseTranscript(trace);
  expect(parsed.ok).toBe(true);
  if (!parsed.ok) return;
  const a = analyze(parsed.value.transcript);
  const firstError = a.validation.violations.find((v) => v.severity === 'error');
  expect(firstError?.ids).toEqual(['toolu_03Pool']);

  await openDefault(page);
  await dropFile(page, 'trace.json', trace);
  // The file is read and parsed in the worker; on a busy shared machine that alone has taken
  // longer than the default 5 s, so the first wait (for the dropped text to be the one shown,
  // analysed) has its own bound.
  const app = page.getByTestId('app');
  await expect(app).toHaveAttribute('data-view-chars', String(trace.length), { timeout: 30_000 });
  await expect(app).toHaveAttribute('data-ready', 'true', { timeout: 30_000 });
  await expect
    .poll(() => requestLabels(page))
    .toEqual([
      '#1 · 14:05:00 UTC · gpt-4.1-mini · chat gpt-4.1-mini',
      '#2 · 14:05:01 UTC · claude-opus-4-7 · chat claude-opus-4-7',
      '#3 · 14:05:04 UTC · claude-opus-4-7 · chat claude-opus-4-7',
      '#4 · 14:05:17 UTC · claude-opus-4-7 · chat claude-opus-4-7',
    ]);
  await expect(shownRequestMark(page)).toHaveAttribute('data-index', '3');
  // Each call judged on its own (by the provider its span names): the newest is the first failing.
  await expect
    .poll(() =>
      page
        .getByTestId('request-mark')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-tone'))),
    )
    .toEqual(['ok', 'ok', 'ok', 'bad']);
  await expect(page.getByTestId('strip-sentence')).toHaveText(
    `4 requests; the first failing is request 4 (${firstError?.code ?? ''}); requests 1–3 pass.`,
  );
  await expect(page.getByTestId('format')).toHaveText('anthropic-messages');
  await expect(page.getByTestId('count-messages')).toHaveText('5');
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-valid', 'false');
  const first = page.locator('[data-testid="violation"][data-rank="first"]');
  await expect(first).toHaveAttribute('data-rule', firstError?.rule ?? '');
  await expect(first.getByTestId('error-body')).toHaveText(
    JSON.stringify(firstError?.error, null, 2),
  );
  // Arcs: the two answered calls in blue, the lost one in red.
  await expect(page.locator('[data-arc-id]')).toHaveCount(3);
  const red = page.locator('[data-arc-id][data-broken="true"]');
  await expect(red).toHaveCount(1);
  await expect(red).toHaveAttribute('data-status', 'unanswered');
  await expect(page.locator('ul.warnings')).toContainText(
    'Tool call toolu_03Pool (pool_status) has no tool_call_response in this input, but span execute_tool pool_status at 14:05:07 UTC (failed: tool timed out after 10 s) ran it',
  );

  await pickRequest(page, 0);
  await expect(page.getByTestId('format')).toHaveText('openai-chat');
  // System and user: the call's answer is not part of the request it answered (issue 41).
  await expect(page.getByTestId('count-messages')).toHaveText('2');
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-valid', 'true');

  await pickRequest(page, 2);
  await expect(page.getByTestId('format')).toHaveText('anthropic-messages');
  await expect(page.getByTestId('count-messages')).toHaveText('3');
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-valid', 'true');
  await expect(page.locator('[data-arc-id][data-broken="false"]')).toHaveCount(1);
});

test('the Gemini Interactions sample whose parallel call lost its result shows the Gemini 400', async ({
  page,
}) => {
  await openDefault(page);
  await page.getByTestId('sample-select').selectOption('broken-gemini-interactions-lost-result');
  // Fetched and parsed in the worker: the same bound as above for a busy machine.
  await expect(page.getByTestId('format')).toHaveText('gemini-interactions', { timeout: 30_000 });
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-valid', 'false');
  await expect(
    page.locator('[data-testid="violation"][data-rank="first"]').getByTestId('error-body'),
  ).toContainText(
    'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.',
  );
  await expect(page.locator('[data-arc-id][data-broken="true"]')).toHaveCount(1);
});
