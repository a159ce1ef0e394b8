/**
 * O12: content parts of a type Chat Completions does not have, and O13 / A20: content parts with
 * no `type` at all, in a body read as Chat Completions (or as Anthropic Messages, A20). The
 * readers (parse/openaiChat/openaiChat.ts, parse/anthropicMessages/anthropicMessages.ts) read the
 * part types they know into blocks of their own and keep any other part as an `other` block whose
 * `raw` is the part as sent.
 */
import { isObject } from '../../parse/util.ts';
import type { Block } from '../../types.ts';
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

/** True for a block read from a content part that has no `type` key (O13, A20). */
export function isUntyped(b: Block): boolean {
  return b.type === 'other' && isObject(b.raw) && !Object.hasOwn(b.raw, 'type');
}

/** A content part without `type` in a rendered message: its item, and its index in `content`. */
export interface UntypedPart {
  item: RenderedItem;
  /** The part's index in the message's `content` array as sent. */
  k: number;
}

/**
 * The content parts of `m` with no `type` key (O13), in content order: the message's own parts,
 * and for a tool message the parts of its result's content (a tool's list of objects sent as
 * it is: the captured case, langchain-ai/langgraph#1069).
 * @returns the parts; `k` is the index in the message's `content` array (for a tool message, in
 *   its result's content, which is that array)
 */
export function untypedParts(m: RenderedMessage): UntypedPart[] {
  const out: UntypedPart[] = [];
  for (const it of m.items) {
    const b = it.block;
    if (isUntyped(b)) out.push({ item: it, k: it.blockIndex });
    else if (m.role === 'tool' && b.type === 'tool_result')
      for (let k = 0; k < b.content.length; k++)
        if (isUntyped(b.content[k] as Block)) out.push({ item: it, k });
  }
  return out;
}
