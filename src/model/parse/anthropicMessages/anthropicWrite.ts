/**
 * Writing Anthropic Messages back: a block or message rendered in the API's shape (the inverse of
 * reading it, anthropicMessages.ts), and a whole body.
 */
import type { Block, MediaBlock, Message, Transcript } from '../../types.ts';
import { base64StandIn, mediaTypeOf, withList } from '../util.ts';

/**
 * A media block's `source`. The block holds no payload (nor URL, nor file id), so what is written
 * stands in for it and reads back the same: a URL or file of the same kind, or base64 data of the
 * block's size (a document's tokens are counted from it).
 */
function mediaSource(b: MediaBlock): Record<string, unknown> {
  if (b.source === 'url') return { type: 'url', url: `https://example.invalid/${b.type}` };
  if (b.source === 'file') return { type: 'file', file_id: `file_${b.type}` };
  const media_type = mediaTypeOf(b);
  if (b.bytes === undefined) return { type: 'base64', media_type };
  return { type: 'base64', media_type, data: base64StandIn(b.bytes) };
}

/** Render a normalised block as an Anthropic content block (inverse of `anthropicBlock`). */
export function toAnthropicBlock(b: Block): unknown {
  switch (b.type) {
    case 'text':
      return { type: 'text', text: b.text };
    case 'image':
    case 'document':
      return { type: b.type, source: mediaSource(b) };
    case 'tool_use':
      return {
        type: b.server ? 'server_tool_use' : 'tool_use',
        id: b.id,
        name: b.name,
        input: b.input ?? {},
      };
    case 'tool_result':
      return {
        type: b.server ?? 'tool_result',
        tool_use_id: b.toolUseId,
        content:
          b.content.length === 1 && b.content[0]?.type === 'text'
            ? b.content[0].text
            : b.content.map(toAnthropicBlock),
        // After the content, where Claude Code and the API's examples write it.
        ...(b.isError ? { is_error: true } : b.isErrorFalse ? { is_error: false } : {}),
      };
    case 'thinking':
      return {
        type: 'thinking',
        thinking: b.thinking,
        ...(b.signature !== undefined ? { signature: b.signature } : {}),
      };
    case 'redacted_thinking':
      return { type: 'redacted_thinking', data: '' };
    case 'other':
      return b.raw;
  }
}

/** Render a message for an Anthropic request: its raw value when untouched, else from blocks. */
export function toAnthropicMessage(m: Message): unknown {
  if (m.raw !== undefined) return m.raw;
  const role =
    m.role === 'assistant'
      ? 'assistant'
      : m.role === 'system' || m.role === 'developer'
        ? 'system'
        : 'user';
  if (m.stringContent && m.blocks.length === 1 && m.blocks[0]?.type === 'text')
    return { role, content: m.blocks[0].text };
  return { role, content: m.blocks.map(toAnthropicBlock) };
}

/**
 * Write the transcript back as an Anthropic body: the messages (raw when untouched) in the
 * source's list, or a response object's `content`.
 */
export function write(t: Transcript): string {
  if (t.listKey === 'content') {
    const m = t.messages[0];
    const content = m
      ? m.raw !== undefined && typeof m.raw === 'object' && m.raw !== null
        ? (m.raw as { content?: unknown }).content
        : m.blocks.map(toAnthropicBlock)
      : [];
    return JSON.stringify({ ...(t.raw as object), content }, null, 2);
  }
  return JSON.stringify(withList(t.raw, 'messages', t.messages.map(toAnthropicMessage)), null, 2);
}
