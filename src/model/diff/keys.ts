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

/** Characters of a text's start and end that go into its alignment key. */
const SAMPLE = 24;

function sampleText(t: string): string {
  return t.length <= 2 * SAMPLE
    ? t
    : `${t.length}${SEP}${t.slice(0, SAMPLE)}${SEP}${t.slice(t.length - SAMPLE)}`;
}

function blockAlignKey(b: Block): string {
  switch (b.type) {
    case 'text':
      return `t${SEP}${sampleText(b.text)}`;
    case 'tool_use':
      return `u${SEP}${b.id ?? ''}${SEP}${b.name}`;
    case 'tool_result': {
      let s = `r${SEP}${b.toolUseId ?? ''}${SEP}${b.isError ? 1 : 0}`;
      for (const c of b.content) s += SEP + blockAlignKey(c);
      return s + END;
    }
    case 'thinking':
      return `k${SEP}${sampleText(b.thinking)}${SEP}${b.signature?.length ?? -1}`;
    case 'redacted_thinking':
      return `d${SEP}${b.bytes}`;
    case 'image':
    case 'document':
      return `m${SEP}${b.type}${SEP}${b.mediaType ?? ''}${SEP}${b.bytes ?? ''}`;
    case 'other':
      return `o${SEP}${b.label}`;
  }
}

/**
 * A message's alignment key: its role and blocks in brief (a text's length, start and end; a
 * call's id and name), O(blocks) whatever the texts' length. Equal content gives equal keys;
 * equal keys are confirmed by `sameMessage` before a pair is called kept.
 */
export function alignKey(m: Message): string {
  let s = m.role;
  for (const b of m.blocks) s += END + blockAlignKey(b);
  return s;
}

/** Deep equality of two JSON-like values (tool inputs, opaque blocks). */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => sameValue(x, bb[i]));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (const k of ka) {
    if (!Object.prototype.hasOwnProperty.call(b, k)) return false;
    if (!sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
      return false;
  }
  return true;
}

function sameBlock(a: Block, b: Block): boolean {
  if (a.type !== b.type) return false;
  switch (a.type) {
    case 'text':
      return a.text === (b as typeof a).text;
    case 'tool_use': {
      const o = b as typeof a;
      return (
        a.id === o.id && a.name === o.name && !a.server === !o.server && sameValue(a.input, o.input)
      );
    }
    case 'tool_result': {
      const o = b as typeof a;
      return (
        a.toolUseId === o.toolUseId &&
        a.isError === o.isError &&
        (a.name ?? '') === (o.name ?? '') &&
        a.content.length === o.content.length &&
        a.content.every((c, i) => sameBlock(c, o.content[i] as Block))
      );
    }
    case 'thinking': {
      const o = b as typeof a;
      return a.thinking === o.thinking && (a.signature ?? '') === (o.signature ?? '');
    }
    case 'redacted_thinking':
      return a.bytes === (b as typeof a).bytes;
    case 'image':
    case 'document': {
      const o = b as typeof a;
      return a.mediaType === o.mediaType && a.bytes === o.bytes && a.source === o.source;
    }
    case 'other': {
      const o = b as typeof a;
      return a.label === o.label && sameValue(a.raw, o.raw);
    }
  }
}

/** True when two messages have the same role and the same blocks (what `contentKey` compares). */
export function sameMessage(a: Message, b: Message): boolean {
  if (a === b) return true;
  return (
    a.role === b.role &&
    a.blocks.length === b.blocks.length &&
    a.blocks.every((x, i) => sameBlock(x, b.blocks[i] as Block))
  );
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
