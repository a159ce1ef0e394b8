import { describe, expect, it } from 'vitest';
import { listFileRequests, requestVerdict, type RequestListing } from '../../diff/requests.ts';

/** One Claude Code log line: `type`, `uuid`, `parentUuid`, and a message. */
interface Line {
  type: 'user' | 'assistant' | 'system' | 'attachment';
  uuid: string;
  parent: string | null;
  id?: string;
  content?: unknown;
  model?: string;
  apiError?: boolean;
  sidechain?: boolean;
  extra?: Record<string, unknown>;
}

const log = (lines: Line[]): string =>
  lines
    .map((l) =>
      JSON.stringify({
        type: l.type,
        uuid: l.uuid,
        parentUuid: l.parent,
        sessionId: 's1',
        isSidechain: l.sidechain ?? false,
        ...(l.apiError ? { isApiErrorMessage: true } : {}),
        ...(l.type === 'user' || l.type === 'assistant'
          ? {
              message: {
                role: l.type,
                ...(l.id ? { id: l.id, model: l.model ?? 'claude-sonnet-4-5' } : {}),
                content: l.content,
              },
            }
          : {}),
        ...l.extra,
      }),
    )
    .join('\n');

const text = (t: string) => [{ type: 'text', text: t }];
const call = (id: string, name = 'Bash') => [{ type: 'tool_use', id, name, input: {} }];
const result = (id: string, out = 'ok') => [{ type: 'tool_result', tool_use_id: id, content: out }];

function list(s: string): RequestListing {
  const r = listFileRequests(s, { name: 'session.jsonl' });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** The texts (or block types) of call `k`'s messages, in order. */
function context(l: RequestListing, k: number): string[] {
  return l
    .transcriptOf(k)
    .messages.map((m) => m.blocks.map((b) => (b.type === 'text' ? b.text : b.type)).join('+'));
}

describe('Claude Code calls follow the parentUuid chain (branches left)', () => {
  // A reply's tool call left unanswered (interrupted); the user goes on from the message before it.
  const interrupted = log([
    { type: 'user', uuid: 'u1', parent: null, content: 'build it' },
    { type: 'assistant', uuid: 'a1', parent: 'u1', id: 'm1', content: call('t1') },
    { type: 'user', uuid: 'r1', parent: 'a1', content: result('t1') },
    { type: 'assistant', uuid: 'a2', parent: 'r1', id: 'm2', content: call('t2') },
    { type: 'user', uuid: 'u2', parent: 'r1', content: 'Continue from where you left off.' },
    { type: 'assistant', uuid: 'a3', parent: 'u2', id: 'm3', content: text('done') },
  ]);

  it('an unanswered tool call on a branch left is not in later calls: no false 400', () => {
    const l = list(interrupted);
    expect(l.requests).toHaveLength(3);
    expect(context(l, 2)).toEqual([
      'build it',
      'tool_use',
      'tool_result',
      'Continue from where you left off.',
    ]);
    expect(requestVerdict(l, 2).valid).toBe(true);
    expect(l.requests[2]?.compaction).toMatchObject({
      kind: 'rollback',
      removed: [3, 4],
      summary: null,
      line: 5,
      trigger: 'went on from line 3',
    });
    // The call on the branch itself saw what it saw.
    expect(context(l, 1)).toEqual(['build it', 'tool_use', 'tool_result']);
  });

  it('parallel tool results, each a child of its own tool_use line, leave nothing', () => {
    const l = list(
      log([
        { type: 'user', uuid: 'u1', parent: null, content: 'look' },
        { type: 'assistant', uuid: 'a1', parent: 'u1', id: 'm1', content: call('t1') },
        { type: 'assistant', uuid: 'a2', parent: 'a1', id: 'm1', content: call('t2') },
        { type: 'user', uuid: 'r1', parent: 'a1', content: result('t1') },
        { type: 'user', uuid: 'r2', parent: 'a2', content: result('t2') },
        { type: 'assistant', uuid: 'a3', parent: 'r2', id: 'm2', content: text('both done') },
      ]),
    );
    expect(l.requests.map((r) => r.compaction)).toEqual([null, null]);
    expect(context(l, 1)).toEqual(['look', 'tool_use+tool_use', 'tool_result', 'tool_result']);
    expect(requestVerdict(l, 1).valid).toBe(true);
  });

  it('a failed call retried from the same prompt: the error line leaves the context', () => {
    const l = list(
      log([
        { type: 'user', uuid: 'u1', parent: null, content: 'hi' },
        {
          type: 'assistant',
          uuid: 'e1',
          parent: 'u1',
          id: 'x1',
          model: '<synthetic>',
          apiError: true,
          content: text('API Error: 529 overloaded'),
        },
        { type: 'assistant', uuid: 'a1', parent: 'u1', id: 'm1', content: text('hello') },
        { type: 'user', uuid: 'u2', parent: 'a1', content: 'thanks' },
        { type: 'assistant', uuid: 'a2', parent: 'u2', id: 'm2', content: text('welcome') },
      ]),
    );
    expect(l.requests).toHaveLength(3);
    expect(l.requests[1]?.compaction).toMatchObject({ kind: 'rollback', removed: [1, 2] });
    expect(context(l, 2)).toEqual(['hi', 'hello', 'thanks']);
  });

  it('a reply whose parent is a line that is no message (an attachment) follows it up', () => {
    const l = list(
      log([
        { type: 'user', uuid: 'u1', parent: null, content: 'go' },
        { type: 'assistant', uuid: 'a1', parent: 'u1', id: 'm1', content: call('t1') },
        { type: 'user', uuid: 'r1', parent: 'a1', content: result('t1') },
        { type: 'attachment', uuid: 'x1', parent: 'r1', extra: { attachment: { type: 'todo' } } },
        { type: 'assistant', uuid: 'a2', parent: 'x1', id: 'm2', content: text('ok') },
      ]),
    );
    expect(l.requests.map((r) => r.compaction)).toEqual([null, null]);
    expect(context(l, 1)).toEqual(['go', 'tool_use', 'tool_result']);
  });

  it('a line written before its parent is read after it: no branch', () => {
    const l = list(
      log([
        { type: 'user', uuid: 'u1', parent: null, content: 'go' },
        { type: 'user', uuid: 'r1', parent: 'a1', content: result('t1') },
        { type: 'assistant', uuid: 'a1', parent: 'u1', id: 'm1', content: call('t1') },
        { type: 'assistant', uuid: 'a2', parent: 'r1', id: 'm2', content: text('ok') },
      ]),
    );
    expect(l.requests.map((r) => r.compaction)).toEqual([null, null]);
    expect(requestVerdict(l, 1).valid).toBe(true);
  });

  it('two branches left, the second from further back: one context, no message twice', () => {
    const l = list(
      log([
        { type: 'user', uuid: 'u1', parent: null, content: 'one' },
        { type: 'assistant', uuid: 'a1', parent: 'u1', id: 'm1', content: text('A') },
        { type: 'user', uuid: 'u2', parent: 'a1', content: 'two' },
        { type: 'assistant', uuid: 'a2', parent: 'u2', id: 'm2', content: call('t9') },
        { type: 'user', uuid: 'u3', parent: 'u2', content: 'two again' },
        { type: 'assistant', uuid: 'a3', parent: 'u3', id: 'm3', content: text('B') },
        { type: 'user', uuid: 'u4', parent: 'a1', content: 'rewound' },
        { type: 'assistant', uuid: 'a4', parent: 'u4', id: 'm4', content: text('C') },
      ]),
    );
    expect(context(l, 2)).toEqual(['one', 'A', 'two', 'two again']);
    expect(context(l, 3)).toEqual(['one', 'A', 'rewound']);
    expect(l.requests[3]?.compaction).toMatchObject({ kind: 'rollback', removed: [2, 6] });
    expect(requestVerdict(l, 3).valid).toBe(true);
  });

  it('after a compaction, a branch is sought from the summary on only', () => {
    const l = list(
      log([
        { type: 'user', uuid: 'u1', parent: null, content: 'old' },
        { type: 'assistant', uuid: 'a1', parent: 'u1', id: 'm1', content: text('old reply') },
        {
          type: 'system',
          uuid: 'b1',
          parent: null,
          extra: {
            subtype: 'compact_boundary',
            compactMetadata: { trigger: 'auto', preTokens: 9 },
          },
        },
        {
          type: 'user',
          uuid: 's1',
          parent: 'b1',
          content: 'summary',
          extra: { isCompactSummary: true },
        },
        { type: 'assistant', uuid: 'a2', parent: 's1', id: 'm2', content: text('new') },
        { type: 'user', uuid: 'u2', parent: 'u1', content: 'from before the summary' },
        { type: 'assistant', uuid: 'a3', parent: 'u2', id: 'm3', content: text('end') },
      ]),
    );
    expect(l.requests[1]?.compaction).toMatchObject({ kind: 'compaction' });
    expect(l.requests[2]?.compaction).toBeNull();
    expect(context(l, 2)).toEqual(['summary', 'new', 'from before the summary']);
  });
});
