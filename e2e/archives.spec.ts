import { expect, test } from '@playwright/test';
import { openDefault, paste, pickRequest, requestLabels } from './helpers.ts';

// A newcomer pastes an Inspect AI log, a SWE-agent trajectory, a ChatGPT export and a claude.ai
// export (our own small values in the shapes docs/formats.md#archives describes): each is
// detected, shown, and a file of several samples or
// conversations gets the request strip.

const inspectSample = (id: number, n: number) => ({
  id,
  epoch: 1,
  messages: [
    { role: 'user', content: 'Convert 26.2 miles.' },
    {
      role: 'assistant',
      content: '',
      tool_calls: [{ id: `call_${id}`, function: 'convert_units', arguments: { value: 26.2 } }],
    },
    { role: 'tool', tool_call_id: `call_${id}`, function: 'convert_units', content: '42.16' },
    ...Array.from({ length: n }, (_, i) => ({ role: 'assistant', content: `Reply ${i}.` })),
  ],
});

const chat = (name: string, n: number) => ({
  uuid: name,
  name,
  chat_messages: Array.from({ length: n }, (_, i) => ({
    sender: i % 2 === 0 ? 'human' : 'assistant',
    text: `Turn ${i}`,
    content: [{ type: 'text', text: `Turn ${i}` }],
  })),
});

const chatgpt = (title: string) => ({
  title,
  current_node: 'c',
  mapping: {
    a: { id: 'a', parent: null, children: ['b'], message: null },
    b: {
      id: 'b',
      parent: 'a',
      children: ['c'],
      message: { author: { role: 'user' }, content: { content_type: 'text', parts: ['Hi'] } },
    },
    c: {
      id: 'c',
      parent: 'b',
      children: [],
      message: {
        author: { role: 'assistant' },
        recipient: 'all',
        content: { content_type: 'text', parts: ['Hello'] },
      },
    },
  },
});

test('an Inspect log with two samples: detected, the strip lists both, each one shown', async ({
  page,
}) => {
  await openDefault(page);
  const log = {
    version: 2,
    eval: { model: 'openai/gpt-4o-mini' },
    samples: [inspectSample(1, 1), inspectSample(2, 3)],
  };
  await paste(page, JSON.stringify(log));
  await expect(page.getByTestId('format')).toHaveText('inspect-log');
  await expect
    .poll(() => requestLabels(page))
    .toEqual(['#1 · sample 1 (epoch 1) · 4 messages', '#2 · sample 2 (epoch 1) · 6 messages']);
  await pickRequest(page, 0);
  await expect(page.getByTestId('count-messages')).toHaveText('4');
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-valid', 'true');
  await pickRequest(page, 1);
  await expect(page.getByTestId('count-messages')).toHaveText('6');
});

test('a SWE-agent trajectory whose last call has no observation is flagged', async ({ page }) => {
  await openDefault(page);
  const traj = {
    trajectory: [],
    info: {},
    history: [
      { role: 'user', content: 'Fix the bug.', agent: 'main', message_type: 'observation' },
      {
        role: 'assistant',
        content: 'List files.',
        agent: 'main',
        message_type: 'action',
        tool_calls: [
          { id: 'call_ls', type: 'function', function: { name: 'bash', arguments: '{}' } },
        ],
      },
    ],
  };
  await paste(page, JSON.stringify(traj));
  await expect(page.getByTestId('format')).toHaveText('swe-agent');
  await expect(page.getByTestId('count-messages')).toHaveText('2');
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-valid', 'false');
});

test('ChatGPT and claude.ai exports: detected, one conversation per strip mark', async ({
  page,
}) => {
  await openDefault(page);
  await paste(page, JSON.stringify([chatgpt('First'), chatgpt('Second')]));
  await expect(page.getByTestId('format')).toHaveText('chatgpt-export');
  await expect
    .poll(() => requestLabels(page))
    .toEqual(['#1 · First · 3 nodes', '#2 · Second · 3 nodes']);
  await expect(page.getByTestId('count-messages')).toHaveText('2');

  await paste(page, JSON.stringify([chat('Alpha', 2), chat('Beta', 5)]));
  await expect(page.getByTestId('format')).toHaveText('claude-ai-export');
  await expect
    .poll(() => requestLabels(page))
    .toEqual(['#1 · Alpha · 2 messages', '#2 · Beta · 5 messages']);
  await pickRequest(page, 0);
  await expect(page.getByTestId('count-messages')).toHaveText('2');
  await pickRequest(page, 1);
  await expect(page.getByTestId('count-messages')).toHaveText('5');
});
