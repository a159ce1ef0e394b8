/**
 * O12: content parts of a type Chat Completions does not have, in a body read as Chat Completions.
 * The Chat reader (parse/openaiChat/openaiChat.ts) reads the part types it knows into blocks of their own
 * and keeps any other part as an `other` block labelled with the part's `type`.
 */
import { isObject } from '../../parse/util.ts';
import type { RenderedItem, RenderedMessage } from '../types.ts';

/** The content part types Chat Completions takes, in the order its 400 lists them (O12). */
export const CHAT_PART_TYPES = ['text', 'image_url', 'input_audio', 'refusal', 'audio', 'file'];

const KNOWN: ReadonlySet<string> = new Set(CHAT_PART_TYPES);

/**
 * The items of `m` that are content parts whose `type` Chat Completions does not have, in
 * content order; a part with no `type` string is not one of them (a different error).
 * @returns the items; each one's `blockIndex` is the part's index in `content` (the reader puts
 *   content parts first), and its block's `label` the part's type
 */
export function unknownParts(m: RenderedMessage): RenderedItem[] {
  const out: RenderedItem[] = [];
  for (const it of m.items) {
    const b = it.block;
    if (b.type !== 'other' || !isObject(b.raw)) continue;
    const type = b.raw.type;
    if (typeof type === 'string' && type === b.label && !KNOWN.has(type)) out.push(it);
  }
  return out;
}
