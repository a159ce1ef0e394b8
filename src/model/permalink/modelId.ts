/**
 * What a model id may be, without zod: the CLI's `--model` checks a plain file's flag with
 * `isModelId` and so never loads the permalink schema (issue 38: zod is most of the CLI bundle's
 * weight, and `check` of a file needs none of it). `ModelIdSchema` (schema.ts) is built from the
 * same two constants, so the flag and the link's `m` take the same ids.
 */

/** The longest model id taken, in UTF-16 code units (`z.string().max`). */
export const MODEL_ID_MAX = 120;

/** The characters of a model id: letters, digits, `_ . : / @ -` (at least one). */
export const MODEL_ID_PATTERN = /^[\w.:/@-]+$/;

/**
 * True when `s` is a model id as providers spell them (`claude-opus-4-7`,
 * `anthropic.claude-…-v1:0`, `gemini-3-pro-preview`): 1 to `MODEL_ID_MAX` characters of
 * `MODEL_ID_PATTERN`. The same ids `ModelIdSchema.safeParse` accepts.
 */
export function isModelId(s: string): boolean {
  return s.length >= 1 && s.length <= MODEL_ID_MAX && MODEL_ID_PATTERN.test(s);
}
