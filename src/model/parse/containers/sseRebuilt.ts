/** What the stream rebuilders share: the rebuilt response, and finishing tool arguments. */
import { parseJsonBounded } from '../json.ts';
import type { Json } from '../util.ts';

/** The provider family of a stream. */
export type StreamFamily = 'anthropic' | 'openai-chat' | 'openai-responses' | 'gemini';

/** One rebuilt response, with notes about what could not be rebuilt. */
export interface RebuiltStream {
  family: StreamFamily;
  /** The response object, in the provider's own non-streamed shape. */
  value: Json;
  notes: string[];
}

/** Parse accumulated tool arguments; an incomplete text is kept as a string, with a note. */
export function finishJson(text: string, what: string, notes: string[]): unknown {
  if (text.trim() === '') return {};
  try {
    return parseJsonBounded(text);
  } catch {
    notes.push(
      `The arguments of ${what} are not complete JSON (the stream was cut off?): kept as text.`,
    );
    return text;
  }
}
