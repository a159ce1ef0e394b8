/**
 * The character diff of one rewritten message (issue 33): text in, hunks out. The page runs it
 * lazily in a worker; nothing is capped (the `diff` library's Myers diff, O((N+M)·D)).
 */
import { diffChars } from 'diff';
import type { Block, Message } from '../types.ts';

/** One hunk: a run of characters kept, deleted (left only) or inserted (right only). */
export interface TextHunk {
  op: 'equal' | 'delete' | 'insert';
  text: string;
}

/**
 * The text a person reads of a message, for its character diff: texts, thinking, tool calls
 * (`name(input JSON)`) and tool results, one block per paragraph. Media and opaque blocks are
 * named by type. Not what is sent (that is the format's writer).
 */
export function messageText(m: Message): string {
  return m.blocks.map(blockText).join('\n\n');
}

function blockText(b: Block): string {
  switch (b.type) {
    case 'text':
      return b.text;
    case 'thinking':
      return `[thinking] ${b.thinking}`;
    case 'redacted_thinking':
      return `[redacted thinking, ${b.bytes} bytes]`;
    case 'tool_use':
      return `[tool_use ${b.id ?? ''}] ${b.name}(${JSON.stringify(b.input) ?? ''})`;
    case 'tool_result':
      return `[tool_result ${b.toolUseId ?? ''}${b.isError ? ', error' : ''}] ${b.content.map(blockText).join('\n')}`;
    case 'image':
    case 'document':
      return `[${b.type}${b.mediaType ? ` ${b.mediaType}` : ''}]`;
    case 'other':
      return `[${b.label}] ${JSON.stringify(b.raw) ?? ''}`;
  }
}

/**
 * Character diff of two texts.
 * @returns hunks in order; joining the `equal` and `delete` hunks gives `a`, the `equal` and
 *   `insert` hunks give `b`. Adjacent hunks of one op are merged. No size cap.
 */
export function diffText(a: string, b: string): TextHunk[] {
  if (a === b) return a === '' ? [] : [{ op: 'equal', text: a }];
  const out: TextHunk[] = [];
  for (const c of diffChars(a, b)) {
    const op: TextHunk['op'] = c.added ? 'insert' : c.removed ? 'delete' : 'equal';
    const last = out[out.length - 1];
    if (last && last.op === op) last.text += c.value;
    else if (c.value !== '') out.push({ op, text: c.value });
  }
  return out;
}

/** `diffText` of two messages' texts (`messageText`). */
export function diffMessages(left: Message, right: Message): TextHunk[] {
  return diffText(messageText(left), messageText(right));
}
