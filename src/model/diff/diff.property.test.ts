/**
 * Property tests of the diff (issue 33) over generated transcripts: a transcript against its
 * message-level cut at a budget, a transcript against itself, and both after the structure-only
 * redaction of both sides.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arbValidTranscript } from '../testing/index.ts';
import type { Transcript } from '../types.ts';
import { countTokens } from '../tokens.ts';
import { prepareEviction, simulatePolicy } from '../evict/policies.ts';
import { defaultProviderOf, validateTranscript } from '../validate/index.ts';
import { redactTogether } from '../redact.ts';
import { diffTranscripts } from './diff.ts';

const RUNS = 150;

const arbCase = fc.record({
  t: fc.oneof(
    arbValidTranscript('anthropic-messages', { maxExchanges: 6 }),
    arbValidTranscript('openai-chat', { maxExchanges: 6 }),
  ),
  share: fc.double({ min: 0.05, max: 1, noNaN: true }),
  pinFirst: fc.boolean(),
});

/** The message-level cut of `t` at `share` of its tokens: the kept messages, as they were. */
function messageCut(t: Transcript, share: number, pinFirst: boolean) {
  const provider = defaultProviderOf(t);
  const table = countTokens(t, provider);
  const ctx = prepareEviction(t, table, provider);
  const r = simulatePolicy(ctx, 'message', Math.floor(table.total * share), { pinFirst });
  const cut: Transcript = { ...t, messages: r.kept.map((i) => t.messages[i]!) };
  return { cut, kept: r.kept, evicted: r.evicted, provider };
}

/** Rows as [change, left, right]. */
const rowsOf = (d: ReturnType<typeof diffTranscripts>) =>
  d.rows.map((r) => [r.change, r.left, r.right] as const);

/** The cut's rows and broken pairs, as the property says they must be. */
function expectCutDiff(
  d: ReturnType<typeof diffTranscripts>,
  c: ReturnType<typeof messageCut>,
  t: Transcript,
): void {
  const dropped = d.rows.filter((r) => r.change === 'dropped');
  expect(dropped.map((r) => r.left)).toEqual(c.evicted);
  expect(dropped.every((r) => r.right === null)).toBe(true);
  const others = d.rows.filter((r) => r.change !== 'dropped');
  expect(others.map((r) => [r.change, r.left, r.right])).toEqual(
    c.kept.map((i, j) => ['kept', i, j]),
  );
  // The generated transcripts are valid, so every finding of the cut is one the cut made.
  expect(validateTranscript(t, c.provider).violations).toEqual([]);
  const alone = validateTranscript(
    { ...c.cut, messages: c.cut.messages.map((m, i) => ({ ...m, index: i })) },
    c.provider,
  );
  const want = alone.violations.flatMap((v) => v.ids.map((id) => [id, v.rule, v.code, v.index]));
  expect(d.broken.map((b) => [b.id, b.rule, b.code, b.messageIndex])).toEqual(want);
  expect(d.right.valid).toBe(alone.valid);
  // The right side's tokens reuse the left's counts of kept messages: the same figures.
  expect(d.right.tokens).toBe(countTokens(c.cut, c.provider).total);
  expect(d.left.tokens).toBe(countTokens(t, c.provider).total);
}

describe('diff of a transcript and its message-level cut', () => {
  it('labels every evicted message dropped, all else kept (in place), and breaks exactly what the validator reports for the cut alone', () => {
    fc.assert(
      fc.property(arbCase, ({ t, share, pinFirst }) => {
        const c = messageCut(t, share, pinFirst);
        // By content alone (two files), and by identity in one source (two calls of a log).
        expectCutDiff(diffTranscripts(t, c.cut, { sameSource: false }), c, t);
        expectCutDiff(diffTranscripts(t, c.cut, { sameSource: true }), c, t);
      }),
      { numRuns: RUNS },
    );
  });

  it('labels and broken pairs survive the structure-only redaction of both sides', () => {
    fc.assert(
      fc.property(arbCase, ({ t, share, pinFirst }) => {
        const c = messageCut(t, share, pinFirst);
        const d = diffTranscripts(t, c.cut, { sameSource: true });
        // Redacted together (one set of renames): the sides still come from one source. Texts
        // of one length become one placeholder, so it is the messages' identity that aligns them.
        const [rl, rc] = redactTogether([t, c.cut]) as [Transcript, Transcript];
        const r = diffTranscripts(rl, rc, { sameSource: true });
        expect(rowsOf(r)).toEqual(rowsOf(d));
        expectCutDiff(r, { ...c, cut: rc }, rl);
        expect(r.broken.map((b) => [b.rule, b.code, b.messageIndex])).toEqual(
          d.broken.map((b) => [b.rule, b.code, b.messageIndex]),
        );
        // Each broken id is the renamed id of the same tool block.
        for (const b of r.broken) {
          const ids = rc.messages[b.messageIndex]!.blocks.flatMap((x) =>
            x.type === 'tool_use' ? [x.id] : x.type === 'tool_result' ? [x.toolUseId] : [],
          );
          expect(ids).toContain(b.id);
        }
        expect(r.cachePrefix.messages).toBe(d.cachePrefix.messages);
      }),
      { numRuns: RUNS },
    );
  });
});

describe('diff of a transcript and itself', () => {
  it('is all kept, breaks nothing, and its cache prefix is the whole request', () => {
    fc.assert(
      fc.property(arbCase, fc.boolean(), ({ t }, sameSource) => {
        for (const d of [diffTranscripts(t, t, { sameSource }), diffTranscripts(t, { ...t })]) {
          expect(rowsOf(d)).toEqual(t.messages.map((_, i) => ['kept', i, i]));
          expect(d.broken).toEqual([]);
          expect(d.introduced).toEqual([]);
          expect(d.cachePrefix.messages).toBe(t.messages.length);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('stays all kept after the structure-only redaction of both sides', () => {
    fc.assert(
      fc.property(arbCase, fc.boolean(), ({ t }, sameSource) => {
        const [a, b] = redactTogether([t, t]) as [Transcript, Transcript];
        const d = diffTranscripts(a, b, { sameSource });
        expect(rowsOf(d)).toEqual(t.messages.map((_, i) => ['kept', i, i]));
        expect(d.broken).toEqual([]);
        expect(d.cachePrefix.messages).toBe(t.messages.length);
      }),
      { numRuns: RUNS },
    );
  });
});
