/**
 * Writing a Responses request back (export, repair, eviction, structure-only copy): see
 * `writeResponses`. Reading is in openaiResponses.ts.
 */
import type { Block, MediaBlock, Message, Transcript } from '../../types.ts';
import { dataUrlStandIn, isMedia, isObject, withList } from '../util.ts';

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

/**
 * A media block as an `input_image`/`input_file`/`input_audio` part that reads back as the same
 * block: a stored file or a URL stays one (by a stand-in id or address), inline data becomes a
 * data URL with a stand-in payload of the block's size (the writer holds no payload).
 */
export function mediaPart(b: MediaBlock): Record<string, unknown> {
  if (b.type === 'document' && b.mediaType === 'audio')
    return { type: 'input_audio', input_audio: { data: '', format: 'wav' } };
  const image = b.type === 'image';
  const part: Record<string, unknown> = image
    ? { type: 'input_image', detail: 'auto' }
    : { type: 'input_file' };
  if (b.source === 'file') part.file_id = `file-${b.type}`;
  else if (b.source === 'url')
    part[image ? 'image_url' : 'file_url'] = `https://example.invalid/${b.type}`;
  else if (b.bytes !== undefined) {
    const data = dataUrlStandIn(b, b.bytes);
    if (image) part.image_url = data;
    else Object.assign(part, { filename: 'document', file_data: data });
  }
  return part;
}

/**
 * A tool_result's `output`: its texts as one string, or, when it holds media, a list of
 * `input_text` and media parts (the output of a tool that returned an image or a file).
 */
function outputOf(b: Extract<Block, { type: 'tool_result' }>): unknown {
  if (!b.content.some(isMedia))
    return b.content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('\n');
  return b.content.flatMap((c) =>
    c.type === 'text' ? [{ type: 'input_text', text: c.text }] : isMedia(c) ? [mediaPart(c)] : [],
  );
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
  if (isMedia(b)) {
    r.parts.push(mediaPart(b));
    return;
  }
  flush(r);
  const items = r.items;
  switch (b.type) {
    case 'tool_use':
      items.push(callItem(b));
      break;
    case 'tool_result':
      items.push({ type: 'function_call_output', call_id: b.toolUseId, output: outputOf(b) });
      break;
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
