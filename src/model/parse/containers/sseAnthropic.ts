/**
 * Rebuilding an Anthropic Messages stream (`message_start`, `content_block_*`, `message_delta`,
 * `message_stop`) into the `Message` it streamed.
 */
import { isObject, str, type Json } from '../util.ts';
import { finishJson, type RebuiltStream } from './sseRebuilt.ts';

const TOOL_BLOCKS = new Set(['tool_use', 'server_tool_use', 'mcp_tool_use']);

/**
 * Apply one `content_block_delta` to its block: text, thinking, signature and citations are
 * appended; tool input JSON is accumulated in `partial` (parsed when the block stops).
 */
function applyDelta(
  b: Json,
  delta: Json,
  index: number,
  partial: Map<number, string>,
  notes: string[],
): void {
  switch (delta.type) {
    case 'text_delta':
      b.text = (str(b.text) ?? '') + (str(delta.text) ?? '');
      break;
    case 'input_json_delta':
      partial.set(index, (partial.get(index) ?? '') + (str(delta.partial_json) ?? ''));
      break;
    case 'thinking_delta':
      b.thinking = (str(b.thinking) ?? '') + (str(delta.thinking) ?? '');
      break;
    case 'signature_delta':
      b.signature = (str(b.signature) ?? '') + (str(delta.signature) ?? '');
      break;
    case 'citations_delta':
      b.citations = [...(Array.isArray(b.citations) ? b.citations : []), delta.citation];
      break;
    default:
      notes.push(`A delta of unknown type \`${String(delta.type)}\` was skipped.`);
  }
}

/**
 * One `Message` per `message_start`; an `error` event becomes a note (or a response of its own).
 */
export function rebuildAnthropic(events: Json[]): RebuiltStream[] {
  const out: RebuiltStream[] = [];
  let msg: Json | null = null;
  let blocks: Json[] = [];
  let partial = new Map<number, string>();
  let notes: string[] = [];
  let stopped = false;
  const finishBlock = (i: number) => {
    const p = partial.get(i);
    const b = blocks[i];
    if (p === undefined || !b) return;
    partial.delete(i);
    if (p !== '')
      b.input = finishJson(p, `${str(b.name) ?? 'a tool'} (${str(b.id) ?? '?'})`, notes);
  };
  const close = () => {
    if (!msg) return;
    for (const i of [...partial.keys()]) finishBlock(i);
    if (!stopped) notes.push('The stream has no `message_stop`: the response may be cut off.');
    out.push({
      family: 'anthropic',
      value: { ...msg, content: blocks.filter((b) => b !== undefined) },
      notes,
    });
    msg = null;
  };
  for (const d of events) {
    const type = str(d.type);
    if (type === 'message_start') {
      close();
      const m = isObject(d.message) ? d.message : {};
      msg = { type: 'message', role: 'assistant', ...m };
      blocks = [];
      partial = new Map();
      notes = [];
      stopped = false;
      continue;
    }
    if (type === 'error') {
      const e = isObject(d.error) ? d.error : {};
      const line = `The stream ended with an error: ${str(e.type) ?? 'error'}: ${str(e.message) ?? ''}`;
      if (msg) notes.push(line);
      else
        out.push({
          family: 'anthropic',
          value: { type: 'message', role: 'assistant', content: [] },
          notes: [line],
        });
      continue;
    }
    if (!msg) continue;
    const index = typeof d.index === 'number' ? d.index : -1;
    if (type === 'content_block_start' && index >= 0 && isObject(d.content_block)) {
      const b: Json = { ...d.content_block };
      blocks[index] = b;
      if (TOOL_BLOCKS.has(str(b.type) ?? '')) partial.set(index, '');
    } else if (type === 'content_block_delta' && index >= 0 && isObject(d.delta)) {
      const b = blocks[index];
      if (b) applyDelta(b, d.delta, index, partial, notes);
    } else if (type === 'content_block_stop' && index >= 0) {
      finishBlock(index);
    } else if (type === 'message_delta') {
      if (isObject(d.delta)) Object.assign(msg, d.delta);
      if (isObject(d.usage)) msg.usage = { ...(isObject(msg.usage) ? msg.usage : {}), ...d.usage };
    } else if (type === 'message_stop') {
      stopped = true;
    }
  }
  close();
  return out;
}
