/**
 * Writing Gemini Interactions steps back (export, repair, structure-only copy): see
 * `writeInteractions`. Reading is in geminiInteractions.ts.
 */
import type { Block, MediaBlock, Role, Transcript } from '../../types.ts';
import { base64StandIn, isMedia, isObject, type Json, mediaTypeOf } from '../util.ts';

const isContent = (b: Block): b is Block & { type: 'text' | 'image' | 'document' } =>
  b.type === 'text' || b.type === 'image' || b.type === 'document';

/**
 * A media block as a content item: its kind from the media type (`audio/…`, `video/…`, else
 * `document`; `image`), with a stand-in payload of its size, or a stand-in `uri` when its size
 * is unknown (the writer holds no payload).
 */
function mediaItem(b: MediaBlock): Json {
  const mime = mediaTypeOf(b);
  const kind = b.type === 'image' ? 'image' : (/^(audio|video)\//.exec(mime)?.[1] ?? 'document');
  return b.bytes === undefined
    ? { type: kind, uri: `https://example.invalid/${kind}`, mime_type: mime }
    : { type: kind, data: base64StandIn(b.bytes), mime_type: mime };
}

/** Text and media blocks as content items (anything else as JSON text). */
function contentItems(blocks: Block[]): Json[] {
  return blocks.map((x) =>
    x.type === 'text'
      ? { type: 'text', text: x.text }
      : isMedia(x)
        ? mediaItem(x)
        : { type: 'text', text: JSON.stringify(x) },
  );
}

/** A tool result's `result`: its texts joined, or content items when it holds media. */
function resultOf(content: Block[]): unknown {
  if (content.some(isMedia)) return contentItems(content);
  return content.map((x) => (x.type === 'text' ? x.text : JSON.stringify(x))).join('\n');
}

/**
 * A block of a new or changed message as an Interactions step (text and media go through
 * `contentStep`).
 * @param callType for a server tool_use, its step type as its result says it
 *   (`google_search_result` → `google_search_call`): a redacted name no longer does
 */
function stepOf(b: Block, role: Role, callType?: string): Json {
  switch (b.type) {
    case 'tool_use':
      return b.server
        ? {
            type: callType ?? `${b.name}_call`,
            id: b.id,
            // A name the type does not say (hidden by redaction) is kept beside it.
            ...(callType !== undefined && callType !== `${b.name}_call` ? { name: b.name } : {}),
            arguments: b.input,
          }
        : { type: 'function_call', id: b.id, name: b.name, arguments: b.input };
    case 'tool_result':
      if (b.server !== undefined)
        return { type: b.server, call_id: b.toolUseId, result: resultOf(b.content) };
      return {
        type: 'function_result',
        call_id: b.toolUseId,
        ...(b.name !== undefined ? { name: b.name } : {}),
        result: resultOf(b.content),
        ...(b.isError ? { is_error: true } : {}),
      };
    case 'thinking':
      return {
        type: 'thought',
        summary: [{ type: 'text', text: b.thinking }],
        ...(b.signature !== undefined ? { signature: b.signature } : {}),
      };
    case 'other':
      return isObject(b.raw) ? b.raw : { type: b.label };
    default:
      return contentStep([], role);
  }
}

/** A `user_input` (or, for the assistant, `model_output`) step of content items. */
function contentStep(blocks: Block[], role: Role): Json {
  return {
    type: role === 'assistant' ? 'model_output' : 'user_input',
    content: contentItems(blocks),
  };
}

/** A message's blocks as steps: each run of text and media is one content step. */
function stepsOf(blocks: Block[], role: Role, callType: string | undefined): Json[] {
  const out: Json[] = [];
  let run: Block[] = [];
  for (const b of blocks) {
    if (isContent(b)) {
      run.push(b);
      continue;
    }
    if (run.length > 0) out.push(contentStep(run, role));
    run = [];
    out.push(stepOf(b, role, callType));
  }
  if (run.length > 0) out.push(contentStep(run, role));
  return out;
}

/**
 * Write the steps back (export, repair): an untouched message as its step(s), a new or changed
 * one rendered from its blocks (each run of text and media one content step, any other block
 * one step). Other top-level fields (`model`, `system_instruction`, …) are kept.
 * @returns the Interaction (or create body, or bare step list) as pretty-printed JSON text
 */
export function writeInteractions(t: Transcript): string {
  const steps = t.messages.flatMap((m) => {
    if (m.raw !== undefined) return Array.isArray(m.raw) ? (m.raw as unknown[]) : [m.raw];
    const result = m.blocks.find((b) => b.type === 'tool_result' && b.server !== undefined);
    const callType =
      result?.type === 'tool_result' ? result.server?.replace(/_result$/, '_call') : undefined;
    return stepsOf(m.blocks, m.role, callType);
  });
  const raw = t.raw;
  if (Array.isArray(raw)) return JSON.stringify(steps, null, 2);
  const body: Json = isObject(raw) ? { ...raw } : {};
  if (typeof body.input === 'string') delete body.input;
  // An Interaction lists `steps` (a create body `input`); a transcript from another format
  // carries its own list key (`messages`), which this format does not read.
  body[t.listKey === 'input' ? 'input' : 'steps'] = steps;
  return JSON.stringify(body, null, 2);
}
