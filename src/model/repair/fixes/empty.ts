/**
 * Empty messages (A10, B11): removed, except a final assistant prefill; an assistant message
 * with null content (O11, D3): removed; a tool or user message's null content (O16): an empty
 * string; an empty `tool_calls` list (O15): left out.
 */
import { derivedMessage } from '../../faults.ts';
import type { Message } from '../../types.ts';
import type { Violation } from '../../validate/index.ts';
import type { Work } from '../work.ts';

function isEmpty(m: Message): boolean {
  return m.blocks.length === 0 || m.blocks.every((b) => b.type === 'text' && b.text === '');
}

/** Empty messages (A10). The final assistant message may be empty. */
export function fixEmpty(w: Work): boolean {
  let changed = false;
  for (let i = w.msgs.length - 1; i >= 0; i--) {
    const m = w.msgs[i] as Message;
    if (m.role === 'system' || m.role === 'developer') continue;
    if (!isEmpty(m) || (i === w.msgs.length - 1 && m.role === 'assistant')) continue;
    w.remove(i);
    w.note(
      'empty_removed',
      m,
      null,
      [],
      'Removed an empty message: every message but a final assistant prefill needs content.',
    );
    changed = true;
  }
  return changed;
}

/**
 * An assistant message with neither content nor calls (O11, D3): removed wherever it stands (a
 * final one too: null content is refused in any position). A tool or user message sent with
 * `content: null` (O16): written again from its blocks, its content an empty string (a tool
 * message must stay: it answers its call). The violation names the message.
 */
export function fixNullContent(w: Work, v: Violation): boolean {
  const m = w.causeOf(v);
  const i = m ? w.msgs.indexOf(m) : -1;
  if (!m || i < 0) return false;
  if (m.role !== 'assistant' && m.raw !== undefined) {
    w.replace(i, derivedMessage(m, {}));
    w.note(
      'null_content_emptied',
      m,
      null,
      [],
      'Sent the null content of a tool or user message as an empty string.',
    );
    return true;
  }
  if (m.role !== 'assistant' || m.blocks.length > 0) return false;
  w.remove(i);
  w.note(
    'empty_removed',
    m,
    null,
    [],
    'Removed an assistant message with neither content nor tool calls: its content would be sent as null.',
  );
  return true;
}

/**
 * An assistant message sent with `tool_calls: []` (O15): written again from its blocks, which
 * leaves the key out (a message with no content either then gets O11, removed by its own fix).
 */
export function fixEmptyToolCalls(w: Work, v: Violation): boolean {
  const m = w.causeOf(v);
  const i = m ? w.msgs.indexOf(m) : -1;
  if (!m || i < 0 || m.raw === undefined) return false;
  w.replace(i, derivedMessage(m, {}));
  w.note(
    'empty_calls_dropped',
    m,
    null,
    [],
    'Left out the empty tool_calls list of an assistant message: a reply without calls sends no tool_calls.',
  );
  return true;
}
