import { describe, expect, it } from 'vitest';
import { parseTranscript } from '../model/parse/index.ts';
import { compactedThreeCallLog } from '../model/testing/claudeCodeLog.ts';
import { parallelWeatherChat } from '../model/testing/parallelWeather.ts';
import { packRequestList, type RequestColumns } from '../engine/requestColumns.ts';
import { mayListRequests, selectRequestsJob, selectStrip } from './requests.ts';
import type { AppState } from './store.ts';

const parsed = (text: string, name = '') => {
  const r = parseTranscript(text, { name });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};

const source = (text: string): AppState['source'] => ({ text, name: '', origin: 'paste' });

/** A JSON Lines batch of two Chat Completions requests (an archive: the parse labels both). */
const batch = [1, 2]
  .map((k) =>
    JSON.stringify({
      custom_id: `r${k}`,
      method: 'POST',
      url: '/v1/chat/completions',
      body: { model: 'gpt-4o', messages: [{ role: 'user', content: `question ${k}` }] },
    }),
  )
  .join('\n');

describe('which files are listed for the strip', () => {
  it('a single request body is not: it has no strip, and listing it started the diff worker', () => {
    const body = JSON.stringify(parallelWeatherChat());
    const p = parsed(body);
    expect(p.requests).toBeUndefined();
    expect(mayListRequests(p)).toBe(false);
    expect(selectRequestsJob(source(body), null, null, false, mayListRequests(p))).toBeNull();
  });

  it('a session log is (its calls are the strip)', () => {
    const log = compactedThreeCallLog();
    const p = parsed(log, 'session.jsonl');
    expect(p.transcript.format).toBe('claude-code-jsonl');
    expect(mayListRequests(p)).toBe(true);
    expect(selectRequestsJob(source(log), null, null, false, true)).toMatchObject({
      kind: 'requests',
      text: log,
    });
  });

  it('an archive of several requests is', () => {
    const p = parsed(batch, 'batch.jsonl');
    expect(p.requests?.length).toBe(2);
    expect(mayListRequests(p)).toBe(true);
  });

  it('nothing is listed before a parse is shown', () => {
    expect(mayListRequests(undefined)).toBe(false);
    expect(mayListRequests(null)).toBe(false);
  });
});

describe("the strip's model of a long listing", () => {
  it('makes a mark only when it is read, once (28,000 marks made at once were a long task of the page)', () => {
    const calls = Array.from({ length: 28_000 }, (_, k) => ({
      request: k + 1,
      label: `call ${k + 1} · ${k} messages`,
      messages: k,
      tokens: k + 1,
      compaction: null,
      valid: k !== 20_000,
      firstRule: k === 20_000 ? { rule: 'orphan_tool_result' as const, code: 'A1' } : null,
      retry: false,
      ...(k === 27_000 ? { apiError: 'API Error: 400 x' } : {}),
    }));
    const columns = packRequestList(calls);
    // Count the labels read: a mark reads its own.
    let labelsRead = 0;
    const joined = columns.labels;
    const counted: RequestColumns = Object.defineProperty({ ...columns }, 'labels', {
      get: () => {
        labelsRead++;
        return joined;
      },
    });
    const strip = selectStrip(undefined, undefined, {
      ok: true,
      kind: 'session',
      requests: counted,
      defaultIndex: 0,
    });
    if (!strip) throw new Error('no strip');
    // The first failing mark is made (the sentence names it); no other.
    expect(labelsRead).toBe(1);
    expect(strip.firstFailing).toBe(20_000);
    expect(strip.sentence).toBe(
      '28,000 model calls; the first failing is call 20,001 (A1); calls 1–20,000 pass; the log records an API error for call 27001; its messages are valid, so the structure is not the cause (e.g. the model, a quota, the server).',
    );
    const drawn = strip.marks.slice(100, 300);
    expect(labelsRead).toBe(201);
    expect(drawn.map((m) => m.label)).toEqual(calls.slice(100, 300).map((c) => c.label));
    // Read again: the same objects (the strip's `Mark` draws again only when its props change).
    expect(strip.marks.slice(100, 300)).toEqual(drawn);
    strip.marks.slice(100, 300).forEach((m, i) => expect(m).toBe(drawn[i]));
    expect(labelsRead).toBe(201);
    expect(strip.marks.at(27_999)?.height).toBe(1);
    expect(strip.marks.at(28_000)).toBeUndefined();
  });
});
