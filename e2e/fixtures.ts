/** Shared e2e fixtures, derived from the built-in samples. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parallelWeatherChat } from '../src/model/testing/parallelWeather.ts';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Text of a file in public/samples. */
export const sample = (file: string) =>
  readFileSync(path.join(repoRoot, 'public/samples', file), 'utf8');

/** The coding-agent session with the second result of a parallel pair removed (a partial answer). */
export function partialCodingAgent(): { text: string; message: number } {
  const body = JSON.parse(sample('coding-agent.json')) as {
    messages: { role: string; content: unknown }[];
  };
  const at = body.messages.findIndex(
    (m, i) =>
      i > 10 &&
      Array.isArray(m.content) &&
      m.content.length === 2 &&
      m.content.every((b: { type: string }) => b.type === 'tool_result'),
  );
  const msg = body.messages[at];
  if (!msg || !Array.isArray(msg.content))
    throw new Error('sample changed: no parallel results after message 10');
  msg.content = msg.content.slice(0, 1);
  return { text: JSON.stringify(body, null, 2), message: at - 1 };
}

/**
 * A call answered 30 messages later (status `answered_late`): its result row starts off screen,
 * so selecting the arc must scroll to it.
 */
export function lateResult(): { text: string; resultMessage: number } {
  const messages: unknown[] = [
    { role: 'user', content: 'Start the nightly export and keep chatting while it runs.' },
    {
      role: 'assistant',
      content: [
        {
          type: 'tool_use',
          id: 'toolu_01LateExport',
          name: 'start_export',
          input: { table: 'orders' },
        },
      ],
    },
  ];
  for (let i = 0; i < 15; i++) {
    messages.push({ role: 'user', content: `Question ${i + 1} while the export runs?` });
    messages.push({ role: 'assistant', content: `Answer ${i + 1}.` });
  }
  messages.push({
    role: 'user',
    content: [
      {
        type: 'tool_result',
        tool_use_id: 'toolu_01LateExport',
        content: 'export finished: 48,112 rows',
      },
    ],
  });
  return { text: JSON.stringify({ messages }, null, 2), resultMessage: messages.length - 1 };
}

/**
 * A short Anthropic body whose first user message names a file and an id that a later message
 * refers to: a message-level cut at 30 % of its tokens drops the first and marks the lost
 * reference (the simulator's lost-meaning marks).
 */
export function renameTask() {
  return {
    model: 'claude-sonnet-4-5',
    max_tokens: 100,
    messages: [
      {
        role: 'user',
        content:
          'Rename the helper in `src/billing/invoiceTotals.ts` to computeTotals and keep INV-7 working.',
      },
      {
        role: 'assistant',
        content:
          'Renamed it. ' +
          'The helper now lives in the same file and every caller was updated accordingly. '.repeat(
            8,
          ),
      },
      {
        role: 'user',
        content:
          'Now add a test for computeTotals in src/billing/invoiceTotals.ts that covers INV-7.',
      },
      { role: 'assistant', content: 'Added the test.' },
    ],
  };
}

/**
 * An OpenAI Chat body (system prompt #0) whose assistant #2 makes two parallel calls, one answered
 * (#3), then a user turn (#4): one O2 violation, whose provider path names request message 4.
 */
export function oaiParallel(): string {
  return JSON.stringify(parallelWeatherChat(), null, 2);
}
