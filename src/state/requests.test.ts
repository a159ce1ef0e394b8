import { describe, expect, it } from 'vitest';
import { parseTranscript } from '../model/parse/index.ts';
import { compactedThreeCallLog } from '../model/testing/claudeCodeLog.ts';
import { parallelWeatherChat } from '../model/testing/parallelWeather.ts';
import { mayListRequests, selectRequestsJob } from './requests.ts';
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
