/**
 * Writing a Responses request back (export, repair, eviction, structure-only copy): see
 * `writeResponses`. Reading is in openaiResponses.ts.
 */
import type { Block, Message, Transcript } from '../types.ts';
import { isObject, withList } from './util.ts';

/** The items rendered so far from one message, and the parts of its open `message` item. */
interface Rendering {
  items: unknown[];
  parts: unknown[];
  role: string;
  /** The item id a message of text only keeps (R3 reads which items carry one). */
  messageId: string | undefined;
}

/** Close the open `message` item, if it has parts. */
function flush(r: Rendering): void {
  if (r.parts.length === 0) return;
  r.items.push(
    r.messageId !== undefined
      ? { type: 'message', id: r.messageId, role: r.role, content: r.parts }
      : { type: 'message', role: r.role, content: r.parts },
  );
  r.parts = [];
}

/** A tool_use as a `custom_tool_call` (string input) or a `function_call` (JSON arguments). */
function callItem(b: Extract<Block, { type: 'tool_use' }>): unknown {
  const id = b.itemId ? { id: b.itemId } : {};
  return typeof b.input === 'string'
    ? { type: 'custom_tool_call', call_id: b.id, name: b.name, input: b.input, ...id }
    : {
        type: 'function_call',
        call_id: b.id,
        name: b.name,
        arguments: JSON.stringify(b.input ?? {}),
        ...id,
      };
}

/** Add one block: text and media join the open message item, anything else is its own item. */
function renderBlock(b: Block, r: Rendering): void {
  if (b.type === 'text') {
    r.parts.push(
      r.role === 'assistant'
        ? { type: 'output_text', text: b.text, annotations: [] }
        : { type: 'input_text', text: b.text },
    );
    return;
  }
  if (b.type === 'image' || b.type === 'document') {
    const media = b.mediaType ? ` ${b.mediaType}` : '';
    r.parts.push({ type: 'input_text', text: `[${b.type}${media} omitted]` });
    return;
  }
  flush(r);
  const items = r.items;
  switch (b.type) {
    case 'tool_use':
      items.push(callItem(b));
      break;
    case 'tool_result': {
      const texts = b.content.flatMap((c) => (c.type === 'text' ? [c.text] : []));
      items.push({ type: 'function_call_output', call_id: b.toolUseId, output: texts.join('\n') });
      break;
    }
    case 'thinking':
      items.push({
        type: 'reasoning',
        summary: b.thinking ? [{ type: 'summary_text', text: b.thinking }] : [],
      });
      break;
    case 'redacted_thinking': {
      // The encrypted part of the reasoning item just written, or a reasoning item of its own.
      const prev = items[items.length - 1];
      if (isObject(prev) && prev.type === 'reasoning' && prev.id === undefined) {
        if (b.itemId) prev.id = b.itemId;
      } else items.push({ type: 'reasoning', summary: [], ...(b.itemId ? { id: b.itemId } : {}) });
      break;
    }
    case 'other':
      items.push(b.raw);
      break;
  }
}

/** Render a normalised block list as Responses items (used for new or changed messages). */
function renderBlocks(m: Message): unknown[] {
  const role = m.role === 'tool' ? 'user' : m.role;
  const onlyText = m.blocks.every((b) => b.type === 'text');
  const r: Rendering = {
    items: [],
    parts: [],
    role,
    messageId: onlyText ? m.meta?.sourceId : undefined,
  };
  for (const b of m.blocks) renderBlock(b, r);
  flush(r);
  const items = r.items;
  if (items.length === 0) items.push({ type: 'message', role, content: m.stringContent ? '' : [] });
  if (
    m.stringContent &&
    items.length === 1 &&
    m.blocks.length === 1 &&
    m.blocks[0]?.type === 'text'
  )
    return [{ role, content: m.blocks[0].text }];
  return items;
}

/**
 * Write a transcript as a Responses request body. Untouched items (raw set, same format) are
 * written from `raw`; new or changed messages, and every message of a transcript from another
 * format, are rendered from their blocks (leading `system`/`developer` text goes to `instructions`
 * then; later ones stay input items).
 * @returns the body as pretty-printed JSON text
 */
export function writeResponses(t: Transcript): string {
  const same = t.format === 'openai-responses';
  const items: unknown[] = [];
  const instructions: string[] = [];
  for (const m of t.messages) {
    if (same && m.raw !== undefined) items.push(m.raw);
    // Only leading ones: a system message after others stays where it was (after a call, it
    // is what makes the call unanswered rather than trailing).
    else if (!same && items.length === 0 && (m.role === 'system' || m.role === 'developer'))
      instructions.push(m.blocks.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n'));
    else items.push(...renderBlocks(m));
  }
  if (!same) {
    const sys = [...t.system.map((s) => s.text), ...instructions].filter((s) => s.length > 0);
    return JSON.stringify(
      {
        ...(t.settings.model ? { model: t.settings.model } : {}),
        ...(sys.length ? { instructions: sys.join('\n\n') } : {}),
        input: items,
      },
      null,
      2,
    );
  }
  if (isObject(t.raw) && t.raw.object === 'response') {
    const r = t.raw;
    return JSON.stringify(
      {
        ...(r.model !== undefined ? { model: r.model } : {}),
        ...(r.instructions !== undefined && r.instructions !== null
          ? { instructions: r.instructions }
          : {}),
        input: items,
      },
      null,
      2,
    );
  }
  if (
    isObject(t.raw) &&
    typeof t.raw.input === 'string' &&
    t.messages.length === 1 &&
    t.messages[0]?.raw !== undefined
  )
    return JSON.stringify(t.raw, null, 2);
  return JSON.stringify(withList(t.raw, 'input', items), null, 2);
}
