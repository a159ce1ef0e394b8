import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyze, type Analysis } from '../../model/analyze.ts';
import { isArcPair } from '../../model/pairTables.ts';
import {
  arbAnyTranscript,
  assistant,
  call,
  parsedText,
  tool,
  transcript,
  user,
} from '../../model/testing/index.ts';
import type { ProviderId } from '../../model/types.ts';
import { VALIDATORS } from '../../model/validate/index.ts';
import { selectBrokenPairs } from '../../state/selectors.ts';
import { PAIR_ERROR, PAIR_FINE, PAIR_WARNING, selectPairSignals } from './pairSignals.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const sample = (file: string, provider?: ProviderId): Analysis => {
  const text = readFileSync(path.join(repoRoot, 'public/samples', file), 'utf8');
  return analyze(parsedText(text, { name: file }).transcript, provider);
};

describe('selectPairSignals on the samples', () => {
  it('ids reused (as a SWE-agent demo replay does) under a provider that accepts them: a warning, not red', () => {
    const a = sample('broken-duplicate-id.json', 'openai-chat');
    expect(a.validation.valid).toBe(true);
    expect(a.pairs.some((p) => p.status === 'duplicate_id')).toBe(true);
    const s = selectPairSignals(a);
    expect(s.errorArcs).toBe(0);
    expect(s.warningArcs).toBe(1);
    expect([...s.level].filter((l) => l === PAIR_WARNING)).toHaveLength(1);
  });

  it('the same ids under Anthropic, which refuses them (A6): red', () => {
    const a = sample('broken-duplicate-id.json', 'anthropic');
    expect(a.validation.valid).toBe(false);
    const s = selectPairSignals(a);
    expect(s.errorArcs).toBeGreaterThan(0);
    expect(s.warningArcs).toBe(0);
  });

  it('Mistral: the count error (M3) names an orphan a trim left, which stays red', () => {
    // The trim cut the calls of the assistant message; M3 once named the next (unrelated) AI
    // message with no ids before it was named at the orphan. (A ToolMessage left first, as in
    // broken-langchain-trim.json, is the request's first message, which Mistral does not count.)
    const t = transcript('langchain', [
      assistant('Checking the pods.'),
      tool('call_Pd31'),
      assistant('Two of three pods are ready.'),
      user('Show me the logs of the crashing pod.'),
    ]);
    const a = analyze(t, 'mistral');
    expect(a.validation.violations.find((v) => v.code === 'M3')).toMatchObject({
      rule: 'orphan_tool_result',
      messageIndex: 1,
      ids: ['call_Pd31'],
    });
    const s = selectPairSignals(a);
    expect(s.errorArcs).toBe(1);
    expect(s.warningArcs).toBe(0);
  });

  it('an error with no ids (Mistral: the request ends on an assistant message) keeps every broken pair red', () => {
    // Mistral does not match ids: a result with the wrong id passes its counts, and the only error
    // (M1) names no pair.
    const t = transcript('openai-chat', [
      user('q'),
      assistant(call('callAAAA1')),
      tool('callBBBB2'),
      assistant('done'),
    ]);
    const a = analyze(t, 'mistral');
    expect(a.validation.violations.map((v) => [v.code, v.ids])).toEqual([['M1', []]]);
    const s = selectPairSignals(a);
    expect(a.pairs.map((p) => p.status)).toEqual(['unanswered', 'orphan']);
    expect([...s.level]).toEqual([PAIR_ERROR, PAIR_ERROR]);
    expect(s.errorArcs).toBe(2);
    expect(s.warningArcs).toBe(0);
  });

  it('an answered pair a rule names (Bedrock B2) is red; its sibling is fine', () => {
    const s = selectPairSignals(sample('broken-bedrock-split-results.json'));
    expect([...s.level]).toEqual([PAIR_FINE, PAIR_ERROR]);
    expect(s.levelOf('p1')).toBe(PAIR_ERROR);
    expect(s.levelOf('p9')).toBe(PAIR_FINE);
  });
});

const PROVIDERS = VALIDATORS.map((v) => v.id) as ProviderId[];

describe('selectPairSignals properties', () => {
  for (const format of ['anthropic-messages', 'openai-chat'] as const)
    it(`red only where an error of the verdict is, every broken pair signalled (${format}, property)`, () => {
      fc.assert(
        fc.property(arbAnyTranscript(format), fc.constantFrom(...PROVIDERS), (t, provider) => {
          const a = analyze(t, provider);
          const s = selectPairSignals(a);
          const b = selectBrokenPairs(a);
          const errors = a.validation.violations.filter((v) => v.severity === 'error');
          a.pairs.forEach((_, i) => {
            // Every pair pairing or the verdict finds broken shows, as an error or a warning.
            expect(s.level[i] !== PAIR_FINE).toBe(b.broken[i] === 1);
            // Red needs an error of the verdict: a valid request shows no red.
            if (s.level[i] === PAIR_ERROR) expect(errors.length).toBeGreaterThan(0);
          });
          if (a.validation.valid) expect(s.errorArcs).toBe(0);
          const arcs = (lvl: number) =>
            a.pairs.filter((p, i) => isArcPair(p) && s.level[i] === lvl).length;
          expect(s.errorArcs).toBe(arcs(PAIR_ERROR));
          expect(s.warningArcs).toBe(arcs(PAIR_WARNING));
          expect(s.errorArcs + s.warningArcs).toBe(b.arcCount);
        }),
      );
    });
});
