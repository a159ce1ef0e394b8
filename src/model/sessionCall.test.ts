import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { listFileRequests } from './diff/index.ts';
import { parseTranscript, readSource } from './parse/index.ts';
import { withSessionCall } from './sessionCall.ts';

const text = readFileSync('public/samples/claude-code-session.jsonl', 'utf8');

describe('withSessionCall', () => {
  it("shows call k of a session log as the listing's transcript of that call, with the calls as requests", () => {
    const parsed = parseTranscript(text);
    const doc = readSource(text);
    const listing = listFileRequests(text);
    if (!parsed.ok || !doc.ok || !listing.ok) throw new Error('sample unreadable');
    expect(withSessionCall(doc.value, parsed.value, undefined)).toBe(parsed.value);
    const calls = listing.value.requests.length;
    expect(calls).toBeGreaterThan(2);
    for (const k of [0, 2, calls - 1]) {
      const p = withSessionCall(doc.value, parsed.value, k);
      expect(p.requestIndex).toBe(k);
      expect(p.requests).toHaveLength(calls);
      expect(p.transcript.messages.map((m) => m.rawIndex)).toEqual(
        listing.value.transcriptOf(k).messages.map((m) => m.rawIndex),
      );
    }
    // Past the last call: the last (as a file of several requests clamps).
    expect(withSessionCall(doc.value, parsed.value, calls + 5).requestIndex).toBe(calls - 1);
  });
});
