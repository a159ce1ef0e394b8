/**
 * Generated session logs as event lists (test support): a Claude Code session (`logOf`) or the
 * same events as a Codex rollout (`codexLogOf`), with broken pairs, repeated ids, thinking, blank
 * prompts and compactions, for the properties of a session's chains of calls (the scan's rows,
 * the tables each call resumes from the one before).
 */
import fc from 'fast-check';
import { readSource } from '../parse/index.ts';
import { parseRequests, type ScanRequest } from '../scan/rows.ts';
import { claudeCodeLog } from './claudeCodeLog.ts';

/** One line of a generated Claude Code session. */
export type Event =
  | { kind: 'user'; text: string }
  | { kind: 'blank' }
  | { kind: 'text'; msg: number; text: string }
  | { kind: 'use'; msg: number; id: number }
  | { kind: 'result'; id: number; error: boolean }
  | { kind: 'thinking'; msg: number }
  | { kind: 'compaction'; trigger: 'manual' | 'auto' };

const WORDS = ['read', 'the', 'file', 'fix', 'tests', 'a', 'longer sentence of several words'];
const arbText = fc
  .array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 12 })
  .map((w) => w.join(' '));

/**
 * Sessions as Claude Code writes them, and broken: tool calls answered, left unanswered, answered
 * twice or by a result for no call (ids from a small pool, so they repeat), replies split over
 * lines of one API message, thinking, blank prompts, and compactions (each starts a new chain).
 */
export const arbEvent: fc.Arbitrary<Event> = fc.oneof(
  { weight: 4, arbitrary: arbText.map((text) => ({ kind: 'user' as const, text })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'blank' as const }) },
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant('text' as const), msg: fc.nat(40), text: arbText }),
  },
  {
    weight: 5,
    arbitrary: fc.record({ kind: fc.constant('use' as const), msg: fc.nat(40), id: fc.nat(12) }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('result' as const),
      id: fc.nat(12),
      error: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('thinking' as const), msg: fc.nat(40) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('compaction' as const),
      trigger: fc.constantFrom('manual' as const, 'auto' as const),
    }),
  },
);

export function logOf(events: readonly Event[]): string {
  const w = claudeCodeLog({ cwd: '/srv/app' });
  for (const e of events) {
    if (e.kind === 'user') w.user(e.text);
    else if (e.kind === 'blank') w.user('');
    else if (e.kind === 'text') w.assistant(`msg_${e.msg}`, [{ type: 'text', text: e.text }]);
    else if (e.kind === 'thinking')
      w.assistant(`msg_${e.msg}`, [{ type: 'thinking', thinking: 'Hmm.', signature: 'sig' }]);
    else if (e.kind === 'use')
      w.assistant(`msg_${e.msg}`, [
        { type: 'tool_use', id: `toolu_${e.id}`, name: 'Read', input: { path: `f${e.id}` } },
      ]);
    else if (e.kind === 'result')
      w.user([
        {
          type: 'tool_result',
          tool_use_id: `toolu_${e.id}`,
          content: `line ${e.id}`,
          ...(e.error ? { is_error: true } : {}),
        },
      ]);
    else w.compaction(e.trigger, 'Summary of the conversation so far.');
  }
  return w.text();
}

/**
 * The same events as a Codex rollout (Responses items: messages, function calls and their
 * outputs by call_id, reasoning, a `compacted` line for a compaction), read for the Responses API:
 * a provider with no cut model (each cut validated whole; the chain's copies and ids still shared).
 */
export function codexLogOf(events: readonly Event[]): string {
  const line = (type: string, payload: unknown) =>
    JSON.stringify({ timestamp: '2026-11-28T14:08:00.000Z', type, payload });
  const item = (payload: unknown) => line('response_item', payload);
  const out = [line('session_meta', { id: 's' })];
  for (const e of events) {
    if (e.kind === 'user' || e.kind === 'blank')
      out.push(
        item({
          type: 'message',
          role: 'user',
          content: [{ type: 'input_text', text: e.kind === 'user' ? e.text : '' }],
        }),
      );
    else if (e.kind === 'text')
      out.push(
        item({
          type: 'message',
          role: 'assistant',
          content: [{ type: 'output_text', text: e.text }],
        }),
      );
    else if (e.kind === 'thinking')
      out.push(item({ type: 'reasoning', summary: [{ type: 'summary_text', text: 'Hmm.' }] }));
    else if (e.kind === 'use')
      out.push(
        item({
          type: 'function_call',
          name: 'read',
          arguments: JSON.stringify({ path: `f${e.id}` }),
          call_id: `call_${e.id}`,
        }),
      );
    else if (e.kind === 'result')
      out.push(
        item({ type: 'function_call_output', call_id: `call_${e.id}`, output: `line ${e.id}` }),
      );
    else out.push(line('compacted', { message: 'Summary of the conversation so far.' }));
  }
  return out.join('\n') + '\n';
}

/** A session's events: a call answered, a reply, a new user turn, a reply (a chain then a new one). */
export const FIX_THEN_TESTS: readonly Event[] = [
  { kind: 'user', text: 'read the file' },
  { kind: 'use', msg: 1, id: 1 },
  { kind: 'result', id: 1, error: false },
  { kind: 'text', msg: 2, text: 'fix' },
  { kind: 'user', text: 'the tests' },
  { kind: 'text', msg: 3, text: 'a' },
];

/**
 * A session log's requests as the scan reads them (its chains' calls share their messages).
 * @throws Error when the log cannot be read
 */
export function requestsOf(text: string, name: string): ScanRequest[] {
  const doc = readSource(text, name);
  if (!doc.ok) throw new Error(doc.error.message);
  const reqs = parseRequests(doc.value, name);
  if (!reqs.ok) throw new Error(reqs.error.message);
  return reqs.value;
}
