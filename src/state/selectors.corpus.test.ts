/**
 * Corpus suite: for the reported Anthropic and OpenAI Chat cases, the first violation target the
 * page shows is the case's expected first violation. Our case fixtures are checked the same way
 * by violationTargets.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { corpusCases } from '../testing/corpus.ts';
import { selectRequest, selectViolationTargets } from './selectors.ts';
import { createAppStore } from './store.ts';
import { InspectStages } from '../engine/inspect.ts';
/** The engine's answer to the store's inputs, on this thread (the stages the inspect worker runs). */
const stages = new InspectStages();
const selectInspection = (s: Parameters<typeof selectRequest>[0]) =>
  stages.inspect(selectRequest(s));

describe('reported cases: the first violation target', () => {
  const cases = corpusCases().filter(
    ({ c }) => c.format === 'anthropic-messages' || c.format === 'openai-chat',
  );
  it('finds the cases 01, 02 and 08', () =>
    expect(cases.map(({ file }) => file.slice(0, 2))).toEqual(
      expect.arrayContaining(['01', '02', '08']),
    ));
  for (const { file, c } of cases)
    it(`${file}: the first target is the expected first violation`, () => {
      const store = createAppStore({
        source: { text: JSON.stringify(c.transcript), name: '', origin: 'paste' },
      });
      const r = selectInspection(store.getState());
      if (!r.ok) throw new Error(r.error.message);
      expect(r.analysis.validation.valid).toBe(c.expected.valid);
      const first = selectViolationTargets(r.analysis).find((t) => t.rank === 'first');
      const exp = c.expected.violations[0];
      if (exp) {
        expect(first?.violation.rule).toBe(exp.kind);
        expect(first?.violation.messageIndex).toBe(exp.message_index);
      }
    });
});
