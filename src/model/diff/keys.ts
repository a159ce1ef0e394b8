/**
 * What makes two messages "the same" for a diff: their content key (role and blocks), their
 * identity in a shared source (raw index, path, source id) and their tool ids.
 */
import type { Block, Message } from '../types.ts';

/** Separators that cannot occur in JSON text the keys are built of (control characters). */
const SEP = '\u0001';
const END = '\u0002';

function blockKey(b: Block): string {
  switch (b.type) {
    case 'text':
      return `t${SEP}${b.text}`;
    case 'tool_use':
      return `u${SEP}${b.id ?? ''}${SEP}${b.name}${SEP}${JSON.stringify(b.input) ?? ''}${SEP}${b.server ? 1 : 0}`;
    case 'tool_result': {
      let s = `r${SEP}${b.toolUseId ?? ''}${SEP}${b.isError ? 1 : 0}${SEP}${b.name ?? ''}`;
      for (const c of b.content) s += SEP + blockKey(c);
      return s + END;
    }
    case 'thinking':
      return `k${SEP}${b.thinking}${SEP}${b.signature ?? ''}`;
    case 'redacted_thinking':
      return `d${SEP}${b.bytes}`;
    case 'image':
    case 'document':
      return `m${SEP}${b.type}${SEP}${b.mediaType ?? ''}${SEP}${b.bytes ?? ''}${SEP}${b.source ?? ''}`;
    case 'other':
      return `o${SEP}${b.label}${SEP}${JSON.stringify(b.raw) ?? ''}`;
  }
}

/** A message's content key: its role and every block (text, ids, inputs, results). O(content). */
export function contentKey(m: Message): string {
  let s = m.role;
  for (const b of m.blocks) s += END + blockKey(b);
  return s;
}

/** The content key of a list of blocks alone (for a merge: several messages' blocks as one). */
export function blocksKey(role: string, blocks: readonly Block[]): string {
  let s = role;
  for (const b of blocks) s += END + blockKey(b);
  return s;
}

/**
 * A message's identity in its source, for two requests read from one source (a session log's
 * calls, a transcript and its cut): raw index, path and source id. Null for a message made
 * after the parse (a summary, a repair: raw index −1).
 */
export function identityKey(m: Message): string | null {
  if (m.rawIndex < 0) return null;
  return `${m.rawIndex}${SEP}${m.path}${SEP}${m.role}${SEP}${m.meta?.sourceId ?? ''}`;
}

/**
 * The tool ids a message carries (calls and results), as one key, or null when it carries none.
 * Two messages with the same tool-id key are the same step of the conversation even when their
 * content changed (a cleared tool result).
 */
export function toolIdKey(m: Message): string | null {
  let s = '';
  for (const b of m.blocks) {
    if (b.type === 'tool_use' && b.id) s += `u${b.id}${SEP}`;
    else if (b.type === 'tool_result' && b.toolUseId) s += `r${b.toolUseId}${SEP}`;
  }
  return s === '' ? null : `${m.role}${SEP}${s}`;
}

/**
 * Strings to small integers (equal strings, equal numbers): the alignment compares numbers.
 * One interner serves both sides of a diff.
 */
export class Interner {
  private readonly ids = new Map<string, number>();

  id(s: string): number {
    let n = this.ids.get(s);
    if (n === undefined) {
      n = this.ids.size;
      this.ids.set(s, n);
    }
    return n;
  }
}
