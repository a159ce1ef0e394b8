/**
 * Find and filters: which messages and blocks match the find box, and which rows the role and
 * block-type filters dim.
 */
import type { Analysis } from '../model/analyze.ts';
import type { Block, BlockType, Message, Role } from '../model/types.ts';
import { textPending } from '../engine/client.ts';
import { memoN, memoWeak } from './session/index.ts';

/** Searchable strings of a block: its text, tool name and ids (lower-cased by the caller). */
export function blockStrings(b: Block): string[] {
  switch (b.type) {
    case 'text':
      return [b.text];
    case 'thinking':
      return [b.thinking];
    case 'tool_use':
      return [
        b.name,
        b.id ?? '',
        typeof b.input === 'string' ? b.input : (JSON.stringify(b.input) ?? ''),
      ];
    case 'tool_result':
      return [b.toolUseId ?? '', b.name ?? '', ...b.content.flatMap(blockStrings)];
    case 'other':
      return [b.label];
    default:
      return [];
  }
}

export interface Matches {
  /** Messages (ours) with at least one match, in order. */
  messages: number[];
  /** `message:block` keys of matching blocks. */
  blocks: Set<string>;
  /**
   * Some messages' texts were still being read from the file (a streamed log, issue 38): the
   * matches so far are a lower bound; the session computes them again when the texts arrive.
   */
  reading: boolean;
}

const NO_MATCHES: Matches = Object.freeze({
  messages: [],
  blocks: new Set<string>(),
  reading: false,
});

/**
 * Find: case-insensitive substring match over text, tool names and tool ids. O(total text).
 * Reading a message's blocks asks for its text when the file still holds it (`reading`).
 */
export const selectMatches = memoN((a: Analysis, query: string): Matches => {
  const q = query.trim().toLowerCase();
  if (q.length === 0) return NO_MATCHES;
  const out: Matches = { messages: [], blocks: new Set(), reading: false };
  a.transcript.messages.forEach((m, mi) => {
    let hit = false;
    m.blocks.forEach((b, bi) => {
      if (blockStrings(b).some((s) => s.toLowerCase().includes(q))) {
        out.blocks.add(`${mi}:${bi}`);
        hit = true;
      }
    });
    if (hit) out.messages.push(mi);
    else if (!out.reading && textPending(m)) out.reading = true;
  });
  return out;
});

/** True when a message passes the role and block-type filters (empty filter = everything). */
export function passesFilters(
  m: Message,
  roles: readonly Role[],
  types: readonly BlockType[],
): boolean {
  if (roles.length > 0 && !roles.includes(m.role)) return false;
  if (types.length > 0 && !m.blocks.some((b) => types.includes(b.type))) return false;
  return true;
}

const dimmedNone = memoWeak(
  (a: Analysis): Uint8Array => new Uint8Array(a.transcript.messages.length),
);
/** Per message: 1 when the filters dim it. Dimmed rows and their arcs stay in place. */
export const selectDimmed = memoN(
  (a: Analysis, roles: readonly Role[], types: readonly BlockType[]): Uint8Array => {
    // No filter dims nothing: one zeroed table per analysis, no walk over the messages.
    if (roles.length === 0 && types.length === 0) return dimmedNone(a);
    const out = new Uint8Array(a.transcript.messages.length);
    a.transcript.messages.forEach((m, i) => {
      out[i] = passesFilters(m, roles, types) ? 0 : 1;
    });
    return out;
  },
);
