/**
 * The structure-only copy's vocabulary is current (issue 37): `src/model/redact/vocabulary.gen.ts`
 * holds exactly the words the model's production files spell now (`npm run vocabulary`), so a
 * word a reader starts to read is kept in a copy, and a word no longer spelled is not.
 */
import { describe, expect, it } from 'vitest';
import { VOCABULARY_WORDS } from '../src/model/redact/vocabulary.gen.ts';
import { harvestVocabulary } from './vocabulary.ts';

describe('vocabulary.gen.ts', () => {
  it('is what npm run vocabulary writes from src/model', () => {
    expect([...VOCABULARY_WORDS]).toEqual(harvestVocabulary());
  });

  it('holds schema words, and none of the issue’s secrets', () => {
    const words = new Set(VOCABULARY_WORDS);
    for (const w of ['tool_use', 'tool_result', 'assistant', 'parentUuid', 'functionCall'])
      expect(words.has(w), w).toBe(true);
    for (const w of ['AKIAIOSFODNN7EXAMPLE', 'ghp_16C7e42F292c6912E7710c838347Ae178B4a'])
      expect(words.has(w)).toBe(false);
    for (const w of VOCABULARY_WORDS) expect(w).not.toMatch(/@.*\.|^AKIA|^ghp_/);
  });
});
