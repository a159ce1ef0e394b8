import { describe, expect, it } from 'vitest';
import { pairCounts, pairToolCalls } from './pairing.ts';
import { assistant, call, result, tool, transcript, user } from './testing/index.ts';
import type { Block } from './types.ts';

const pairs = (...ms: Parameters<typeof transcript>[1]) =>
  pairToolCalls(transcript('anthropic-messages', ms).messages);

describe('pairToolCalls (hazard-named fixtures)', () => {
  it('parallel calls answered in the next message', () => {
    const p = pairs(user('q'), assistant(call('a'), call('b')), user(result('b'), result('a')));
    expect(p.map((x) => [x.id, x.status, x.call, x.result])).toEqual([
      ['a', 'answered', { message: 1, block: 0 }, { message: 2, block: 1 }],
      ['b', 'answered', { message: 1, block: 1 }, { message: 2, block: 0 }],
    ]);
  });

  it('OpenAI-style run of tool messages', () => {
    expect(
      pairs(user('q'), assistant(call('a'), call('b')), tool('a'), tool('b')).map((x) => x.status),
    ).toEqual(['answered', 'answered']);
  });

  it('Responses-style parallel call items share the answer run', () => {
    expect(
      pairs(user('q'), assistant(call('a')), assistant(call('b')), tool('a'), tool('b')).map(
        (x) => x.status,
      ),
    ).toEqual(['answered', 'answered']);
  });

  it('a result after a later turn is answered_late', () => {
    expect(
      pairs(user('q'), assistant(call('a')), user('wait'), user(result('a'))).map((x) => x.status),
    ).toEqual(['answered_late']);
  });

  it('unanswered, partial and orphan', () => {
    const p = pairs(user(result('zz')), assistant(call('a'), call('b')), user(result('b')));
    expect(p.map((x) => [x.id, x.status, x.partial])).toEqual([
      ['zz', 'orphan', false],
      ['a', 'unanswered', true],
      ['b', 'answered', false],
    ]);
    expect(pairCounts(p)).toMatchObject({ orphan: 1, unanswered: 1, answered: 1 });
  });

  it('a result before its call is an orphan', () => {
    expect(pairs(user(result('a')), assistant(call('a'))).map((x) => x.status)).toEqual([
      'orphan',
      'unanswered',
    ]);
  });

  it('a duplicate tool_use id and a duplicate result', () => {
    const p = pairs(
      user('q'),
      assistant(call('a')),
      user(result('a'), result('a')),
      assistant(call('a')),
    );
    expect(p.map((x) => x.status)).toEqual(['answered', 'duplicate_result', 'duplicate_id']);
  });

  it('calls without ids pair by position and name (legacy function_call)', () => {
    const noId = (name: string): Block => ({ type: 'tool_use', id: null, name, input: {} });
    const res = (name: string): Block => ({
      type: 'tool_result',
      toolUseId: null,
      isError: false,
      content: [],
      name,
    });
    const p = pairs(
      user('q'),
      assistant(noId('search'), noId('fetch')),
      user(res('fetch'), res('search')),
    );
    expect(p.map((x) => [x.name, x.status, x.result?.block])).toEqual([
      ['search', 'answered', 1],
      ['fetch', 'answered', 0],
    ]);
  });

  it('keys are stable and unique', () => {
    const p = pairs(user('q'), assistant(call('a'), call('b')), user(result('a'), result('b')));
    expect(p.map((x) => x.key)).toEqual(['p0', 'p1']);
  });
});
