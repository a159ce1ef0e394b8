/**
 * The page's verdict follows the count (windowVerdict.ts): the first answer judges the context
 * window by the text's length alone; the exact table that arrives later judges it again and the
 * verdict says so. On the old code the verdict stayed "valid" after the exact count.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../model/analyze.ts';
import { parsed } from '../model/testing/index.ts';
import { CHARS_PER_4, countTokens, loadBpeCounter, type TextCounter } from '../model/tokens.ts';
import { selectWindowVerdict } from './windowVerdict.ts';

const prose = (chars: number) =>
  'the agent reads the code and calls a tool '.repeat(Math.ceil(chars / 42)).slice(0, chars);
const gpt4o = (chars: number) =>
  analyze(
    parsed({ model: 'gpt-4o', messages: [{ role: 'user', content: prose(chars) }] }).transcript,
  );

let bpe: TextCounter;
beforeAll(async () => {
  bpe = await loadBpeCounter();
});

describe('selectWindowVerdict', () => {
  it('an exact count over the window turns the first "valid" into O14, and says so', () => {
    const a = gpt4o(700_000);
    expect(a.validation.valid).toBe(true);
    expect(a.validation.notes.join(' ')).toContain('not judged yet');
    const quick = countTokens(a.transcript, a.provider, CHARS_PER_4);
    expect(selectWindowVerdict(a, quick)).toEqual({ analysis: a, updated: null });

    const exact = countTokens(a.transcript, a.provider, bpe);
    expect(exact.total).toBeGreaterThan(128_000);
    const r = selectWindowVerdict(a, exact);
    expect(r.analysis.validation.valid).toBe(false);
    expect(r.analysis.validation.violations.map((v) => v.code)).toEqual(['O14']);
    expect(r.analysis.validation.violations[0]?.message).toContain(
      `your messages resulted in ${exact.total} tokens`,
    );
    expect(r.updated).toContain('Verdict updated');
    expect(r.analysis.validation.notes[0]).toBe(r.updated);
    expect(r.analysis.validation.notes.join(' ')).not.toContain('not judged yet');
    expect(r.analysis.transcript).toBe(a.transcript);
  });

  it('an exact count under the window keeps the verdict and drops the "not judged" note', () => {
    const a = gpt4o(300_000);
    const exact = countTokens(a.transcript, a.provider, bpe);
    expect(exact.total).toBeLessThan(128_000);
    const r = selectWindowVerdict(a, exact);
    expect(r.updated).toBeNull();
    expect(r.analysis.validation.valid).toBe(true);
    expect(r.analysis.validation.notes.join(' ')).not.toContain('not judged yet');
  });

  it('a first answer over by a bound gets the exact N, and says the verdict was updated', () => {
    const a = gpt4o(4_300_000);
    expect(a.validation.violations[0]?.code).toBe('O14');
    const exact = countTokens(a.transcript, a.provider, bpe);
    const r = selectWindowVerdict(a, exact);
    expect(r.analysis.validation.valid).toBe(false);
    expect(r.analysis.validation.violations[0]?.message).toContain(`resulted in ${exact.total}`);
    expect(r.updated).toContain('Verdict updated');
  });

  it('a request clearly under its window: the same analysis object', () => {
    const a = gpt4o(5_000);
    const exact = countTokens(a.transcript, a.provider, bpe);
    expect(selectWindowVerdict(a, exact).analysis).toBe(a);
  });
});
