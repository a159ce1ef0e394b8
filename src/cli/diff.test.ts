import { describe, expect, it } from 'vitest';
import { encodePermalink } from '../model/permalink/codec.ts';
import { defaultPermalinkState, type PermalinkView } from '../model/permalink/schema.ts';
import { claudeCodeLog } from '../model/testing/claudeCodeLog.ts';
import { cli } from './testing/index.ts';

// A complete request defines its tools (without them A7 would be its first error).
const tools = [{ name: 'read', input_schema: { type: 'object' } }];
const body = (messages: unknown[]) =>
  JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 100, tools, messages });
const call = { type: 'tool_use', id: 'toolu_1', name: 'read', input: {} };
const answer = { type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok' };
const msgs = [
  { role: 'user', content: 'Read it.' },
  { role: 'assistant', content: [call] },
  { role: 'user', content: [answer] },
  { role: 'assistant', content: 'Done.' },
];

/** A Claude Code log of two calls with a compaction between them. */
function compactedLog(): string {
  const w = claudeCodeLog();
  w.user('Read it.');
  w.assistant('msg_1', [call]);
  w.user([answer]);
  w.assistant('msg_2', [{ type: 'text', text: 'Done.' }]);
  w.user('Next.');
  w.compaction('manual', 'Summary of the conversation so far.');
  w.assistant('msg_3', [{ type: 'text', text: 'Going on.' }]);
  return w.text();
}

/** The page's link of `text` with `view` (its diff view: `d=`), made by the page's codec. */
function pageLink(text: string, view: Partial<PermalinkView>): string {
  const state = defaultPermalinkState();
  state.source = { kind: 'inline', text, redacted: false };
  state.view = { ...state.view, ...view };
  return `http://ti.example/#${encodePermalink(state)}`;
}

describe('diff (CLI)', () => {
  it('diff A B: rows, broken and exit 1 when the right side is invalid', async () => {
    const r = await cli(['diff', 'a.json', 'b.json', '--json'], {
      'a.json': body(msgs),
      'b.json': body(msgs.slice(2)),
    });
    expect(r.code).toBe(1);
    const d = JSON.parse(r.out);
    expect(d.rows.map((x: { change: string }) => x.change)).toEqual([
      'dropped',
      'dropped',
      'kept',
      'kept',
    ]);
    expect(d.broken).toMatchObject([{ id: 'toolu_1', rule: 'orphan_tool_result', code: 'A1' }]);
    expect(d.summary).toMatch(/^b\.json dropped messages 0–1/);
    expect(Object.keys(d)).toEqual(
      expect.arrayContaining(['summary', 'left', 'right', 'rows', 'broken', 'cachePrefix']),
    );
  });

  it('diff A B in words: the summary, the runs, the broken pair and the exact 400', async () => {
    const r = await cli(['diff', 'a.json', 'b.json'], {
      'a.json': body(msgs),
      'b.json': body(msgs.slice(2)),
    });
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^dropped +0–1$/m);
    expect(r.out).toMatch(/^kept +2–3 → 0–1$/m);
    expect(r.out).toMatch(/^broken: \[A1\] orphan_tool_result \(id toolu_1\) at right message 0$/m);
    expect(r.out).toMatch(
      /^b\.json gets: HTTP 400 \{"type":"error","error":\{"type":"invalid_request_error"/m,
    );
  });

  it('diff A B where B cannot be read: the note on which request of A was read, then one error, exit 2', async () => {
    // A batch input file: one request per line (docs/formats.md#batch), two of them.
    const batch = [msgs.slice(0, 2), msgs]
      .map((m, i) => JSON.stringify({ custom_id: `r${i + 1}`, params: JSON.parse(body(m)) }))
      .join('\n');
    const r = await cli(['diff', 'log.jsonl', 'b.json'], {
      'log.jsonl': batch,
      'b.json': '{"messages": [',
    });
    expect(r.code).toBe(2);
    const [note, ...rest] = r.err.split('\n');
    expect(note).toMatch(/^note: log\.jsonl holds 2 requests; read #2 /);
    expect(rest[0]).toMatch(/^error: /);
    expect(rest.filter((l) => l.startsWith('error: '))).toHaveLength(1);
    expect(r.err).not.toContain('usage:');
  });

  it('diff A A: all kept, exit 0, said in words', async () => {
    const r = await cli(['diff', 'a.json', 'a.json'], { 'a.json': body(msgs) });
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/is the same as/);
    expect(r.out).toMatch(/^kept +0–3 → 0–3$/m);
  });

  it('diff FILE --request N: against its predecessor in the thread, across a compaction', async () => {
    const r = await cli(['diff', 'log.jsonl', '--request', '3', '--json'], {
      'log.jsonl': compactedLog(),
    });
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/request 3 compared with request 2 \(the call before the compaction/);
    const d = JSON.parse(r.out);
    expect(d.left.request).toBe(2);
    expect(d.right.request).toBe(3);
    expect(d.summary).toMatch(/^Request 3 replaced messages 0–2 .* with a summary/);
  });

  it('check --requests on a HAR gives the recorded 400 as apiError, as plain check says it', async () => {
    const body = { model: 'gpt-4.1', messages: [{ role: 'user', content: 'hi' }] };
    const answer = { error: { message: 'string too long.', type: 'invalid_request_error' } };
    const har = JSON.stringify({
      log: {
        entries: [
          {
            request: {
              method: 'POST',
              url: 'https://api.openai.com/v1/chat/completions',
              postData: { text: JSON.stringify(body) },
            },
            response: { status: 400, content: { text: JSON.stringify(answer) } },
          },
        ],
      },
    });
    const plain = await cli(['check', 's.har'], { 's.har': har });
    expect(plain.out).toContain('The provider answered 400: string too long.');
    const r = await cli(['check', 's.har', '--requests', '--json'], { 's.har': har });
    expect(JSON.parse(r.out)).toEqual([
      expect.objectContaining({ request: 1, valid: true, apiError: 'HTTP 400: string too long.' }),
    ]);
    const text = await cli(['check', 's.har', '--requests'], { 's.har': har });
    expect(text.out).toContain('HTTP 400: string too long.');
  });

  it('check --requests lists the calls and the compaction', async () => {
    const r = await cli(['check', 'log.jsonl', '--requests', '--json'], {
      'log.jsonl': compactedLog(),
    });
    expect(r.code).toBe(0);
    const list = JSON.parse(r.out);
    expect(list.map((x: { request: number; messages: number }) => [x.request, x.messages])).toEqual(
      [
        [1, 1],
        [2, 3],
        [3, 1],
      ],
    );
    expect(list[2].compaction).toMatchObject({
      kind: 'compaction',
      trigger: 'manual',
      tokensBefore: 900,
      tokensAfter: 90,
      removed: [0, 5],
      summary: 5,
    });
    expect(
      list.every((x: { valid: boolean; firstRule: unknown }) => x.valid && x.firstRule === null),
    ).toBe(true);
    const text = await cli(['check', 'log.jsonl', '--requests'], { 'log.jsonl': compactedLog() });
    expect(text.out).toMatch(
      /compaction \(manual\): 900 → 90 tokens; messages 0–4 left the context/,
    );
  });

  it('check --requests says which lines of a log it skipped, in words and with --json (newcomer: silent)', async () => {
    const lines = compactedLog().split('\n');
    lines.splice(2, 0, '{"type": "user", "message": {');
    const files = { 'bad.jsonl': lines.join('\n') };
    const text = await cli(['check', 'bad.jsonl', '--requests'], files);
    expect(text.out).toMatch(/^note: 1 line\(s\) are not valid JSON and were skipped: 3\.$/m);
    const json = await cli(['check', 'bad.jsonl', '--requests', '--json'], files);
    expect(json.err).toMatch(/^note: 1 line\(s\) are not valid JSON and were skipped: 3\.$/m);
    expect(JSON.parse(json.out)).toHaveLength(3);
  });

  it('check --requests of a log of one call says "1 model call" (newcomer: "1 model calls")', async () => {
    const w = claudeCodeLog();
    w.user('hi');
    w.assistant('m1', [{ type: 'text', text: 'hello' }]);
    const r = await cli(['check', 'one.jsonl', '--requests'], { 'one.jsonl': w.text() });
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^one\.jsonl: claude-code-jsonl; 1 model call of a session log$/m);
  });

  it('a link too long for the command line is read from a file or stdin holding it (newcomer: Argument list too long)', async () => {
    const link = pageLink(body(msgs.slice(2)), {});
    const direct = await cli(['check', link], {});
    for (const [name, text] of [
      ['link.txt', `${link}\n`],
      ['-', `  ${link}  `],
      ['frag.txt', link.slice(link.indexOf('#'))],
    ] as const) {
      const r = await cli(['check', name], { [name]: text });
      expect(r.code, name).toBe(1);
      expect(r.out, name).toContain('INVALID');
      expect(r.out.slice(r.out.indexOf('INVALID')), name).toBe(
        direct.out.slice(direct.out.indexOf('INVALID')),
      );
    }
    // Not a link: a text with more than the link in it is read as a transcript.
    const r = await cli(['check', 'notes.txt'], { 'notes.txt': `${link}\nsee above` });
    expect(r.code).toBe(2);
  });

  it('a valid call whose log records an API error says the error is not the structure’s (newcomer: VALID above a logged 400)', async () => {
    const lines = [
      { type: 'user', uuid: 'u1', parentUuid: null, message: { role: 'user', content: 'hi' } },
      {
        type: 'assistant',
        uuid: 'e1',
        parentUuid: 'u1',
        isApiErrorMessage: true,
        message: {
          id: 'x1',
          role: 'assistant',
          model: '<synthetic>',
          content: [{ type: 'text', text: 'API Error: 400 Invalid model: claude-x' }],
        },
      },
    ].map((l) => JSON.stringify({ sessionId: 's', ...l }));
    const r = await cli(['check', 'err.jsonl', '--requests'], { 'err.jsonl': lines.join('\n') });
    expect(r.out).toMatch(
      /#1 .* VALID\n {4}the log records an API error that no structure rule explains \(the messages are valid; e\.g\. the model, a quota, the server\): API Error: 400 Invalid model/,
    );
    // The last line counts it: 'every request is valid' alone read as nothing failed (newcomer).
    expect(r.out).toMatch(
      /Compactions and rollbacks: 0; every request is valid in structure; the log records an API error for call 1; its messages are valid, so the structure is not the cause \(e\.g\. the model, a quota, the server\)\.\n$/,
    );
  });

  it('an out-of-range request names the range (exit 2)', async () => {
    const r = await cli(['diff', 'log.jsonl', '--request', '9'], { 'log.jsonl': compactedLog() });
    expect(r.code).toBe(2);
    expect(r.err).toContain('--request 9: request 9 is out of range: this file holds requests 1–3');
    const j = await cli(['diff', 'log.jsonl', '--request', '2', '--against', '7', '--json'], {
      'log.jsonl': compactedLog(),
    });
    expect(j.code).toBe(2);
    expect(JSON.parse(j.out).error.message).toContain('holds requests 1–3');
  });

  it('the first call has no predecessor: exit 2, asks for --against', async () => {
    const r = await cli(['diff', 'log.jsonl', '--request', '1'], { 'log.jsonl': compactedLog() });
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/no predecessor .*--against M/);
  });

  it('two formats are compared through the model, said on stderr and in the summary', async () => {
    const chat = JSON.stringify({
      model: 'gpt-4.1',
      messages: [{ role: 'user', content: 'Read it.' }],
    });
    const r = await cli(['diff', 'a.json', 'b.json'], { 'a.json': body(msgs), 'b.json': chat });
    expect(r.err).toMatch(/compared through the model/);
    expect(r.out.split('\n')[0]).toMatch(
      /compared through the model: anthropic-messages and openai-chat/,
    );
    // Said once: a terminal shows stderr and stdout together (newcomer: the note came twice).
    expect(
      `${r.err}${r.out}`.match(/^note: The two sides are of different formats/gm),
    ).toHaveLength(1);
  });

  it('bad usage exits 2', async () => {
    expect((await cli(['diff'], {})).code).toBe(2);
    expect((await cli(['diff', 'a.json'], { 'a.json': body(msgs) })).code).toBe(2);
    expect((await cli(['diff', 'a', 'b', 'c'], {})).code).toBe(2);
    expect((await cli(['diff', 'a', 'b', '--request', '1'], {})).code).toBe(2);
    expect((await cli(['diff', 'a.json', 'missing.json'], { 'a.json': body(msgs) })).code).toBe(2);
    expect((await cli(['check', 'a.json', '--requests', '--request', '1'], {})).code).toBe(2);
  });

  it("diff LINK diffs what the link's diff view names (d=prev with rq, d=A.B)", async () => {
    const log = compactedLog();
    const prev = pageLink(log, { request: 2, diff: { kind: 'previous' } });
    expect(prev).toContain('d=prev');
    const r = await cli(['diff', prev, '--json'], {});
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/request 3 \(rq=3\) against its predecessor, from the link \(d=prev\)/);
    const d = JSON.parse(r.out);
    expect([d.left.request, d.right.request]).toEqual([2, 3]);
    const two = pageLink(log, { diff: { kind: 'requests', left: 0, right: 1 } });
    const t = await cli(['diff', two, '--json'], {});
    expect(t.code).toBe(0);
    expect(t.err).toMatch(/request 2 against request 1, from the link \(d=1\.2\)/);
    const j = JSON.parse(t.out);
    expect([j.left.request, j.right.request]).toEqual([1, 2]);
    // A flag wins over the link's d=.
    const f = await cli(['diff', two, '--request', '3', '--against', '1', '--json'], {});
    expect([JSON.parse(f.out).left.request, JSON.parse(f.out).right.request]).toEqual([1, 3]);
  });

  it('diff reads a link with d= from a file or stdin holding it (newcomer: "needs --request N")', async () => {
    const prev = pageLink(compactedLog(), { request: 2, diff: { kind: 'previous' } });
    const direct = await cli(['diff', prev, '--json'], {});
    expect(direct.code).toBe(0);
    for (const [name, text] of [
      ['difflink.txt', `${prev}\n`],
      ['-', `  ${prev}  `],
    ] as const) {
      const r = await cli(['diff', name, '--json'], { [name]: text });
      expect(r.code, name).toBe(0);
      expect(r.out, name).toBe(direct.out);
      expect(r.err, name).toMatch(/request 3 \(rq=3\) against its predecessor, from the link/);
    }
    // A FILE that holds a transcript still needs --request N.
    const plain = await cli(['diff', 'log.jsonl'], { 'log.jsonl': compactedLog() });
    expect(plain.code).toBe(2);
    expect(plain.err).toMatch(/diff FILE needs --request N/);
  });

  it('diff LINK without a diff view of two requests is bad usage (exit 2)', async () => {
    const none = await cli(['diff', pageLink(compactedLog(), {})], {});
    expect(none.code).toBe(2);
    expect(none.err).toMatch(/opens no diff view/);
    const cuts = await cli(['diff', pageLink(compactedLog(), { diff: { kind: 'cuts' } })], {});
    expect(cuts.code).toBe(2);
    expect(cuts.err).toMatch(/d=cuts/);
  });
});
