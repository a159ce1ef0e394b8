import { expect, test } from '@playwright/test';
import { analyze } from '../src/model/analyze.ts';
import { parseTranscript } from '../src/model/parse/index.ts';
import { quoteSingle } from '../src/model/parse/containers/shell.ts';
import { openDefault, paste } from './helpers.ts';

// A newcomer pastes the curl command from an incident thread (DevTools "Copy as cURL") and reads
// the violations of the body it sends. The body has the shape of the reported case 08
// (anthropics/claude-code#1956; expected: invalid, three unanswered parallel tool_use ids); the
// page's verdict is compared with the model run in Node.
const body = {
  model: 'claude-sonnet-4-5',
  max_tokens: 1024,
  // A complete request with tool blocks and no tools key is A7's 400 first (issue 35); the
  // reported request sent its tool, as a coding agent does.
  tools: [
    {
      name: 'bash',
      description: 'Run a shell command.',
      input_schema: { type: 'object', properties: { command: { type: 'string' } } },
    },
  ],
  messages: [
    { role: 'user', content: 'Run the tests, the linter and the type checker.' },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Running all three checks in parallel.' },
        { type: 'tool_use', id: 'toolu_01ESA', name: 'bash', input: { command: 'pytest -q' } },
        { type: 'tool_use', id: 'toolu_01ESB', name: 'bash', input: { command: 'ruff check .' } },
        { type: 'tool_use', id: 'toolu_01ESC', name: 'bash', input: { command: 'mypy src' } },
      ],
    },
    { role: 'user', content: "Stop — don't run the others, they take too long." },
  ],
};

const curl = [
  "curl 'https://api.anthropic.com/v1/messages' \\",
  "  -H 'anthropic-version: 2023-06-01' \\",
  "  -H 'content-type: application/json' \\",
  `  --data-raw ${quoteSingle(JSON.stringify(body, null, 2))}`,
].join('\n');

test('a pasted curl command shows the violations of its body', async ({ page }) => {
  const parsed = parseTranscript(curl);
  expect(parsed.ok).toBe(true);
  if (!parsed.ok) return;
  const a = analyze(parsed.value.transcript);
  const firstError = a.validation.violations.find((v) => v.severity === 'error');
  expect(a.validation.valid).toBe(false);
  expect(firstError?.ids).toEqual(['toolu_01ESA', 'toolu_01ESB', 'toolu_01ESC']);

  await openDefault(page);
  await paste(page, curl);
  await expect(page.getByTestId('app')).toHaveAttribute('data-view-chars', String(curl.length));
  await expect(page.getByTestId('format')).toHaveText('anthropic-messages');
  await expect(page.getByTestId('count-messages')).toHaveText('3');
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-valid', 'false');
  const first = page.locator('[data-testid="violation"][data-rank="first"]');
  await expect(first).toHaveAttribute('data-rule', firstError?.rule ?? '');
  await expect(first.getByTestId('error-body')).toHaveText(
    JSON.stringify(firstError?.error, null, 2),
  );
  await expect(page.locator('ul.warnings')).toContainText(
    'Unwrapped from the body of the curl command, line 4 (https://api.anthropic.com/v1/messages).',
  );
});

test('a curl command whose body is not JSON says where, inside the body and in the paste', async ({
  page,
}) => {
  const broken = [
    'curl https://api.anthropic.com/v1/messages \\',
    "  -H 'content-type: application/json' \\",
    "  -d '{",
    '  "messages": [',
    '    {"role": "user" "content": "hi"}',
    "  ]}'",
  ].join('\n');
  await openDefault(page);
  await paste(page, broken);
  const banner = page.getByTestId('parse-error');
  await expect(banner).toHaveAttribute('data-kind', 'json');
  await expect(page.getByTestId('parse-error-location')).toHaveText('at line 3, column 21');
  await expect(banner).toContainText('starts at line 3, column 7 of the paste');
  await expect(page.getByTestId('parse-error-line')).toContainText(
    '{"role": "user" "content": "hi"}',
  );
});
