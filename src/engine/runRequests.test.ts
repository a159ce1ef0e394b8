import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { listFileRequests } from '../model/diff/index.ts';
import type { RequestsAnswer } from './diffProtocol.ts';
import { unpackRequests } from './requestColumns.ts';
import type { WorkerResponse } from './protocol.ts';
import { resetRun, runRequest } from './run.ts';
import { hasCalls, judgeCalls, sessionAnswer, streamedSession } from './runRequests.ts';
import { run } from './runState.ts';
import { PREVIEW_RECORDS, readBlobSource } from './stream.ts';
import { packedRows } from './packMessages.ts';
import { parseDocument } from '../model/parse/index.ts';
import { claudeCodeLog } from '../model/testing/claudeCodeLog.ts';
import { rawAsRulesRead } from '../model/validate/rawFields.ts';

/**
 * A Claude Code log of `turns` tool exchanges (4 lines each), then a compaction (its boundary
 * well past the preview's records, so its line is slimmed and released as a long log's are), its
 * summary and one more reply: `2 * turns + 1` model calls.
 */
function sessionLog(turns: number): string {
  const w = claudeCodeLog({ cwd: '/x' });
  for (let k = 0; k < turns; k++) {
    const id = `toolu_${k}`;
    w.user(`Step ${k}.`);
    w.assistant(`msg_${k}a`, [{ type: 'tool_use', id, name: 'read', input: {} }]);
    w.user([{ type: 'tool_result', tool_use_id: id, content: 'ok' }]);
    w.assistant(`msg_${k}b`, [{ type: 'text', text: 'Done.' }]);
  }
  w.user('Next.');
  w.compaction('auto', 'Summary of the conversation so far.');
  w.assistant('msg_last', [{ type: 'text', text: 'Going on.' }]);
  return w.text();
}

const collect =
  (posts: WorkerResponse[]) =>
  (m: WorkerResponse, tr: Transferable[] = []) => {
    posts.push(structuredClone(m, { transfer: tr }));
  };

async function stream(text: string, id: number, requestIndex?: number, bpe = false) {
  const posts: WorkerResponse[] = [];
  await runRequest(
    {
      id,
      req: {
        text: '',
        name: 'log.jsonl',
        format: null,
        provider: null,
        file: new Blob([text]),
        ...(requestIndex !== undefined ? { requestIndex } : {}),
      },
      bpe,
      fileKey: 7,
    },
    collect(posts),
  );
  return posts;
}

/** The values the worker holds of the last file's records. */
function kept(): unknown[] {
  const doc = run.lastFile?.source.doc;
  if (doc?.kind !== 'jsonl') throw new Error('no log kept');
  return doc.lines.map((l) => l.value);
}

/** Each record of a log as released (what the rules read of it). */
const releasedOf = (text: string) =>
  text
    .split('\n')
    .filter(Boolean)
    .map((l) => rawAsRulesRead(JSON.parse(l)));

/** Objects in `v` as a structured clone copies them (a typed array counts as one). */
function objectsIn(v: unknown): number {
  if (v === null || typeof v !== 'object') return 0;
  if (ArrayBuffer.isView(v)) return 1;
  let n = 1;
  for (const x of Object.values(v)) n += objectsIn(x);
  return n;
}

const okAnswer = (a: RequestsAnswer | null | undefined) => {
  if (!a?.ok) throw new Error('no listing');
  return { ...a, requests: unpackRequests(a.requests) };
};

describe("a streamed session log's model calls (the request strip)", () => {
  it('follow the answer, as the text path lists them, compaction included; then verdicts', async () => {
    resetRun();
    const text = sessionLog(40);
    expect(text.split('\n').length).toBeGreaterThan(PREVIEW_RECORDS * 2);
    const posts = await stream(text, 1);
    const res = posts.find((m) => m.kind === 'result');
    if (res?.kind !== 'result') throw new Error('no answer');
    expect(res.requestsFollow).toBe(true);
    const sent = posts.filter((m) => m.kind === 'requests');
    // Right after the answer (before its exact token count), then again with the verdicts.
    expect(posts.indexOf(sent[0] as WorkerResponse)).toBeGreaterThan(posts.indexOf(res));
    if (sent[0]?.kind !== 'requests') throw new Error('no listing');
    // In columns: a few objects for the page to take in, not one per call (81 here).
    expect(objectsIn(sent[0].requests)).toBeLessThan(40);
    const listed = okAnswer(sent[0].requests);
    expect(listed.kind).toBe('session');
    expect(listed.judged).toBe(0);
    // The same calls as the page's listing of the text (the diff worker's, for a file read whole).
    const direct = listFileRequests(text, { name: 'log.jsonl' });
    if (!direct.ok) throw new Error('does not list');
    expect(listed.requests.map((r) => [r.messages, r.tokens, r.compaction])).toEqual(
      direct.value.requests.map((r) => [r.messages, r.tokens, r.compaction]),
    );
    expect(listed.requests).toHaveLength(81);
    expect(listed.requests[80]?.compaction).toMatchObject({
      kind: 'compaction',
      trigger: 'auto',
      tokensBefore: 900,
      tokensAfter: 90,
    });
    // Then every call judged (a small log is within the budget).
    const later = sent[1];
    if (later?.kind !== 'requests') throw new Error('no verdicts');
    expect(later.parseId).toBe(res.parseId);
    const judged = okAnswer(later.requests);
    expect(judged.judged).toBe(81);
    expect(judged.requests.every((r) => r.valid)).toBe(true);
  });

  it("the answer does not wait for the log's calls (issue 38): they are read, then the records released, after it", async () => {
    resetRun();
    const text = sessionLog(40);
    const released = releasedOf(text);
    let atAnswer: { released: boolean } | null = null;
    // Set when the calls are read (once): after the answer, so only if not read before it.
    let readAfter = false;
    const posts: WorkerResponse[] = [];
    const record = collect(posts);
    await runRequest(
      {
        id: 1,
        req: { text: '', name: 'log.jsonl', format: null, provider: null, file: new Blob([text]) },
        bpe: false,
        fileKey: 7,
      },
      (m, tr) => {
        const s = run.lastFile?.session;
        if (m.kind === 'result' && s) {
          atAnswer = { released: isDeepStrictEqual(kept(), released) };
          const release = s.onRead;
          s.onRead = () => {
            readAfter = true;
            release?.();
          };
        }
        record(m, tr);
      },
    );
    expect(atAnswer).toEqual({ released: false });
    expect(readAfter).toBe(true);
    expect(run.lastFile?.session?.calls.calls).toHaveLength(81);
    expect(kept()).toEqual(released);
    const res = posts.find((m) => m.kind === 'result');
    const listed = posts.find((m) => m.kind === 'requests');
    if (res?.kind !== 'result' || listed?.kind !== 'requests') throw new Error('no answer');
    expect(res.requestsFollow).toBe(true);
    expect(okAnswer(listed.requests).requests).toHaveLength(81);
  });

  it('a log of one call: the answer says calls may follow, then says there are none', async () => {
    resetRun();
    const w = claudeCodeLog({ cwd: '/x' });
    w.user('Hello.');
    w.assistant('msg_1', [{ type: 'text', text: 'Hi.' }]);
    const posts = await stream(w.text(), 1);
    const res = posts.find((m) => m.kind === 'result');
    if (res?.kind !== 'result' || !res.result.ok) throw new Error('no answer');
    expect(res.requestsFollow).toBe(true);
    const sent = posts.filter((m) => m.kind === 'requests');
    expect(sent).toHaveLength(1);
    expect(sent[0]?.kind === 'requests' && sent[0].requests).toBeNull();
    expect(posts.indexOf(sent[0] as WorkerResponse)).toBeGreaterThan(posts.indexOf(res));
    const s = run.lastFile?.session;
    expect(s && hasCalls(s)).toBe(false);
  });

  it("a call chosen in a later request, before the first one's answer, is narrowed from the records as released", async () => {
    resetRun();
    const text = sessionLog(40);
    const file = new Blob([text]);
    const req = { text: '', name: 'log.jsonl', format: null, provider: null, file };
    const later: WorkerResponse[] = [];
    const first: WorkerResponse[] = [];
    let next: Promise<void> | undefined;
    const record = collect(first);
    // The second request comes while the first sends its messages (before its answer).
    await runRequest({ id: 1, req, bpe: false, fileKey: 7 }, (m, tr) => {
      record(m, tr);
      if (m.kind === 'messages' && !next)
        next = runRequest(
          { id: 2, req: { ...req, requestIndex: 70 }, bpe: false, fileKey: 7 },
          collect(later),
        );
    });
    await next;
    expect(first.some((m) => m.kind === 'result')).toBe(false);
    const res = later.find((m) => m.kind === 'result');
    if (res?.kind !== 'result' || !res.result.ok) throw new Error('no answer');
    expect(res.result.parsed.requestIndex).toBe(70);
    // Every message found by its source lines, as on a first read of that call.
    const packed = later.flatMap((m) => (m.kind === 'messages' ? packedRows(m.messages) : []));
    expect(packed.length).toBeGreaterThan(PREVIEW_RECORDS);
    expect(packed.every((m) => m.rawJson === null && m.spans.length >= 2)).toBe(true);
    expect(kept()).toEqual(releasedOf(text));
  });

  it('choosing a call narrows the parse held: no second read of the file', async () => {
    resetRun();
    const text = sessionLog(40);
    await stream(text, 1);
    const posts = await stream(text, 2, 4);
    expect(posts.some((m) => m.kind === 'progress' && m.progress.phase === 'read')).toBe(false);
    const res = posts.find((m) => m.kind === 'result');
    if (res?.kind !== 'result' || !res.result.ok) throw new Error('no answer');
    // Call 5: the context before the fifth reply (steps 1 and 2 whole, step 3's prompt).
    expect(res.result.parsed.requestIndex).toBe(4);
    expect(res.result.parsed.requests).toHaveLength(81);
    const t = run.lastFile?.result.ok ? run.lastFile.result.value.transcript : null;
    expect(t?.messages).toHaveLength(9);
    expect(t?.messages[8]?.blocks).toEqual([{ type: 'text', text: 'Step 2.' }]);
    const listed = posts.find((m) => m.kind === 'requests');
    expect(listed?.kind === 'requests' && okAnswer(listed.requests).requests).toHaveLength(81);
  });

  it("a call chosen as the file is first read: its messages name their source lines, as the whole log's do", async () => {
    resetRun();
    const text = sessionLog(40);
    const posts = await stream(text, 1, 70);
    const res = posts.find((m) => m.kind === 'result');
    if (res?.kind !== 'result' || !res.result.ok) throw new Error('no answer');
    expect(res.result.parsed.requestIndex).toBe(70);
    const packed = posts.flatMap((m) => (m.kind === 'messages' ? packedRows(m.messages) : []));
    expect(packed.length).toBeGreaterThan(PREVIEW_RECORDS);
    // Past the preview, records are slimmed then released: found by identity all the same.
    expect(packed.every((m) => m.rawJson === null && m.spans.length >= 2)).toBe(true);
  });

  it('a log of more than the budget is judged in order up to it, and says how far', async () => {
    const text = sessionLog(40);
    const src = await readBlobSource(new Blob([text]), 'log.jsonl');
    if (!src.ok) throw new Error('unreadable');
    const whole = parseDocument(src.value.doc, { name: 'log.jsonl' });
    if (!whole.ok) throw new Error('does not parse');
    const s = streamedSession(src.value.doc, whole.value);
    if (!s) throw new Error('no calls');
    // Calls hold 1, 3, 5, … messages, each extending the last. The Anthropic validator resumes
    // along them: a call costs what it adds (1, 2, 2, …) and a pass over its list (⌈n ÷ 32⌉ = 1),
    // so a budget of 9 judges the first three (2 + 3 + 3).
    expect(
      await judgeCalls(
        s,
        null,
        async () => {},
        () => false,
        9,
      ),
    ).toBe(true);
    const a = okAnswer(sessionAnswer(s, null));
    expect(a.judged).toBe(3);
    expect(a.requests).toHaveLength(81);
    // Another provider's verdicts are made again, from the first call.
    expect(okAnswer(sessionAnswer(s, 'openai-chat')).judged).toBe(0);
    // Chat Completions' validator judges each call whole: a budget of 30 takes calls of 1, 3, 5,
    // 7 and 9 messages (25); the Anthropic one, resuming, ten calls (2 + 9 × 3 = 29).
    await judgeCalls(
      s,
      'openai-chat',
      async () => {},
      () => false,
      30,
    );
    expect(okAnswer(sessionAnswer(s, 'openai-chat')).judged).toBe(5);
    await judgeCalls(
      s,
      null,
      async () => {},
      () => false,
      30,
    );
    expect(okAnswer(sessionAnswer(s, null)).judged).toBe(10);
  });
});
