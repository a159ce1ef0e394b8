import { describe, expect, it } from 'vitest';
import { assistant, call, result, text, transcript, user } from '../testing/index.ts';
import type { Block } from '../types.ts';
import { validateTranscript } from './index.ts';

/** A server tool call (`server_tool_use`) and its result block, Anthropic A15/A16. */
const serverCall = (id: string): Block => ({
  type: 'tool_use',
  id,
  name: 'web_search',
  input: { query: 'pgbouncer reload' },
  server: true,
});
const serverResult = (id: string): Block => ({
  type: 'tool_result',
  toolUseId: id,
  isError: false,
  content: [],
  server: 'web_search_tool_result',
});

describe('anthropic A4: a server tool call deferred behind client tool calls (A4)', () => {
  it('is accepted when the next user message holds only tool_result blocks and the result comes in the next assistant turn', () => {
    const t = transcript('anthropic-messages', [
      user('Why did checkout fail?'),
      assistant(serverCall('srvtoolu_1'), call('toolu_1', 'search_logs')),
      user(result('toolu_1')),
      assistant(serverResult('srvtoolu_1'), text('A reload dropped the listeners.')),
      user('Thanks.'),
    ]);
    const v = validateTranscript(t, 'anthropic');
    expect(v.violations.filter((x) => x.severity === 'error')).toEqual([]);
  });

  it('fails when the user message after the batch also carries text', () => {
    const t = transcript('anthropic-messages', [
      user('Why did checkout fail?'),
      assistant(serverCall('srvtoolu_1'), call('toolu_1', 'search_logs')),
      user(result('toolu_1'), text('Also look at the deploy log.')),
      assistant(serverResult('srvtoolu_1'), text('A reload dropped the listeners.')),
    ]);
    const errors = validateTranscript(t, 'anthropic').violations.filter(
      (x) => x.severity === 'error',
    );
    expect(errors[0]).toMatchObject({
      rule: 'server_tool_unanswered',
      code: 'A4',
      messageIndex: 1,
      blockIndex: 0,
      ids: ['srvtoolu_1'],
    });
    expect(errors[0]?.message).toBe(
      'messages.1: `web_search` tool use with id `srvtoolu_1` was found without a corresponding `web_search_tool_result` block',
    );
  });

  it('a server call with no client calls beside it still needs its result in the same turn (A15)', () => {
    const t = transcript('anthropic-messages', [
      user('q'),
      assistant(serverCall('srvtoolu_2'), text('Searching.')),
      user('and?'),
    ]);
    const [e] = validateTranscript(t, 'anthropic').violations;
    expect(e).toMatchObject({ rule: 'server_tool_unanswered', code: 'A15' });
  });
});
