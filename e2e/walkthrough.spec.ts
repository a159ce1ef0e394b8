import { expect, test } from '@playwright/test';
import { oneSpan } from '../src/model/parse/containers/otel.fixtures.ts';
import { dropFile, openDefault } from './helpers.ts';

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
