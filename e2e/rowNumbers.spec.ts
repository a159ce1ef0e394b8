/**
 * One numbering scheme a reader can follow (newcomer finding): a row number `#N` is a message
 * number counted from 0 — also in a Claude Code log, whose rows were its parsed-line positions —
 * file lines are named as lines (`lines 2–3`), and a provider's own request index
 * (`messages.3` in its 400 text, counted after consecutive same-role records merge) is shown
 * mapped to its row.
 */
import { expect, test } from '@playwright/test';
import { dropFile, openDefault, paste } from './helpers.ts';

const line = (o: object) => JSON.stringify({ sessionId: 's1', ...o });
const use = (id: string) => ({ type: 'tool_use', id, name: 'Bash', input: { command: 'ls' } });
const result = (id: string) => [{ type: 'tool_result', tool_use_id: id, content: 'ok' }];
/** The tool the calls use: a complete request without it is A7's 400 first (issue 35). */
const tools = [{ name: 'Bash', input_schema: { type: 'object' } }];
/**
 * Line 1 a prompt; lines 2–3 one reply (two calls); lines 4 and 5 one result each (one request
 * message once merged); line 6 a call never answered; line 7 the next prompt.
 */
const LOG = [
  line({ type: 'user', uuid: 'u1', parentUuid: null, message: { role: 'user', content: 'go' } }),
  line({
    type: 'assistant',
    uuid: 'a1',
    parentUuid: 'u1',
    message: { id: 'm1', role: 'assistant', content: [use('toolu_A')] },
  }),
  line({
    type: 'assistant',
    uuid: 'a2',
    parentUuid: 'a1',
    message: { id: 'm1', role: 'assistant', content: [use('toolu_B')] },
  }),
  line({
    type: 'user',
    uuid: 'r1',
    parentUuid: 'a2',
    message: { role: 'user', content: result('toolu_A') },
  }),
  line({
    type: 'user',
    uuid: 'r2',
    parentUuid: 'r1',
    message: { role: 'user', content: result('toolu_B') },
  }),
  line({
    type: 'assistant',
    uuid: 'a3',
    parentUuid: 'r2',
    message: { id: 'm2', role: 'assistant', content: [use('toolu_C')] },
  }),
  line({ type: 'user', uuid: 'u2', parentUuid: 'a3', message: { role: 'user', content: 'next' } }),
].join('\n');

test('a Claude Code log: rows are message numbers, sources are lines, the 400 index is mapped', async ({
  page,
}) => {
  await openDefault(page);
  await dropFile(page, 'session.jsonl', LOG);
  await expect(page.getByTestId('format')).toHaveText('claude-code-jsonl');
  await expect(page.getByTestId('count-messages')).toHaveText('6');
  const labels = page.locator('[data-message-index] .msg-index');
  // Message numbers from 0 (the reply's two lines are one message), not line positions (0 1 3 4 5 6).
  await expect(labels).toHaveText(['#0', '#1', '#2', '#3', '#4', '#5']);
  await expect(labels.nth(1)).toHaveAttribute(
    'title',
    'Row #1: message 1 of the log, counting from 0 (a reply written over several lines is one message); in the file: lines 2–3',
  );
  // The opened row's source disclosure names both lines it holds.
  const reply = page.locator('[data-message-index="1"]');
  await reply.getByTestId('expand').click();
  await expect(reply.locator('details.raw summary')).toHaveText('Raw JSON (lines 2–3)');

  // The provider's index counts its merged request (lines 4 and 5 are one user message there).
  const v = page.getByTestId('violation').first();
  await expect(v.getByTestId('error-body')).toContainText('"messages.3: `tool_use` ids were found');
  await expect(v.getByTestId('request-index')).toContainText('request message 3 = row #4');
  await expect(v.getByTestId('jump')).toHaveText('Jump to message #4, block 0');
  await v.getByTestId('jump').click();
  await expect(page.locator('[data-message-index="4"] .msg')).toHaveClass(/selected/);
});

test('a request body: the mapping shows the provider index and the row agree', async ({ page }) => {
  await openDefault(page);
  const body = {
    model: 'claude-sonnet-4-5',
    max_tokens: 1024,
    tools,
    messages: [
      { role: 'user', content: 'List the files.' },
      { role: 'assistant', content: [use('toolu_X')] },
      { role: 'user', content: 'Never mind.' },
    ],
  };
  await paste(page, JSON.stringify(body, null, 2));
  await expect(page.getByTestId('count-messages')).toHaveText('3');
  await expect(page.locator('[data-message-index] .msg-index').nth(1)).toHaveAttribute(
    'title',
    'Row #1: message 1 of the source, counting from 0; in the source: messages.1',
  );
  const v = page.getByTestId('violation').first();
  await expect(v.getByTestId('request-index')).toContainText('request message 1 = row #1');
  await expect(v.getByTestId('jump')).toHaveText('Jump to message #1, block 0');
});

test('two assistant rows Anthropic sends as one message: the note names both rows', async ({
  page,
}) => {
  await openDefault(page);
  const body = {
    model: 'claude-sonnet-4-5',
    max_tokens: 1024,
    tools,
    messages: [
      { role: 'user', content: 'List the files.' },
      { role: 'assistant', content: [use('toolu_X')] },
      { role: 'assistant', content: 'Let me check.' },
      { role: 'user', content: 'Never mind.' },
    ],
  };
  await paste(page, JSON.stringify(body, null, 2));
  await expect(page.getByTestId('count-messages')).toHaveText('4');
  const note = page.getByTestId('violation').first().getByTestId('request-index');
  // Request message 1 is rows #1 and #2 merged: not "as the rows do", which it said before.
  await expect(note).toContainText('request message 1 = rows #1 and #2');
  await expect(note).toContainText('rows #1 and #2 are its message 1');
  await expect(note).not.toContainText('as the rows do');
});
