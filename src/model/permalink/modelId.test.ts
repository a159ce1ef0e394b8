/**
 * `isModelId` (the CLI's `--model` check, zod-free for issue 38) takes exactly the ids
 * `ModelIdSchema` (the link's `m`) takes: a flag and a link name the same models.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isModelId, MODEL_ID_MAX } from './modelId.ts';
import { ModelIdSchema } from './schema.ts';

const schemaTakes = (s: string) => ModelIdSchema.safeParse(s).success;

describe('isModelId', () => {
  it.each([
    ['claude-opus-4-7', true],
    ['anthropic.claude-sonnet-4-5-20250929-v1:0', true],
    ['gemini-3-pro-preview', true],
    ['models/gpt-4o@2024', true],
    ['x'.repeat(MODEL_ID_MAX), true],
    ['x'.repeat(MODEL_ID_MAX + 1), false],
    ['', false],
    ['gpt 4o', false],
    ['gpt-4o\n', false],
    ['modèle', false],
  ])('%s → %s, as ModelIdSchema', (id, want) => {
    expect(isModelId(id)).toBe(want);
    expect(schemaTakes(id)).toBe(want);
  });

  it('agrees with ModelIdSchema on any string', () => {
    const idChars = fc.constantFrom(...'aZ09_.:/@- é\n#'.split(''));
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ unit: idChars, maxLength: 130 }), fc.string({ maxLength: 130 })),
        (s) => isModelId(s) === schemaTakes(s),
      ),
    );
  });
});
