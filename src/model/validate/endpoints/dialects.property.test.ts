/**
 * Every dialect's verdicts equal its API's (its base endpoint's) except where the dialect documents
 * a difference (`Dialect.adds`, `rewords`, `relaxes`): the same violations in the same order, each
 * with the same rule, message, block, ids and severity.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arbTranscript } from '../../testing/index.ts';
import type { Transcript } from '../../types.ts';
import { validateTranscript, type Violation } from '../index.ts';
import { ENDPOINT_LIST } from './index.ts';

/** What a verdict is, apart from the words: the rule, where, which ids, how severe. */
const project = (v: Violation) => ({
  rule: v.rule,
  index: v.index,
  blockIndex: v.blockIndex,
  ids: v.ids,
  severity: v.severity,
});

/** Model names that switch an endpoint's model-dependent rules on (thinking, generations). */
const MODELS = [
  undefined,
  'deepseek-v4-flash',
  'deepseek-reasoner',
  'kimi-k2.5',
  'gemini-3-pro',
  'claude-sonnet-4-5',
];

const arbInput: fc.Arbitrary<Transcript> = fc
  .tuple(
    fc.oneof(arbTranscript('anthropic-messages'), arbTranscript('openai-chat')),
    fc.constantFrom(...MODELS),
    fc.constantFrom(undefined, true, false),
  )
  .map(([t, model, thinking]) => ({
    ...t,
    settings: {
      ...t.settings,
      ...(model !== undefined ? { model } : {}),
      ...(thinking !== undefined ? { thinking } : {}),
    },
  }));

const DIALECTS = ENDPOINT_LIST.filter((e) => e.base !== undefined && e.dialect !== undefined);

describe('dialects: verdicts equal the API\u2019s except where documented', () => {
  it('covers every endpoint with a base', () => {
    expect(DIALECTS.map((e) => e.id).sort()).toEqual(
      [
        'anthropic-bedrock',
        'anthropic-vertex',
        'azure-openai',
        'deepseek',
        'deepseek-anthropic',
        'deepseek-responses',
        'kimi',
        'qwen',
        'vertex-gemini',
      ].sort(),
    );
  });

  for (const e of DIALECTS) {
    const d = e.dialect;
    const base = e.base;
    if (!d || !base) continue;
    it(`${e.id} = ${base} but ${[...d.adds, ...d.rewords, ...(d.relaxes ?? [])].join(', ') || 'nothing'}`, () => {
      fc.assert(
        fc.property(arbInput, (t) => {
          const mine = validateTranscript(t, e.id).violations;
          const theirs = validateTranscript(t, base).violations;
          const kept = mine.filter((v) => !d.adds.includes(v.code));
          // `adds` are checks the base does not make, or a warning where the base errs (types.ts):
          // either way not compared with the base's.
          const expected = theirs.filter(
            (v) => !(d.relaxes ?? []).includes(v.code) && !d.adds.includes(v.code),
          );
          expect(kept.map(project)).toEqual(expected.map(project));
          // A code the endpoint reports is its base's, or one its dialect documents.
          for (const v of kept)
            if (d.rewords.includes(v.code)) continue;
            else expect(expected.map((x) => x.code)).toContain(v.code);
          expect(validateTranscript(t, e.id).valid).toBe(!mine.some((v) => v.severity === 'error'));
        }),
        { numRuns: 150 },
      );
    });
  }
});
