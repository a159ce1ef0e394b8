import { describe, expect, it } from 'vitest';
import { answerDiffJob, type TranscriptDiffJob } from '../engine/diffProtocol.ts';
import { parseTranscript } from '../model/parse/index.ts';
import type { Transcript } from '../model/types.ts';
import { selectCharJob, selectDiffNav } from './diffView.ts';
import { selectStrip } from './requests.ts';

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
    expect(nav?.arcs.right).toEqual([]);
    expect([...(nav?.brokenRows ?? [])]).toEqual([2]);
    expect(nav?.cacheBreakRow).toBe(0);
    expect(selectDiffNav(a)).toBe(nav);
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
    expect(pending?.marks.map((m) => m.tone)).toEqual(['pending', 'pending', 'pending']);
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
      requests: [row(1, true), row(2, false), row(3, false)],
      defaultIndex: 2,
    });
    expect(strip?.marks.map((m) => [m.tone, m.code, m.height])).toEqual([
      ['ok', null, 1 / 3],
      ['bad', 'A1', 2 / 3],
      ['bad', 'A1', 1],
    ]);
    expect(strip?.sentence).toBe(
      '3 requests; the first failing is request 2 (A1); request 1 passes.',
    );
    expect(strip?.chosen).toBe(1);
  });
});
