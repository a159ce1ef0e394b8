/**
 * Appending messages never turns an over-window verdict into a valid one (contextWindow.ts):
 * for a count (exact or an estimate) and for the text's bounds alone, on random appended turns.
 * On the old code no request was over its window, so the first assertion fails there.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { parsed } from '../testing/index.ts';
import type { ProviderId, Transcript } from '../types.ts';
import { countTokens, loadBpeCounter, type TextCounter } from '../tokens.ts';
import { validateTranscript } from './index.ts';

const prose = (chars: number) =>
  'the agent reads the code and calls a tool '.repeat(Math.ceil(chars / 42)).slice(0, chars);

const arbTurns = fc.array(
  fc.record({
    role: fc.constantFrom('user', 'assistant'),
    content: fc.oneof(fc.string({ maxLength: 40 }), fc.lorem({ maxCount: 400 })),
  }),
  { minLength: 1, maxLength: 6 },
);

function withTurns(base: Record<string, unknown>, key: string, turns: unknown[]): Transcript {
  return parsed({ ...base, [key]: [...(base[key] as unknown[]), ...turns] }).transcript;
}

let bpe: TextCounter;
beforeAll(async () => {
  bpe = await loadBpeCounter();
});

/** The count the page and the CLI pass: `countTokens`' total, exactness and label. */
function counted(t: Transcript, p: ProviderId) {
  const table = countTokens(t, p, bpe);
  return { tokens: table.total, exact: table.basis.exact, label: table.basis.label };
}

describe('context window: appending never makes an over-window request valid', () => {
  it('gpt-4o, exact counts', () => {
    const base = { model: 'gpt-4o', messages: [{ role: 'user', content: prose(800_000) }] };
    const t0 = parsed(base).transcript;
    const v0 = validateTranscript(t0, 'openai-chat', { inputTokens: counted(t0, 'openai-chat') });
    expect(v0.violations.map((v) => v.code)).toEqual(['O14']);
    fc.assert(
      fc.property(arbTurns, (turns) => {
        const t = withTurns(base, 'messages', turns);
        const v = validateTranscript(t, 'openai-chat', { inputTokens: counted(t, 'openai-chat') });
        expect(v.valid).toBe(false);
        expect(v.violations.some((x) => x.code === 'O14')).toBe(true);
      }),
      { numRuns: 25 },
    );
  });

  it('gpt-4o, the text’s bounds alone (no count)', () => {
    const base = { model: 'gpt-4o', messages: [{ role: 'user', content: prose(4_300_000) }] };
    expect(validateTranscript(parsed(base).transcript, 'openai-chat').valid).toBe(false);
    fc.assert(
      fc.property(arbTurns, (turns) => {
        const v = validateTranscript(withTurns(base, 'messages', turns), 'openai-chat');
        expect(v.valid).toBe(false);
      }),
      { numRuns: 10 },
    );
  });

  it('Claude, estimates beyond the margin', () => {
    const base = {
      model: 'claude-sonnet-4-5',
      max_tokens: 10,
      messages: [{ role: 'user', content: prose(1_400_000) }],
    };
    const t0 = parsed(base).transcript;
    const v0 = validateTranscript(t0, 'anthropic', { inputTokens: counted(t0, 'anthropic') });
    expect(v0.violations.map((v) => v.code)).toContain('A21');
    fc.assert(
      fc.property(arbTurns, (turns) => {
        const t = withTurns(base, 'messages', turns);
        const v = validateTranscript(t, 'anthropic', { inputTokens: counted(t, 'anthropic') });
        expect(v.violations.some((x) => x.code === 'A21')).toBe(true);
      }),
      { numRuns: 8 },
    );
  });
});
