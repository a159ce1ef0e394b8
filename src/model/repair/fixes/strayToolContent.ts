/**
 * A `tool` message that does not start with its tool_result (O4 and the like).
 */
import { derivedMessage } from '../../faults.ts';
import { isClientResult, type Work } from '../work.ts';

/**
 * A `tool` message that does not start with a tool_result (content around the result, or no
 * result at all): fold the stray content into the result, or make it a user message when there is
 * no result to fold it into. Keeps every word.
 */
export function fixStrayToolContent(w: Work): boolean {
  const i = w.msgs.findIndex((m) => m.role === 'tool' && m.blocks[0]?.type !== 'tool_result');
  const m = w.msgs[i];
  if (!m) return false;
  const result = m.blocks.find(isClientResult);
  const others = m.blocks.filter((b) => b !== result);
  if (!result) {
    const n = derivedMessage(m, { role: 'user' });
    w.replace(i, n);
    w.note(
      'text_moved',
      m,
      n,
      [],
      'A tool message carried no tool result; its content was kept as a user message.',
    );
    return true;
  }
  const n = w.setBlocks(i, [
    { ...result, content: [...result.content, ...others.filter((b) => b.type !== 'tool_result')] },
    ...others.filter((b) => b.type === 'tool_result'),
  ]);
  w.note(
    'text_moved',
    m,
    n,
    result.toolUseId ? [result.toolUseId] : [],
    'A tool message must start with its result; the content around it was moved into the result.',
  );
  return true;
}
