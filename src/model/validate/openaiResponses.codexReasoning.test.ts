/**
 * R3/R4 on a Codex rollout's calls: a reply that produced no reasoning item (the log's
 * `reasoning_output_tokens: 0`) has none to replay, so its message and call items, replayed with
 * their ids beside a later reply's reasoning, are not a 400 (newcomer: a real rollout's third
 * call was flagged R4 though the model answered it).
 */
import { describe, expect, it } from 'vitest';
import { listFileRequests, requestVerdict } from '../diff/requests.ts';
import { load } from '../testing/faults.fixtures.ts';
import { validateTranscript } from './index.ts';

const line = (type: string, payload: object) =>
  JSON.stringify({ timestamp: '2026-03-01T10:00:00.000Z', type, payload });
const item = (payload: object) => line('response_item', payload);
const say = (id: string, text: string) =>
  item({ type: 'message', id, role: 'assistant', content: [{ type: 'output_text', text }] });
const ask = (text: string) =>
  item({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
const think = (id: string) =>
  item({ type: 'reasoning', id, summary: [], encrypted_content: 'gAAAAB-opaque' });
const call = (id: string, callId: string) =>
  item({ type: 'function_call', id, name: 'shell', arguments: '{}', call_id: callId });
const out = (callId: string) =>
  item({ type: 'function_call_output', call_id: callId, output: 'ok' });

/** Reply 1 has no reasoning item; replies 2 and 3 open with one. */
const ROLLOUT = [
  line('session_meta', {
    id: 's1',
    timestamp: '2026-03-01T10:00:00.000Z',
    cwd: '/w',
    cli_version: '0.142.0',
  }),
  line('turn_context', { cwd: '/w', model: 'gpt-5.5', effort: 'medium' }),
  ask('list the repo'),
  say('msg_r1a', 'Listing it.'),
  call('fc_r1b', 'call_r1'),
  out('call_r1'),
  think('rs_r2a'),
  say('msg_r2b', 'Two files. Reading both.'),
  call('fc_r2c', 'call_r2'),
  out('call_r2'),
  think('rs_r3a'),
  say('msg_r3b', 'Done.'),
].join('\n');

describe('R3/R4 on a session log: a reply without reasoning has none to replay', () => {
  it('the third call of a rollout whose first reply produced no reasoning is valid', () => {
    const listing = listFileRequests(ROLLOUT, { name: 'rollout.jsonl' });
    if (!listing.ok) throw new Error(listing.error.message);
    expect(listing.value.session?.calls).toHaveLength(3);
    for (let k = 0; k < 3; k++)
      expect(requestVerdict(listing.value, k, 'openai-responses'), `call ${k + 1}`).toEqual({
        valid: true,
        firstRule: null,
      });
  });

  it('a request body (not a log) with the same items still gets R4: a body cannot say its reply had none', () => {
    const t = load({
      model: 'gpt-5.5',
      input: [
        { type: 'message', role: 'user', content: 'list the repo' },
        { type: 'message', id: 'msg_r1a', role: 'assistant', content: 'Listing it.' },
        { type: 'message', role: 'user', content: 'and now?' },
        { type: 'reasoning', id: 'rs_r2a', summary: [], encrypted_content: 'x' },
        { type: 'message', id: 'msg_r2b', role: 'assistant', content: 'Two files.' },
        { type: 'message', role: 'user', content: 'ok' },
      ],
    });
    expect(t.format).toBe('openai-responses');
    const v = validateTranscript(t, 'openai-responses');
    expect(v.violations.map((x) => [x.code, x.ids])).toEqual([['R4', ['msg_r1a']]]);
  });
});
