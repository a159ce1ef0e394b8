/**
 * Writing an AI SDK message list back: ModelMessages untouched from raw or rendered; UIMessages
 * from raw when whole, else their steps merged back into one UIMessage's parts.
 */
import type { Block, Message, Transcript } from '../../types.ts';
import { base64StandIn, isMedia, isObject, type Json, mediaTypeOf, withList } from '../util.ts';
import { listOf } from './vercelAiModel.ts';
import { uiMessages } from './vercelAiUi.ts';

/**
 * A tool_result's output: its texts as `text` (`error-text`), or, when it holds media, a
 * `content` list of texts and `media` parts with a stand-in payload of each one's size.
 */
function toolOutput(b: Extract<Block, { type: 'tool_result' }>): unknown {
  if (b.isError || !b.content.some(isMedia)) {
    const text = b.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
    return { type: b.isError ? 'error-text' : 'text', value: text };
  }
  const value = b.content.flatMap((c): Record<string, unknown>[] =>
    c.type === 'text'
      ? [{ type: 'text', text: c.text }]
      : isMedia(c)
        ? [
            c.bytes === undefined
              ? { type: 'media', mediaType: mediaTypeOf(c) }
              : { type: 'media', data: base64StandIn(c.bytes), mediaType: mediaTypeOf(c) },
          ]
        : [],
  );
  return { type: 'content', value };
}

/**
 * Render a changed or new message as ModelMessage(s). A user message carrying tool results
 * (Anthropic shape) becomes a `tool` message with the results, then a user message with the rest.
 */
function renderModelAll(m: Message): unknown[] {
  if (m.role !== 'user' || !m.blocks.some((b) => b.type === 'tool_result')) return [renderModel(m)];
  const rest = m.blocks.filter((b) => b.type !== 'tool_result');
  const out = [
    renderModel({
      ...m,
      role: 'tool',
      stringContent: false,
      blocks: m.blocks.filter((b) => b.type === 'tool_result'),
    }),
  ];
  if (rest.length > 0) out.push(renderModel({ ...m, stringContent: false, blocks: rest }));
  return out;
}

function renderModel(m: Message): unknown {
  if (m.stringContent && m.blocks.length === 1 && m.blocks[0]?.type === 'text')
    return { role: m.role === 'developer' ? 'system' : m.role, content: m.blocks[0].text };
  const content = m.blocks.map((b) => {
    switch (b.type) {
      case 'text':
        return { type: 'text', text: b.text };
      case 'thinking':
        return { type: 'reasoning', text: b.thinking };
      case 'tool_use':
        return {
          type: 'tool-call',
          toolCallId: b.id,
          toolName: b.name,
          input: b.input ?? {},
          ...(b.server ? { providerExecuted: true } : {}),
        };
      case 'tool_result':
        return {
          type: 'tool-result',
          toolCallId: b.toolUseId,
          toolName: b.name ?? '',
          output: toolOutput(b),
        };
      case 'other':
        return b.raw;
      default:
        return { type: 'text', text: '' };
    }
  });
  return { role: m.role === 'developer' ? 'system' : m.role, content };
}

/** Render the steps of one assistant UIMessage back into parts (calls merged with their results). */
function renderUi(group: Message[], base: Json): unknown {
  const parts: unknown[] = [];
  const results = new Map<string, Block>();
  for (const m of group)
    for (const b of m.blocks)
      if (b.type === 'tool_result' && b.toolUseId !== null) results.set(b.toolUseId, b);
  group.forEach((m, k) => {
    if (m.role === 'tool') return;
    if (k > 0 || group.length > 1) parts.push({ type: 'step-start' });
    for (const b of m.blocks) {
      if (b.type === 'text') parts.push({ type: 'text', text: b.text });
      else if (b.type === 'thinking') parts.push({ type: 'reasoning', text: b.thinking });
      else if (b.type === 'tool_use') {
        const r = b.id !== null ? results.get(b.id) : undefined;
        const text =
          r && r.type === 'tool_result'
            ? r.content.map((c) => (c.type === 'text' ? c.text : '')).join('')
            : '';
        const state = !r
          ? 'input-available'
          : r.type === 'tool_result' && r.isError
            ? 'output-error'
            : 'output-available';
        parts.push({
          type: `tool-${b.name}`,
          toolCallId: b.id,
          state,
          input: b.input,
          ...(state === 'output-available'
            ? { output: text }
            : state === 'output-error'
              ? { errorText: text }
              : {}),
        });
      } else if (b.type === 'other') parts.push(b.raw);
    }
  });
  return { ...base, parts };
}

/**
 * Write the list back. ModelMessages: untouched ones from raw, others rendered. UIMessages: a
 * UIMessage whose pieces are all present and untouched is written from raw; otherwise its
 * remaining pieces are merged back into one UIMessage's parts.
 */
export function write(t: Transcript): string {
  const src = listOf(t.raw) ?? [];
  const ui = src.some((m) => isObject(m) && Array.isArray(m.parts));
  if (!ui)
    return JSON.stringify(
      withList(
        t.raw,
        'messages',
        t.messages.flatMap((m) => (m.raw !== undefined ? [m.raw] : renderModelAll(m))),
      ),
      null,
      2,
    );
  const out: unknown[] = [];
  let k = 0;
  while (k < t.messages.length) {
    const m = t.messages[k] as Message;
    const group: Message[] = [m];
    const key = m.raw !== undefined ? m.raw : null;
    // The steps of one UIMessage: the same raw, or (rendered copies, raw undefined) the same
    // source position, so a redacted assistant turn keeps its results inside its tool parts.
    const sameUi = (n: Message): boolean =>
      key !== null
        ? n.raw === key
        : n.raw === undefined &&
          n.rawIndex === m.rawIndex &&
          (m.role === 'assistant' || m.role === 'tool') &&
          (n.role === 'assistant' || n.role === 'tool');
    while (k + group.length < t.messages.length && sameUi(t.messages[k + group.length] as Message))
      group.push(t.messages[k + group.length] as Message);
    k += group.length;
    const expected = key !== null ? uiMessages(key, 0, 0).length : -1;
    if (key !== null && expected === group.length) out.push(key);
    else if (m.role === 'assistant' || m.role === 'tool')
      out.push(renderUi(group, isObject(key) ? { ...key } : { role: 'assistant' }));
    else
      out.push({
        ...(isObject(key) ? key : {}),
        role: m.role === 'developer' ? 'system' : m.role,
        parts: m.blocks.map((b) =>
          b.type === 'text'
            ? { type: 'text', text: b.text }
            : b.type === 'other'
              ? b.raw
              : { type: 'text', text: '' },
        ),
      });
  }
  return JSON.stringify(withList(t.raw, 'messages', out), null, 2);
}
