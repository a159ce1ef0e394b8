import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arbEvent, codexLogOf, logOf } from '../testing/sessionEvents.ts';
import { listFileRequests, requestJudge, requestVerdict, type RequestListing } from './index.ts';
import type { ProviderId } from '../types.ts';

/** A listing of a log's text (the property's logs always read). */
function listing(text: string, name: string): RequestListing {
  const r = listFileRequests(text, { name });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** Every request judged in order by one `requestJudge`, beside `requestVerdict` of each alone. */
function judgedInOrder(l: RequestListing, provider?: ProviderId) {
  const judge = requestJudge(l, provider);
  const inOrder = l.requests.map((_, k) => judge.verdict(k));
  const alone = l.requests.map((_, k) => requestVerdict(l, k, provider));
  return { inOrder, alone };
}

/** Some of a Claude Code log's lines marked as a sub-agent's (threads interleaved). */
function withSidechains(text: string, marks: readonly boolean[]): string {
  return text
    .split('\n')
    .map((line, i) => {
      if (!line || !marks[i % Math.max(1, marks.length)]) return line;
      const v = JSON.parse(line) as Record<string, unknown>;
      return JSON.stringify({ ...v, isSidechain: true });
    })
    .join('\n');
}

const PROVIDERS: (ProviderId | undefined)[] = [
  undefined,
  'anthropic',
  'anthropic-bedrock',
  'openai-chat',
];

describe('requestJudge: a log’s calls judged in order, along each thread’s chain', () => {
  it('gives every call the verdict requestVerdict gives it alone (compactions, broken pairs, any provider)', () => {
    fc.assert(
      fc.property(
        fc.array(arbEvent, { minLength: 1, maxLength: 45 }),
        fc.constantFrom(...PROVIDERS),
        (ev, provider) => {
          const { inOrder, alone } = judgedInOrder(listing(logOf(ev), 'f.jsonl'), provider);
          expect(inOrder).toEqual(alone);
        },
      ),
      { numRuns: 200 },
    );
  }, 120_000);

  it('the same with sub-agent threads interleaved and for Codex rollouts (validated whole)', () => {
    fc.assert(
      fc.property(
        fc.array(arbEvent, { minLength: 1, maxLength: 40 }),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 7 }),
        (ev, marks) => {
          const side = judgedInOrder(listing(withSidechains(logOf(ev), marks), 'f.jsonl'));
          expect(side.inOrder).toEqual(side.alone);
          const codex = judgedInOrder(listing(codexLogOf(ev), 'r.jsonl'));
          expect(codex.inOrder).toEqual(codex.alone);
        },
      ),
      { numRuns: 120 },
    );
  }, 120_000);

  it("costs a call that extends its thread's last call what it adds, not its whole length", () => {
    const ev = Array.from({ length: 30 }, (_, i) => [
      { kind: 'user', text: `step ${i}` } as const,
      { kind: 'use', msg: 2 * i + 1, id: i } as const,
      { kind: 'result', id: i, error: false } as const,
    ]).flat();
    const l = listing(logOf(ev), 'f.jsonl');
    expect(l.requests.length).toBeGreaterThan(20);
    const judge = requestJudge(l);
    let cost = 0;
    let length = 0;
    for (let k = 0; k < l.requests.length; k++) {
      cost += judge.cost(k);
      length += l.requests[k]?.messages ?? 0;
      judge.verdict(k);
    }
    // The last call's length plus a pass (÷ 32) over each: far under the sum of the lengths.
    const last = l.requests[l.requests.length - 1]?.messages ?? 0;
    expect(cost).toBeLessThanOrEqual(last + Math.ceil(length / 32) + l.requests.length);
    expect(cost).toBeLessThan(length / 4);
  });
});
