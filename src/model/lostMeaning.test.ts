import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  canonicalJson,
  distinctiveTokens,
  findLostMeaning,
  LOST_MEANING_LIMITS,
} from './lostMeaning.ts';
import {
  assistant,
  call,
  result,
  system,
  text,
  transcript,
  user,
  arbValidTranscript,
} from './testing/index.ts';

/** A coding session: the task names a file and a function; later turns read the file again. */
const session = transcript('anthropic-messages', [
  user('Fix the timezone bug in `parseDate` in src/date.ts; ticket #4512.'), // 0
  assistant(call('toolu_1', 'read_file', { path: 'src/date.ts', lines: 200 })), // 1
  user(result('toolu_1', 'export function parseDate(s) { … }')), // 2
  assistant('The bug is in the offset handling.'), // 3
  user('Go ahead and change it.'), // 4
  assistant(call('toolu_2', 'read_file', { lines: 200, path: 'src/date.ts' })), // 5: same input, other key order
  user(result('toolu_2', 'export function parseDate(s) { … }')), // 6
  assistant(text('Patched parseDate for #4512.')), // 7
]);

describe('findLostMeaning', () => {
  it('marks a kept call that repeats a call whose result was evicted', () => {
    const lm = findLostMeaning(session, [4, 5, 6, 7], [0, 1, 2, 3]);
    const rep = lm.marks.filter((m) => m.kind === 'repeated_call');
    expect(rep).toEqual([
      expect.objectContaining({
        kind: 'repeated_call',
        messageIndex: 5,
        blockIndex: 0,
        id: 'toolu_2',
        name: 'read_file',
        earlier: { messageIndex: 1, blockIndex: 0, id: 'toolu_1' },
        evictedResultIndex: 2,
      }),
    ]);
    // Messages are named by their row labels (`#N`, as the timeline rows show them).
    expect(rep[0]?.note).toContain('call in message #1, whose result (message #2) was evicted');
    expect(rep[0]).toMatchObject({ label: '#5' });
  });

  it('marks an evicted user message whose file path, identifier and ticket id later kept messages still use', () => {
    const lm = findLostMeaning(session, [4, 5, 6, 7], [0, 1, 2, 3]);
    const ref = lm.marks.find((m) => m.kind === 'evicted_reference');
    expect(ref).toMatchObject({
      kind: 'evicted_reference',
      messageIndex: 0,
      referencedBy: [5, 6, 7],
    });
    expect(ref?.kind === 'evicted_reference' && ref.tokens).toEqual([
      'parseDate',
      'src/date.ts',
      '#4512',
    ]);
    expect(lm.limits).toBe(LOST_MEANING_LIMITS);
  });

  it('marks nothing when nothing was evicted, or when the result the call repeats was kept', () => {
    expect(findLostMeaning(session, [0, 1, 2, 3, 4, 5, 6, 7], []).marks).toEqual([]);
    // Evicting only the plain follow-up: the first result is still there.
    const lm = findLostMeaning(session, [0, 1, 2, 3, 5, 6, 7], [4]);
    expect(lm.marks).toEqual([]);
  });

  it('does not match a call with different input', () => {
    const t = transcript('anthropic-messages', [
      user('Look at the log.'),
      assistant(call('a', 'read_file', { path: 'app.log', offset: 0 })),
      user(result('a', '…')),
      assistant(call('b', 'read_file', { path: 'app.log', offset: 100 })),
      user(result('b', '…')),
    ]);
    expect(
      findLostMeaning(t, [3, 4], [0, 1, 2]).marks.filter((m) => m.kind === 'repeated_call'),
    ).toEqual([]);
  });

  it('ignores plain words and tokens the system prompt restates', () => {
    const t = transcript(
      'openai-chat',
      [
        system('Project conventions live in CONTRIBUTING.md.'),
        user('Please keep answers short and read CONTRIBUTING.md first.'),
        assistant('Sure, I read CONTRIBUTING.md and will keep answers short.'),
      ],
      { system: [] },
    );
    expect(findLostMeaning(t, [0, 2], [1]).marks).toEqual([]);
    const noSystem = transcript('openai-chat', [
      user('Please keep answers short and read CONTRIBUTING.md first.'),
      assistant('Sure, I read CONTRIBUTING.md and will keep answers short.'),
    ]);
    expect(findLostMeaning(noSystem, [1], [0]).marks).toMatchObject([
      { kind: 'evicted_reference', tokens: ['CONTRIBUTING.md'] },
    ]);
  });

  it('does not treat evicted tool results as user instructions', () => {
    const lm = findLostMeaning(session, [3, 4, 5, 6, 7], [0, 1, 2]);
    expect(
      lm.marks.filter((m) => m.kind === 'evicted_reference').map((m) => m.messageIndex),
    ).toEqual([0]);
  });

  it('marks point at kept calls and evicted user messages only (property)', () => {
    fc.assert(
      fc.property(arbValidTranscript('anthropic-messages'), fc.nat(), (t, cut) => {
        const k = cut % (t.messages.length + 1);
        const evicted = t.messages.map((_, i) => i).filter((i) => i < k);
        const kept = t.messages.map((_, i) => i).filter((i) => i >= k);
        const lm = findLostMeaning(t, kept, evicted);
        for (const m of lm.marks) {
          if (m.kind === 'repeated_call') {
            expect(kept).toContain(m.messageIndex);
            expect(evicted).toContain(m.evictedResultIndex);
            expect(m.earlier.messageIndex).toBeLessThan(m.messageIndex);
          } else {
            expect(evicted).toContain(m.messageIndex);
            expect(t.messages[m.messageIndex]?.role).toBe('user');
            for (const r of m.referencedBy) {
              expect(kept).toContain(r);
              expect(r).toBeGreaterThan(m.messageIndex);
            }
            expect(m.tokens.length).toBeGreaterThan(0);
          }
        }
      }),
      { numRuns: 200 },
    );
  }, 30_000);
});

describe('distinctiveTokens', () => {
  it('keeps paths, identifiers, ids, URLs, long numbers and quoted names; drops plain words', () => {
    expect(
      distinctiveTokens(
        'Fix `Render` (not `render`) in src/date.ts for order 1042 and INV-7 (see https://x.test/a, snake_case_name, fooBar, "Login page", "Export"). Thanks.',
      ),
    ).toEqual([
      'Render',
      'src/date.ts',
      '1042',
      'INV-7',
      'https://x.test/a',
      'snake_case_name',
      'fooBar',
      'Export',
    ]);
    expect(distinctiveTokens('please keep it short and simple')).toEqual([]);
  });
});

describe('canonicalJson', () => {
  it('ignores key order', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: null }] })).toBe(
      canonicalJson({ a: [{ c: null, d: 2 }], b: 1 }),
    );
    expect(canonicalJson(undefined)).toBe('null');
  });
});
