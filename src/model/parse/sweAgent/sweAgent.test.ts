/**
 * SWE-agent trajectories: our own small `.traj` values, shaped like a real one (the corpus suite
 * reads a real trajectory in realArchives.corpus.test.ts) and filled with the reported cases 01
 * (orphan after a trim) and 02 (trailing tool call), whose expected verdicts are the
 * expectations here.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../analyze.ts';
import { validateTranscript } from '../../validate/index.ts';
import { parsed } from '../../testing/index.ts';
import { sweAgentParser } from './sweAgent.ts';
import { listFileRequests } from '../../diff/requests.ts';

const sys = {
  role: 'system',
  content: 'You are an autonomous programmer with a unit-conversion tool.',
  agent: 'main',
  message_type: 'system_prompt',
};
const user = {
  role: 'user',
  content: 'How many kilometres is 26.2 miles?',
  agent: 'main',
  message_type: 'observation',
};
const action = (id: string, name: string, args: string, thought: string) => ({
  role: 'assistant',
  content: thought,
  thought,
  action: name,
  agent: 'main',
  tool_calls: [{ type: 'function', id, function: { name, arguments: args } }],
  message_type: 'action',
});
const observation = (ids: string[], content: string) => ({
  role: 'tool',
  content,
  agent: 'main',
  message_type: 'observation',
  tool_call_ids: ids,
});

const traj = (history: unknown[], model = 'gpt-4o') => ({
  trajectory: [{ action: 'convert', observation: '42.16', thought: '', response: '' }],
  history,
  info: { exit_status: 'submitted', model_stats: { tokens_sent: 0, api_calls: 1 } },
  replay_config: JSON.stringify({ agent: { model: { name: model } } }),
  environment: 'main',
});

const convert = action(
  'call_cv01',
  'convert_units',
  '{"value": 26.2, "from": "mi", "to": "km"}',
  'Convert the distance.',
);

describe('swe-agent', () => {
  it('is detected without a hint; tool_call_ids (a list) answer the calls', () => {
    const p = parsed(traj([sys, user, convert, observation(['call_cv01'], '42.16')]));
    expect(p.candidates[0]?.format).toBe('swe-agent');
    expect(p.ambiguous).toBe(false);
    const t = p.transcript;
    expect(t.format).toBe('swe-agent');
    expect(t.listKey).toBe('history');
    expect(t.settings.model).toBe('gpt-4o');
    expect(t.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(t.messages[2]?.blocks).toEqual([
      { type: 'text', text: 'Convert the distance.' },
      {
        type: 'tool_use',
        id: 'call_cv01',
        name: 'convert_units',
        input: { value: 26.2, from: 'mi', to: 'km' },
      },
    ]);
    expect(t.messages[3]?.blocks).toEqual([
      {
        type: 'tool_result',
        toolUseId: 'call_cv01',
        isError: false,
        content: [{ type: 'text', text: '42.16' }],
      },
    ]);
    expect(analyze(t).pairs.map((x) => x.status)).toEqual(['answered']);
    expect(validateTranscript(t).valid).toBe(true);
  });

  it('a replay that reuses call ids: each reuse is a duplicate call with a duplicate result, none orphaned', () => {
    const again = (id: string) => observation([id], '42.16');
    const t = parsed(
      traj([sys, user, convert, again('call_cv01'), convert, again('call_cv01')]),
    ).transcript;
    const pairs = analyze(t).pairs;
    expect(pairs.filter((p) => p.status === 'orphan' || p.status === 'unanswered')).toEqual([]);
    const count = (s: string) => pairs.filter((p) => p.status === s).length;
    expect([count('answered'), count('duplicate_id'), count('duplicate_result')]).toEqual([
      1, 1, 1,
    ]);
    expect(t.messages.flatMap((m) => m.blocks.filter((b) => b.type === 'other'))).toEqual([]);
  });

  it('case 02 (trailing tool call) keeps its verdict in a trajectory', () => {
    const v = validateTranscript(parsed(traj([sys, user, convert])).transcript);
    expect(v.valid).toBe(false);
    expect(v.violations.map((x) => [x.rule, x.messageIndex, x.ids])).toContainEqual([
      'trailing_tool_use',
      2,
      ['call_cv01'],
    ]);
  });

  it('case 01 (orphan after a trim) keeps its verdict in a trajectory', () => {
    const t = parsed(
      traj([
        observation(['call_wx01'], '{"temp_c": 18}'),
        { role: 'assistant', content: 'It is 18 °C.', agent: 'main', message_type: 'action' },
        { ...user, content: 'And tomorrow morning?' },
      ]),
    ).transcript;
    const v = validateTranscript(t);
    expect(v.valid).toBe(false);
    expect(v.violations.map((x) => [x.rule, x.messageIndex, x.ids])).toContainEqual([
      'orphan_tool_result',
      0,
      ['call_wx01'],
    ]);
  });

  it('one observation for several ids: one result per id, the content counted once', () => {
    const two = {
      ...convert,
      tool_calls: [
        ...convert.tool_calls,
        { type: 'function', id: 'call_cv02', function: { name: 'convert_units', arguments: '{}' } },
      ],
    };
    const t = parsed(
      traj([sys, user, two, observation(['call_cv01', 'call_cv02'], '42.16')]),
    ).transcript;
    expect(t.messages[3]?.blocks).toEqual([
      {
        type: 'tool_result',
        toolUseId: 'call_cv01',
        isError: false,
        content: [{ type: 'text', text: '42.16' }],
      },
      { type: 'tool_result', toolUseId: 'call_cv02', isError: false, content: [] },
    ]);
    expect(analyze(t).pairs.map((x) => x.status)).toEqual(['answered', 'answered']);
  });

  it('a tool message with tool_call_id (singular) and older text-only entries still read', () => {
    const t = parsed(
      traj([
        sys,
        { role: 'assistant', content: 'DISCUSSION\nls\n', agent: 'main', thought: 'ls' },
        { role: 'tool', content: 'a.py', tool_call_id: 'x1', agent: 'main' },
        'junk',
      ]),
    ).transcript;
    expect(t.messages[1]?.blocks).toEqual([{ type: 'text', text: 'DISCUSSION\nls\n' }]);
    expect(t.messages[2]?.blocks[0]).toMatchObject({ type: 'tool_result', toolUseId: 'x1' });
    expect(t.messages[3]?.blocks[0]).toMatchObject({ type: 'other' });
  });

  it('a trajectory of a Claude model says which provider to pick', () => {
    const t = parsed(traj([sys, user], 'claude-3-5-sonnet-20241022')).transcript;
    expect(t.warnings.join(' ')).toMatch(/went to Anthropic/);
    expect(parsed(traj([sys, user], 'gpt-4o')).transcript.warnings).toEqual([]);
  });

  it('a replay says so and names no model', () => {
    const t = parsed(traj([sys, user], 'replay')).transcript;
    expect(t.settings.model).toBeUndefined();
    expect(t.warnings.join(' ')).toMatch(/replay/);
  });

  it('sniff: 0 for a Chat body or a history of plain role messages with no frame', () => {
    expect(sweAgentParser.sniff({ messages: [user] })).toBe(0);
    expect(sweAgentParser.sniff({ history: [{ role: 'user', content: 'x' }] })).toBe(0);
    expect(sweAgentParser.sniff({ history: [1, 2] })).toBe(0);
    expect(sweAgentParser.sniff('x')).toBe(0);
    expect(sweAgentParser.parse({ kind: 'json', value: { history: 3 } }).ok).toBe(false);
  });
});

describe('swe-agent model calls (issue 33)', () => {
  it('each reply in history that is not a demonstration is one call, its context every entry before it', () => {
    const read = action('call_rd01', 'read', '{}', 'Read the notes.');
    const demo = { ...action('call_demo', 'read', '{}', 'A demonstration.'), is_demo: true };
    const history = [
      sys,
      user,
      demo,
      observation(['call_demo'], 'demo output'),
      convert,
      observation(['call_cv01'], '42.16'),
      read,
      observation(['call_rd01'], 'notes'),
    ];
    const r = listFileRequests(JSON.stringify(traj(history)), { name: 'a.traj' });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.kind).toBe('session');
    expect(r.value.requests.map((q) => q.messages)).toEqual([4, 6]);
    expect(r.value.session?.calls.map((c) => [c.spans, c.reply])).toEqual([
      [[[0, 4]], 4],
      [[[0, 6]], 6],
    ]);
  });
});
