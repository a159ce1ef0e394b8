/**
 * Repair mode over the project's own broken fixtures (src/model/testing/cases.ts and the broken
 * samples in public/samples): every request repair can fix is sent repaired and valid, each change
 * reported with its rule, ids and diff label; what repair cannot fix is not sent; a valid request
 * is sent byte for byte as given.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CASE_FIXTURES } from '../model/testing/cases.ts';
import type { FormatId } from '../model/types.ts';
import { check, createCheckedFetch, repair, type FetchLike, type RepairReport } from './index.ts';
import { changeLabel } from './repairReport.ts';

/** Where each request format is sent. */
const URL_OF: Partial<Record<FormatId, string>> = {
  'anthropic-messages': 'https://api.anthropic.com/v1/messages',
  'openai-chat': 'https://api.openai.com/v1/chat/completions',
  'openai-responses': 'https://api.openai.com/v1/responses',
  gemini: 'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-pro:generateContent',
  'bedrock-converse':
    'https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-sonnet-4-5/converse',
};

const samples = path.resolve(import.meta.dirname, '../../public/samples');
const index = JSON.parse(readFileSync(path.join(samples, 'index.json'), 'utf8')) as {
  file: string;
  format: FormatId;
  broken: boolean;
}[];

/** Every broken request body of ours, with the URL its format goes to. */
const BROKEN: { name: string; url: string; body: string }[] = [
  ...CASE_FIXTURES.map((c) => ({
    name: c.name,
    format: c.format,
    body: JSON.stringify(c.transcript),
  })),
  ...index
    .filter((s) => s.broken && s.file.endsWith('.json'))
    .map((s) => ({
      name: s.file,
      format: s.format,
      body: readFileSync(path.join(samples, s.file), 'utf8'),
    })),
].flatMap((c) => {
  const url = URL_OF[c.format];
  return url ? [{ name: c.name, url, body: c.body }] : [];
});

function harness() {
  const sent: { input: unknown; init: RequestInit | undefined }[] = [];
  const repairs: RepairReport[] = [];
  const inner: FetchLike = (input, init) => {
    sent.push({ input, init });
    return Promise.resolve(new Response('{}'));
  };
  const f = createCheckedFetch({ fetch: inner, mode: 'repair', onRepair: (r) => repairs.push(r) });
  return { f, sent, repairs };
}

describe('repair mode on our broken fixtures', () => {
  it('has request fixtures of every request format to work on', () => {
    expect(BROKEN.length).toBeGreaterThanOrEqual(15);
    const formats = new Set(BROKEN.map((b) => b.url));
    expect(formats.size).toBe(Object.keys(URL_OF).length);
  });

  let repaired = 0;
  for (const b of BROKEN)
    it(`${b.name}: sent valid and repaired, each change reported; or not sent`, async () => {
      const h = harness();
      const before = check(b.body);
      expect(before.valid).toBe(false);
      const expected = repair(b.body);
      const headers = { 'content-type': 'application/json', 'content-length': '123', 'x-a': '1' };
      const res = await h.f(b.url, { method: 'POST', headers, body: b.body });
      if (!expected.valid) {
        // Repair cannot make it valid: answered as the provider would (default `unrepaired`).
        expect(h.sent).toHaveLength(0);
        expect(res.status).toBe(before.firstViolation?.status ?? 400);
        return;
      }
      repaired++;
      expect(h.sent).toHaveLength(1);
      const init = h.sent[0]?.init as RequestInit;
      const text = init.body as string;
      expect(check(text, { format: before.format }).valid).toBe(true);
      // Format and every other field kept: what the library's repair writes in the body's format.
      expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(repair(JSON.parse(b.body)).body)));
      // Headers kept, but not the stale content-length.
      const sentHeaders = new Headers(init.headers);
      expect(sentHeaders.get('x-a')).toBe('1');
      expect(sentHeaders.has('content-length')).toBe(false);
      const report = h.repairs[0] as RepairReport;
      expect(report.body).toBe(text);
      expect(report.changes.length).toBeGreaterThan(0);
      expect(report.changes.map(({ label: _, ...c }) => c)).toEqual(expected.changes);
      for (const c of report.changes) {
        expect(c.rule).not.toBeNull();
        expect(['dropped', 'inserted', 'merged', 'rewritten']).toContain(c.label);
        expect(c.label).toBe(changeLabel(c));
      }
    });

  it('repairs most of them', () => {
    // Runs after the cases above (vitest runs a file's tests in order).
    expect(repaired).toBeGreaterThanOrEqual(10);
  });
});

describe('labels', () => {
  it('an added error result in its own message is inserted; an orphan removed is dropped', async () => {
    const h = harness();
    await h.f('https://api.openai.com/v1/chat/completions', {
      method: 'POST',
      body: JSON.stringify({
        model: 'gpt-4.1',
        messages: [
          { role: 'tool', tool_call_id: 'call_0', content: 'stale' },
          { role: 'user', content: 'weather?' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'call_1', type: 'function', function: { name: 'w', arguments: '{}' } },
            ],
          },
        ],
      }),
    });
    const changes = h.repairs[0]?.changes ?? [];
    expect(changes.map((c) => [c.rule, c.label, c.ids])).toEqual(
      expect.arrayContaining([
        ['orphan_tool_result', 'dropped', ['call_0']],
        [expect.any(String), 'inserted', ['call_1']],
      ]),
    );
  });
});

describe('repair keeps the words around an orphan (newcomer)', () => {
  it('Anthropic: the orphan result is dropped from its message, the user text beside it is sent', async () => {
    const h = harness();
    await h.f('https://api.anthropic.com/v1/messages', {
      method: 'POST',
      body: JSON.stringify({
        model: 'claude-sonnet-4-5',
        max_tokens: 64,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: 'toolu_old', content: '42' },
              { type: 'text', text: 'Now double it.' },
            ],
          },
          { role: 'assistant', content: 'That needs the calculator again.' },
          { role: 'user', content: 'fine' },
        ],
      }),
    });
    const sent = JSON.parse(String(h.sent[0]?.init?.body)) as {
      messages: { role: string; content: unknown }[];
    };
    expect(sent.messages).toHaveLength(3);
    expect(JSON.stringify(sent.messages[0])).toContain('Now double it.');
    expect(JSON.stringify(sent.messages)).not.toContain('toolu_old');
    expect(sent.messages[1]?.content).toBe('That needs the calculator again.');
    expect(h.repairs[0]?.changes.map((c) => [c.rule, c.ids])).toEqual([
      ['orphan_tool_result', ['toolu_old']],
    ]);
  });
});

describe('a valid request is sent byte for byte', () => {
  it('same input, same init object, same body string, in every mode', async () => {
    for (const mode of ['throw', 'respond', 'warn', 'repair'] as const) {
      const sent: unknown[][] = [];
      const inner: FetchLike = (...args) => {
        sent.push(args);
        return Promise.resolve(new Response('{}'));
      };
      const f = createCheckedFetch({ fetch: inner, mode });
      const body =
        '{ "model": "claude-sonnet-4-5",\n  "max_tokens": 9, "messages": [{"role":"user","content":"hi"}] }';
      const init = { method: 'POST', body };
      await f('https://api.anthropic.com/v1/messages', init);
      expect(sent).toEqual([['https://api.anthropic.com/v1/messages', init]]);
      expect(sent[0]?.[1]).toBe(init);
      expect(init.body).toBe(body);
    }
  });
});
