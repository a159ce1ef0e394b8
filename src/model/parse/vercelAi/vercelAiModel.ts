/**
 * Reading AI SDK `ModelMessage`s (v5+; v4 `CoreMessage` with `args` / `result`) and the parts they
 * share with UIMessages: roles, tool outputs. See vercelAi.ts for the format as a whole.
 */
import type { Block, Message, Role } from '../../types.ts';
import { arr, base64Bytes, isObject, str } from '../util.ts';
import { notAnObject } from '../util.ts';
import { nameTable } from '../../own.ts';

/** The AI SDK's roles as ours. */
export const ROLES: ReadonlyMap<string, Role> = nameTable({
  system: 'system',
  user: 'user',
  assistant: 'assistant',
  tool: 'tool',
});

/** The message list of a document: the array itself, or its `messages`. */
export function listOf(v: unknown): unknown[] | undefined {
  if (Array.isArray(v)) return v;
  if (isObject(v)) return arr(v.messages);
  return undefined;
}

/**
 * A tool output as blocks: a v5 typed output (`{type: 'text' | 'json' | 'error-text' | …}`), or
 * (`legacy`, v4 and UIMessage outputs) any value as text.
 */
export function outputBlocks(o: unknown, legacy: boolean): { blocks: Block[]; isError: boolean } {
  if (legacy || !isObject(o) || typeof o.type !== 'string') {
    return {
      blocks:
        o === undefined
          ? []
          : [{ type: 'text', text: typeof o === 'string' ? o : (JSON.stringify(o) ?? '') }],
      isError: false,
    };
  }
  switch (o.type) {
    case 'text':
      return { blocks: [{ type: 'text', text: str(o.value) ?? '' }], isError: false };
    case 'error-text':
      return { blocks: [{ type: 'text', text: str(o.value) ?? '' }], isError: true };
    case 'json':
    case 'error-json':
      return {
        blocks: [{ type: 'text', text: JSON.stringify(o.value) ?? '' }],
        isError: o.type === 'error-json',
      };
    case 'execution-denied':
      return {
        blocks: [{ type: 'text', text: str(o.reason) ?? 'Tool execution denied.' }],
        isError: true,
      };
    case 'content':
      return {
        blocks: (arr(o.value) ?? []).map((c): Block => {
          if (isObject(c) && c.type === 'text') return { type: 'text', text: str(c.text) ?? '' };
          if (
            isObject(c) &&
            (c.type === 'media' || c.type === 'image-data' || c.type === 'file-data')
          ) {
            const bytes = base64Bytes(c.data);
            return {
              type:
                str(c.mediaType)?.startsWith('image/') || c.type === 'image-data'
                  ? 'image'
                  : 'document',
              ...(str(c.mediaType) ? { mediaType: str(c.mediaType) as string } : {}),
              ...(bytes !== undefined ? { bytes } : {}),
            };
          }
          return {
            type: 'other',
            label: isObject(c) ? (str(c.type) ?? 'content') : 'content',
            raw: c,
          };
        }),
        isError: false,
      };
    default:
      return { blocks: [{ type: 'other', label: o.type, raw: o }], isError: false };
  }
}

function modelPart(p: unknown): Block {
  if (typeof p === 'string') return { type: 'text', text: p };
  if (!isObject(p)) return { type: 'other', label: typeof p, raw: p };
  switch (p.type) {
    case 'text':
      return { type: 'text', text: str(p.text) ?? '' };
    case 'image':
    case 'file': {
      const data = p.type === 'image' ? p.image : p.data;
      const bytes =
        typeof data === 'string' && !/^https?:/.test(data) ? base64Bytes(data) : undefined;
      const mediaType = str(p.mediaType) ?? str(p.mimeType);
      return {
        type: p.type === 'image' || mediaType?.startsWith('image/') ? 'image' : 'document',
        ...(mediaType ? { mediaType } : {}),
        ...(bytes !== undefined ? { bytes } : {}),
      };
    }
    case 'reasoning':
      return { type: 'thinking', thinking: str(p.text) ?? '' };
    case 'redacted-reasoning':
      return { type: 'redacted_thinking', bytes: str(p.data)?.length ?? 0 };
    case 'tool-call':
      return {
        type: 'tool_use',
        id: str(p.toolCallId) ?? null,
        name: str(p.toolName) ?? '',
        input: 'input' in p ? p.input : p.args,
        ...(p.providerExecuted === true ? { server: true } : {}),
      };
    case 'tool-result': {
      const legacy = !('output' in p) && 'result' in p;
      const { blocks, isError } = outputBlocks(legacy ? p.result : p.output, legacy);
      return {
        type: 'tool_result',
        toolUseId: str(p.toolCallId) ?? null,
        isError: isError || p.isError === true,
        content: blocks,
        ...(str(p.toolName) ? { name: str(p.toolName) as string } : {}),
      };
    }
    default:
      return { type: 'other', label: str(p.type) ?? 'unknown', raw: p };
  }
}

/** One ModelMessage as our message (`messages.i`). */
export function modelMessage(m: unknown, i: number): Message {
  const path = `messages.${i}`;
  if (!isObject(m)) return notAnObject(m, path, i);
  const role = ROLES.get(str(m.role) ?? '') ?? 'user';
  const c = m.content;
  const stringContent = typeof c === 'string';
  let blocks = stringContent ? [{ type: 'text' as const, text: c }] : (arr(c) ?? []).map(modelPart);
  // A provider-executed result inside the assistant content answers a server call (Anthropic §1.3).
  if (role === 'assistant')
    blocks = blocks.map((b) => (b.type === 'tool_result' ? { ...b, server: 'tool-result' } : b));
  return {
    index: i,
    rawIndex: i,
    path,
    role,
    blocks,
    raw: m,
    ...(stringContent ? { stringContent } : {}),
  };
}
