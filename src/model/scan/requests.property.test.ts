import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arbEvent, logOf } from '../testing/sessionEvents.ts';
import { readSource, parseDocument } from '../parse/index.ts';
import { listParsedRequests } from '../diff/requests.ts';
import { callTranscript } from '../parse/sessionCalls.ts';
import { parseRequests } from './rows.ts';

/** The log with a usage figure on every assistant line (the k-th: k output tokens). */
function withUsage(text: string): string {
  let k = 0;
  return text
    .split('\n')
    .map((l) => {
      if (!l) return l;
      const o = JSON.parse(l) as { type?: string; message?: Record<string, unknown> };
      if (o.type !== 'assistant' || !o.message) return l;
      o.message.usage = { input_tokens: 100 + k, output_tokens: ++k };
      return JSON.stringify(o);
    })
    .join('\n');
}

describe("a session log's requests as the scan makes them (chained calls)", () => {
  it('hold the messages and usage records of callTranscript, call by call', () => {
    fc.assert(
      fc.property(fc.array(arbEvent, { minLength: 1, maxLength: 40 }), (ev) => {
        const text = withUsage(logOf(ev));
        const doc = readSource(text, 'f.jsonl');
        if (!doc.ok) throw new Error(doc.error.message);
        const first = parseDocument(doc.value, { name: 'f.jsonl' });
        if (!first.ok) throw new Error(first.error.message);
        const session = listParsedRequests(doc.value, first.value, { name: 'f.jsonl' }).session;
        const reqs = parseRequests(doc.value, 'f.jsonl');
        if (!reqs.ok) throw new Error(reqs.error.message);
        if (session === null) return;
        if (text.includes('"output_tokens"'))
          expect(session.transcript.usage.length).toBeGreaterThan(0);
        expect(reqs.value.length).toBe(session.calls.length);
        session.calls.forEach((call, k) => {
          const want = callTranscript(session, call);
          const got = reqs.value[k]?.transcript;
          expect(got?.messages).toEqual(want.messages);
          expect(got?.usage).toEqual(want.usage);
        });
      }),
      { numRuns: 200 },
    );
  });
});
