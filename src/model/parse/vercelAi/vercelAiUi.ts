/**
 * Reading AI SDK `UIMessage`s (what `useChat` persists): `{id, role, parts}`, a tool part holding
 * the call and its result together; v4 `tool-invocation` parts are read too. See vercelAi.ts.
 */
import type { Block, Message, Role } from '../../types.ts';
import { arr, isObject, type Json, str } from '../util.ts';
import { notAnObject } from '../util.ts';
import { outputBlocks, ROLES } from './vercelAiModel.ts';

interface ToolPart {
  id: string | null;
  name: string;
  state: string;
  input: unknown;
  output: unknown;
  errorText: string | undefined;
  providerExecuted: boolean;
  legacy: boolean;
}

function toolPart(p: Json): ToolPart | null {
  const t = str(p.type) ?? '';
  if (t === 'tool-invocation' && isObject(p.toolInvocation)) {
    const ti = p.toolInvocation;
    return {
      id: str(ti.toolCallId) ?? null,
      name: str(ti.toolName) ?? '',
      state: ti.state === 'result' ? 'output-available' : 'input-available',
      input: ti.args,
      output: ti.result,
      errorText: undefined,
      providerExecuted: false,
      legacy: true,
    };
  }
  if (t === 'dynamic-tool' || (t.startsWith('tool-') && t !== 'tool-invocation')) {
    return {
      id: str(p.toolCallId) ?? null,
      name: t === 'dynamic-tool' ? (str(p.toolName) ?? '') : t.slice(5),
      state: str(p.state) ?? 'input-available',
      input: p.input,
      output: p.output,
      errorText: str(p.errorText),
      providerExecuted: p.providerExecuted === true,
      legacy: false,
    };
  }
  return null;
}

/**
 * The result a tool part holds, as a tool_result block: its output, its error text, or the
 * denial; null while the part has no output yet.
 */
function toolPartResult(t: ToolPart): Block | null {
  if (t.state !== 'output-available' && t.state !== 'output-error' && t.state !== 'output-denied')
    return null;
  const { blocks, isError } =
    t.state === 'output-error'
      ? { blocks: [{ type: 'text' as const, text: t.errorText ?? '' }], isError: true }
      : t.state === 'output-denied'
        ? {
            blocks: [{ type: 'text' as const, text: 'Tool execution denied.' }],
            isError: true,
          }
        : outputBlocks(t.output, true);
  return {
    type: 'tool_result',
    toolUseId: t.id,
    isError,
    content: blocks,
    name: t.name,
    ...(t.providerExecuted ? { server: 'tool-result' } : {}),
  };
}

/**
 * The blocks of a user or system UIMessage: text, files, other parts as they are; `data-*` and
 * `source-*` parts are UI-only (not sent); a message with no parts falls back to its `content`.
 */
function nonAssistantBlocks(m: Json, parts: unknown[]): Block[] {
  const blocks: Block[] = [];
  for (const p of parts) {
    if (!isObject(p)) continue;
    if (p.type === 'text') blocks.push({ type: 'text', text: str(p.text) ?? '' });
    else if (p.type === 'file')
      blocks.push({
        type: str(p.mediaType)?.startsWith('image/') ? 'image' : 'document',
        ...(str(p.mediaType) ? { mediaType: str(p.mediaType) as string } : {}),
      });
    else if (
      typeof p.type === 'string' &&
      (p.type.startsWith('data-') || p.type.startsWith('source-'))
    )
      continue;
    else blocks.push({ type: 'other', label: str(p.type) ?? 'part', raw: p });
  }
  if (blocks.length === 0 && typeof m.content === 'string')
    blocks.push({ type: 'text', text: m.content });
  return blocks;
}

/** Split one UIMessage into model messages (steps), as `convertToModelMessages` does. */
export function uiMessages(m: unknown, i: number, start: number): Message[] {
  const path = `messages.${i}`;
  if (!isObject(m)) return [notAnObject(m, path, start, i)];
  const role = ROLES.get(str(m.role) ?? '') ?? 'user';
  const parts = arr(m.parts) ?? [];
  const id = str(m.id);
  const meta = id ? { sourceId: id } : undefined;
  const out: Message[] = [];
  const push = (r: Role, blocks: Block[], p: string) =>
    out.push({
      index: start + out.length,
      rawIndex: i,
      path: p,
      role: r,
      blocks,
      raw: m,
      ...(meta ? { meta: { ...meta } } : {}),
    });
  if (role !== 'assistant') {
    push(role, nonAssistantBlocks(m, parts), path);
    return out;
  }
  let calls: Block[] = [];
  let results: Block[] = [];
  let stepIndex = 0;
  const flush = () => {
    if (calls.length > 0)
      push('assistant', calls, stepIndex === 0 ? path : `${path}.parts.${stepIndex}`);
    if (results.length > 0) push('tool', results, `${path}.parts.${stepIndex}`);
    calls = [];
    results = [];
  };
  parts.forEach((p, k) => {
    if (!isObject(p)) return;
    if (p.type === 'step-start') {
      if (calls.length > 0 || results.length > 0) flush();
      stepIndex = k;
      return;
    }
    if (p.type === 'text') calls.push({ type: 'text', text: str(p.text) ?? '' });
    else if (p.type === 'reasoning')
      calls.push({ type: 'thinking', thinking: str(p.text) ?? str(p.reasoning) ?? '' });
    else if (p.type === 'file')
      calls.push({ type: str(p.mediaType)?.startsWith('image/') ? 'image' : 'document' });
    else {
      const t = toolPart(p);
      if (t) {
        if (t.state === 'input-streaming') return;
        calls.push({
          type: 'tool_use',
          id: t.id,
          name: t.name,
          input: t.input,
          ...(t.providerExecuted ? { server: true } : {}),
        });
        const result = toolPartResult(t);
        // A provider-executed tool's result stays in the assistant's message (server tool).
        if (result && t.providerExecuted) calls.push(result);
        else if (result) results.push(result);
      } else if (
        typeof p.type === 'string' &&
        !(p.type.startsWith('data-') || p.type.startsWith('source-'))
      )
        calls.push({ type: 'other', label: p.type, raw: p });
    }
  });
  flush();
  if (out.length === 0) push('assistant', [], path);
  return out;
}
