import { describe, expect, it } from 'vitest';
import { answerDiffJob, type TranscriptDiffJob } from '../engine/diffProtocol.ts';
import { parseTranscript } from '../model/parse/index.ts';
import type { Transcript } from '../model/types.ts';
import fc from 'fast-check';
import { arcsInRows, indexArcs, selectCharJob, selectDiffNav } from './diffView.ts';
import { selectStrip } from './requests.ts';
import { packRequestList } from '../engine/requestColumns.ts';
import { markWindow } from '../ui/strip/RequestStrip.tsx';

const call = { type: 'tool_use', id: 'toolu_1', name: 'read', input: {} };
const answer = { type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok' };
const msgs = [
  { role: 'user', content: 'Read it.' },
  { role: 'assistant', content: [call] },
  { role: 'user', content: [answer] },
  { role: 'assistant', content: 'Done.' },
];
const read = (messages: unknown[]): Transcript => {
  const r = parseTranscript(
    JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 9, messages }),
  );
  if (!r.ok) throw new Error(r.error.message);
  return r.value.transcript;
};

const job = (left: Transcript, right: Transcript): TranscriptDiffJob => ({
  kind: 'transcript-diff',
  left,
  right,
  leftLabel: 'left',
  rightLabel: 'right',
  provider: null,
  sameSource: false,
});

describe('diff view selectors', () => {
  it('a cut that orphans a result: changes, the left arc, the broken row and the cache line', () => {
    const a = answerDiffJob(job(read(msgs), read(msgs.slice(2))));
    if (!a.ok) throw new Error(a.error);
    const nav = selectDiffNav(a);
    expect(nav?.changes).toEqual([0, 1]);
    expect(nav?.arcs.left).toEqual([{ id: 'toolu_1', from: 1, to: 2, broken: false }]);
    // The right side's result lost its call: a red stub on its row, towards the call.
    expect(nav?.arcs.right).toEqual([{ id: 'toolu_1', from: 2, to: 2, broken: true, stub: 'up' }]);
    expect([...(nav?.brokenRows ?? [])]).toEqual([2]);
    expect(nav?.cacheBreakRow).toBe(0);
    expect(selectDiffNav(a)).toBe(nav);
  });

  it("two cuts of one transcript keep the timeline's row numbers (newcomer: #3 showed as #0)", () => {
    const t = read([
      ...msgs,
      { role: 'user', content: 'Again.' },
      { role: 'assistant', content: 'Ok.' },
    ]);
    const cut = (from: number): Transcript => ({ ...t, messages: t.messages.slice(from) });
    const a = answerDiffJob({ ...job(cut(2), cut(3)), sameSource: true });
    if (!a.ok) throw new Error(a.error);
    expect(a.left.map((b) => b.label)).toEqual(['#2', '#3', '#4', '#5']);
    expect(a.right.map((b) => b.label)).toEqual(['#3', '#4', '#5']);
    // Two transcripts of their own: each numbered by its position (no label).
    const other = answerDiffJob(job(cut(2), cut(3)));
    if (!other.ok) throw new Error(other.error);
    expect(other.right.every((b) => b.label === undefined)).toBe(true);
  });

  it('the same transcript twice: nothing changed, no cache line; a rewritten row has a character job', () => {
    const same = answerDiffJob(job(read(msgs), read(msgs)));
    expect(selectDiffNav(same)?.changes).toEqual([]);
    expect(selectDiffNav(same)?.cacheBreakRow).toBeNull();
    const edited = [...msgs.slice(0, 3), { role: 'assistant', content: 'Done, all of it.' }];
    const j = job(read(msgs), read(edited));
    const d = answerDiffJob(j);
    if (!d.ok) throw new Error(d.error);
    const row = d.diff.rows.findIndex((r) => r.change === 'rewritten');
    expect(row).toBe(3);
    expect(selectCharJob(j, d, row)).toEqual({
      kind: 'chars',
      before: 'Done.',
      after: 'Done, all of it.',
    });
  });

  it('the strip: marks from the listing, the first failing request in words', () => {
    const labels = [{ label: '#1' }, { label: '#2' }, { label: '#3' }];
    const pending = selectStrip(labels, 1, null);
    expect(pending?.marks.slice().map((m) => m.tone)).toEqual(['pending', 'pending', 'pending']);
    expect(pending?.sentence).toBe('3 requests; judging each…');
    const row = (request: number, valid: boolean) => ({
      request,
      label: `#${request}`,
      messages: 2,
      tokens: request * 100,
      compaction: null,
      valid,
      firstRule: valid ? null : { rule: 'orphan_tool_result' as const, code: 'A1' },
      retry: false,
    });
    const strip = selectStrip(labels, 1, {
      ok: true,
      kind: 'archive',
      requests: packRequestList([row(1, true), row(2, false), row(3, false)]),
      defaultIndex: 2,
    });
    expect(strip?.marks.slice().map((m) => [m.tone, m.code, m.height])).toEqual([
      ['ok', null, 1 / 3],
      ['bad', 'A1', 2 / 3],
      ['bad', 'A1', 1],
    ]);
    expect(strip?.sentence).toBe(
      '3 requests; the first failing is request 2 (A1); request 1 passes.',
    );
    expect(strip?.chosen).toBe(1);
  });

  it('a session log of one call has a strip of one mark: the whole log’s verdict points to it', () => {
    const row = (valid: boolean) => ({
      request: 1,
      label: 'call 1',
      messages: 1,
      tokens: 20,
      compaction: null,
      valid,
      firstRule: valid ? null : { rule: 'unanswered_tool_use' as const, code: 'A2' },
      retry: false,
    });
    const ok = selectStrip(undefined, undefined, {
      ok: true,
      kind: 'session',
      requests: packRequestList([row(true)]),
      defaultIndex: 0,
    });
    expect(ok?.marks).toHaveLength(1);
    expect(ok?.chosen).toBeNull();
    expect(ok?.sentence).toBe('1 model call; it passes.');
    const bad = selectStrip(undefined, undefined, {
      ok: true,
      kind: 'session',
      requests: packRequestList([row(false)]),
      defaultIndex: 0,
    });
    expect(bad?.sentence).toBe('1 model call; it fails (A2).');
    // A file of one request (not a session) has no strip.
    expect(
      selectStrip(undefined, undefined, {
        ok: true,
        kind: 'archive',
        requests: packRequestList([row(true)]),
        defaultIndex: 0,
      }),
    ).toBeNull();
  });

  it('a HAR whose entries the provider refused: the worker\u2019s listing carries each error to the strip', () => {
    const entry = (content: string, status: number) => ({
      request: {
        method: 'POST',
        url: 'https://api.openai.com/v1/chat/completions',
        postData: {
          text: JSON.stringify({ model: 'gpt-4.1', messages: [{ role: 'user', content }] }),
        },
      },
      response: {
        status,
        content: { text: JSON.stringify({ error: { message: `refused ${content}` } }) },
      },
    });
    const text = JSON.stringify({ log: { entries: [entry('a', 200), entry('b', 400)] } });
    const answer = answerDiffJob({
      kind: 'requests',
      text,
      name: 's.har',
      format: null,
      provider: null,
    });
    if (!answer.ok) throw new Error(answer.error);
    const strip = selectStrip(undefined, undefined, answer);
    expect(strip?.sentence).toBe(
      '2 requests: every one passes the structure rules, but the log records an API error for request 2; its messages are valid, so the structure is not the cause (e.g. the model, a quota, the server).',
    );
  });

  it('a log whose calls pass but record API errors says how many in the headline, and that the structure is not the cause (newcomer: "every one passes" over three recorded 400s)', () => {
    const row = (request: number, apiError?: string, valid = true) => ({
      request,
      label: `call ${request}`,
      messages: request,
      tokens: request * 10,
      compaction: null,
      valid,
      firstRule: valid ? null : { rule: 'unanswered_tool_use' as const, code: 'A2' },
      retry: false,
      ...(apiError !== undefined ? { apiError } : {}),
    });
    const requests = [
      row(1),
      row(2),
      row(3, 'API Error: 400 Invalid model: claude-x'),
      row(4, 'API Error: 400 RESOURCE_EXHAUSTED'),
      row(5, 'API Error: 400 Invalid model: claude-y'),
    ];
    const strip = selectStrip(undefined, undefined, {
      ok: true,
      kind: 'session',
      requests: packRequestList(requests),
      defaultIndex: 4,
    });
    expect(strip?.sentence).toBe(
      '5 model calls: every one passes the structure rules, but the log records an API error for 3 calls (3–5); their messages are valid, so the structure is not the cause (e.g. the model, a quota, the server).',
    );
    // Beside a failing call the errors are counted too.
    const failing = selectStrip(undefined, undefined, {
      ok: true,
      kind: 'session',
      requests: packRequestList([
        row(1),
        row(2, 'API Error: 400 x', false),
        row(3, 'API Error: 500 y'),
      ]),
      defaultIndex: 2,
    });
    expect(failing?.sentence).toBe(
      '3 model calls; the first failing is call 2 (A2); call 1 passes; the log records an API error for 2 calls (2–3); 1 of them is valid in structure (there the structure is not the cause).',
    );
    const one = selectStrip(undefined, undefined, {
      ok: true,
      kind: 'session',
      requests: packRequestList([row(1, 'API Error: 400 x')]),
      defaultIndex: 0,
    });
    expect(one?.sentence).toBe(
      '1 model call; it passes; the log records an API error that no structure rule explains (the messages are valid; e.g. the model, a quota, the server).',
    );
  });

  it('the strip of a long log judged in part: the rest pending, said in words; its marks drawn a window at a time', () => {
    const row = (request: number) => ({
      request,
      label: `call ${request}`,
      messages: request,
      tokens: request * 10,
      compaction: null,
      valid: true,
      firstRule: null,
      retry: false,
    });
    const requests = Array.from({ length: 1000 }, (_, i) => row(i + 1));
    const strip = selectStrip(undefined, undefined, {
      ok: true,
      kind: 'session',
      requests: packRequestList(requests),
      defaultIndex: 999,
      judged: 40,
    });
    expect(strip?.marks.slice(38, 42).map((m) => m.tone)).toEqual([
      'ok',
      'ok',
      'pending',
      'pending',
    ]);
    expect(strip?.sentence).toBe(
      '1,000 model calls; calls 1–40 pass; 960 not judged here (a long log: its model calls are judged in order within a budget; choose one to see its verdict).',
    );
    expect(strip?.chosen).toBeNull();
    expect(markWindow(1000, 999)).toEqual([800, 1000]);
    expect(markWindow(1000, 5)).toEqual([0, 200]);
    expect(markWindow(1000, 500)).toEqual([400, 600]);
    expect(markWindow(150, 149)).toEqual([0, 150]);
  });

  it('a cut that drops a result: a red stub down from the call left unanswered on the right', () => {
    const unanswered = [...msgs.slice(0, 2), { role: 'user', content: 'Never mind.' }];
    const a = answerDiffJob(job(read(msgs), read(unanswered)));
    if (!a.ok) throw new Error(a.error);
    const nav = selectDiffNav(a);
    const row = a.diff.rows.findIndex((r) => r.right === 1);
    expect(a.diff.broken.map((b) => b.id)).toEqual(['toolu_1']);
    expect(nav?.arcs.right).toEqual([
      { id: 'toolu_1', from: row, to: row, broken: true, stub: 'down' },
    ]);
    expect(nav?.arcs.left).toEqual([
      { id: 'toolu_1', from: 1, to: expect.any(Number), broken: false },
    ]);
  });
});

describe('the arcs in view (arcsInRows)', () => {
  const arb = fc.array(
    fc.record({
      from: fc.nat(300),
      to: fc.nat(300),
      stub: fc.constantFrom(undefined, 'up' as const, 'down' as const),
    }),
    { maxLength: 200 },
  );
  it('are exactly the arcs that reach into the rows, each once, as a pass over every arc finds them', () => {
    fc.assert(
      fc.property(arb, fc.nat(320), fc.nat(40), (raw, first, span) => {
        const arcs = raw.map((a, i) => ({
          id: `t${i}`,
          from: a.from,
          to: a.stub ? a.from : a.to,
          broken: a.stub !== undefined,
          ...(a.stub ? { stub: a.stub } : {}),
        }));
        const last = first + span;
        const want = arcs
          .filter((a) => Math.max(a.from, a.to) >= first && Math.min(a.from, a.to) <= last)
          .map((a) => a.id)
          .sort();
        const got = arcsInRows(indexArcs(arcs), first, last).map((a) => a.id);
        expect([...got].sort()).toEqual(want);
        expect(new Set(got).size).toBe(got.length);
      }),
      { numRuns: 300 },
    );
  });
});
