/**
 * Gemini Interactions API: an `Interaction` (`{id, status, model, steps[], usage}`), a create
 * body (`{model, input: Step[], system_instruction?, tools?, previous_interaction_id?}`), or a
 * bare step array. Source of the shape: js-genai `interactions` types and samples
 * (docs/formats.md#gemini-interactions).
 *
 * One normalised message per step (rawIndex = step index, path `steps.N` / `input.N`), as the
 * Responses parser does per item: `user_input` → user; `model_output` → assistant text;
 * `thought` → assistant thinking (summary text, `signature` kept as given: an empty one is what
 * breaks a tool continuation, js-genai#1735); `function_call` → assistant tool_use (id = `id`,
 * signature its own or its turn's thought signature); `function_result` → tool message with a
 * tool_result (`call_id`); server-tool pairs (`google_search_call` / `google_search_result`, …)
 * → server tool_use / tool_result by `call_id`. Media data is counted in bytes, never as text.
 */
import type {
  Block,
  Message,
  Result,
  Role,
  ToolDef,
  Transcript,
  UsageRecord,
} from '../../types.ts';
import { writeInteractions } from './geminiInteractionsWrite.ts';
import type { FormatParser } from '../registry.ts';
import {
  arr,
  base64Bytes,
  isObject,
  jsonDocumentOnly,
  notAnObject,
  shapeError,
  str,
  type Json,
} from '../util.ts';

/** Step types of the Interactions API that no other format uses. */
const OWN_STEPS = new Set(['user_input', 'model_output', 'function_result', 'thought']);
/** Server tools whose call and result are two steps, `<name>_call` and `<name>_result`. */
const SERVER_TOOLS = [
  'google_search',
  'code_execution',
  'url_context',
  'file_search',
  'google_maps',
  'mcp_server_tool',
];
const SERVER_CALLS = new Map(SERVER_TOOLS.map((n) => [`${n}_call`, n]));
const SERVER_RESULTS = new Map(SERVER_TOOLS.map((n) => [`${n}_result`, n]));

/** The step list of a value and its key, or null. */
function stepsOf(v: unknown): { key: string; list: unknown[] } | null {
  if (Array.isArray(v)) return { key: '', list: v };
  if (!isObject(v)) return null;
  if (Array.isArray(v.steps)) return { key: 'steps', list: v.steps };
  if (Array.isArray(v.input)) return { key: 'input', list: v.input };
  // `input` may be a plain string: one user turn.
  if (typeof v.input === 'string')
    return { key: 'input', list: [{ type: 'user_input', content: v.input }] };
  return null;
}

function sniff(v: unknown): number {
  const found = stepsOf(v);
  if (
    !found ||
    found.list.length === 0 ||
    (isObject(v) && !Array.isArray(v.input) && !Array.isArray(v.steps))
  )
    return 0;
  // One pass, no array of types: this sniffer runs on every Responses body a check reads.
  let own = false;
  for (const s of found.list) {
    const t = isObject(s) ? str(s.type) : undefined;
    if (t === undefined) continue;
    // OpenAI Responses items never appear in Interactions steps.
    if (t === 'message' || t === 'function_call_output' || t === 'reasoning') return 0;
    if (OWN_STEPS.has(t) || SERVER_RESULTS.has(t)) own = true;
  }
  return !own ? 0 : found.key === 'steps' ? 0.95 : 0.9;
}

/** A content item (`text`, `image`, `audio`, `video`, `document`) as a block. */
function contentBlock(c: unknown): Block {
  if (!isObject(c)) return { type: 'other', label: typeof c, raw: c };
  if (c.type === 'text' && typeof c.text === 'string') return { type: 'text', text: c.text };
  if (c.type === 'image' || c.type === 'document' || c.type === 'audio' || c.type === 'video') {
    const bytes = base64Bytes(c.data);
    const mediaType = str(c.mime_type);
    return {
      type: c.type === 'image' ? 'image' : 'document',
      ...(mediaType !== undefined ? { mediaType } : {}),
      ...(bytes !== undefined ? { bytes } : {}),
    };
  }
  return { type: 'other', label: str(c.type) ?? 'content', raw: c };
}

function contentBlocks(v: unknown): Block[] {
  if (typeof v === 'string') return [{ type: 'text', text: v }];
  return (arr(v) ?? (v === undefined ? [] : [v])).map(contentBlock);
}

/** A result (`string | object | content[]`) as the tool_result's content. */
function resultBlocks(r: unknown): Block[] {
  if (typeof r === 'string') return [{ type: 'text', text: r }];
  if (Array.isArray(r)) return r.map(contentBlock);
  return r === undefined ? [] : [{ type: 'text', text: JSON.stringify(r) }];
}

function thoughtText(step: Json): string {
  return contentBlocks(step.summary)
    .map((b) => (b.type === 'text' ? b.text : ''))
    .join('\n');
}

/** The blocks and role of one step; `turnSignature` is the last thought signature of the turn. */
function stepMessage(s: Json, turnSignature: string | undefined): { role: Role; blocks: Block[] } {
  const type = str(s.type) ?? '';
  switch (type) {
    case 'user_input':
      return { role: 'user', blocks: contentBlocks(s.content) };
    case 'model_output':
      return { role: 'assistant', blocks: contentBlocks(s.content) };
    case 'thought': {
      const signature = str(s.signature);
      return {
        role: 'assistant',
        blocks: [
          {
            type: 'thinking',
            thinking: thoughtText(s),
            ...(signature !== undefined ? { signature } : {}),
          },
        ],
      };
    }
    case 'function_call': {
      const signature = str(s.signature) ?? turnSignature;
      return {
        role: 'assistant',
        blocks: [
          {
            type: 'tool_use',
            id: str(s.id) ?? null,
            name: str(s.name) ?? '',
            input: s.arguments ?? {},
            ...(signature ? { signature } : {}),
          },
        ],
      };
    }
    case 'function_result': {
      const name = str(s.name);
      return {
        role: 'tool',
        blocks: [
          {
            type: 'tool_result',
            toolUseId: str(s.call_id) ?? null,
            isError: s.is_error === true,
            content: resultBlocks(s.result),
            ...(name !== undefined ? { name } : {}),
          },
        ],
      };
    }
  }
  const server = SERVER_CALLS.get(type);
  if (server !== undefined)
    return {
      role: 'assistant',
      blocks: [
        {
          type: 'tool_use',
          id: str(s.id) ?? null,
          name: str(s.name) ?? server,
          input: s.arguments ?? {},
          server: true,
        },
      ],
    };
  if (SERVER_RESULTS.has(type))
    return {
      role: 'assistant',
      blocks: [
        {
          type: 'tool_result',
          toolUseId: str(s.call_id) ?? null,
          isError: s.is_error === true,
          content: resultBlocks(s.result),
          server: type,
        },
      ],
    };
  return { role: 'assistant', blocks: [{ type: 'other', label: type || 'step', raw: s }] };
}

/**
 * One message per step, except that a server tool's result step joins the message of its call
 * step right before it: server tools are paired inside one assistant turn (as Responses
 * `web_search_call` items carry call and result together).
 */
function messagesOf(list: unknown[], key: string): Message[] {
  let turnSignature: string | undefined;
  const out: Message[] = [];
  list.forEach((s, i) => {
    const path = key ? `${key}.${i}` : String(i);
    if (!isObject(s)) {
      out.push(notAnObject(s, path, out.length, i));
      return;
    }
    if (s.type === 'user_input' || s.type === 'function_result') turnSignature = undefined;
    if (s.type === 'thought') turnSignature = str(s.signature) || undefined;
    const { role, blocks } = stepMessage(s, turnSignature);
    const prev = out[out.length - 1];
    const call = prev?.blocks[0];
    if (
      SERVER_RESULTS.has(str(s.type) ?? '') &&
      prev?.blocks.length === 1 &&
      call?.type === 'tool_use' &&
      call.server === true &&
      call.id !== null &&
      call.id === s.call_id
    ) {
      prev.blocks.push(...blocks);
      prev.raw = [prev.raw, s];
      prev.path = `${prev.path}–${i}`;
      return;
    }
    const id = str(s.id);
    out.push({
      index: out.length,
      rawIndex: i,
      path,
      role,
      blocks,
      raw: s,
      ...(id ? { meta: { sourceId: id } } : {}),
    });
  });
  return out;
}

function usageOf(u: unknown, messages: Message[]): UsageRecord[] {
  if (!isObject(u)) return [];
  const n = (k: string) => (typeof u[k] === 'number' ? u[k] : undefined);
  const rec: UsageRecord = {};
  let last = -1;
  for (const m of messages) if (m.role === 'assistant') last = m.index;
  if (last >= 0) rec.messageIndex = last;
  const input = n('total_input_tokens');
  const output = n('total_output_tokens');
  const cached = n('total_cached_tokens');
  const thought = n('total_thought_tokens');
  if (input !== undefined) rec.inputTokens = input;
  if (output !== undefined) rec.outputTokens = output;
  if (cached !== undefined) rec.cacheReadTokens = cached;
  if (thought !== undefined) rec.reasoningTokens = thought;
  return [rec];
}

function toolsOf(v: unknown): ToolDef[] | null {
  const list = arr(v);
  if (!list) return null;
  return list.filter(isObject).map((t) => ({
    name: str(t.name) ?? str(t.type) ?? '',
    ...(str(t.description) !== undefined ? { description: str(t.description) as string } : {}),
    ...(t.parameters !== undefined ? { schema: t.parameters } : {}),
  }));
}

function parse(v: unknown): Result<Transcript> {
  const found = stepsOf(v);
  if (!found)
    return shapeError(
      'Expected a Gemini Interaction: an object with `steps` (or a create body with `input`) listing typed steps.',
    );
  const messages = messagesOf(found.list, found.key);
  const o: Json = isObject(v) ? v : {};
  const warnings: string[] = [];
  if (typeof o.previous_interaction_id === 'string')
    warnings.push(
      `This request continues interaction ${o.previous_interaction_id}: the earlier steps are kept by the server and are not shown.`,
    );
  const sys = o.system_instruction;
  const system =
    typeof sys === 'string'
      ? [{ text: sys, path: 'system_instruction' }]
      : contentBlocks(sys).flatMap((b) =>
          b.type === 'text' ? [{ text: b.text, path: 'system_instruction' }] : [],
        );
  const model = str(o.model);
  return {
    ok: true,
    value: {
      format: 'gemini-interactions',
      system,
      tools: toolsOf(o.tools),
      settings: model !== undefined ? { model } : {},
      usage: usageOf(o.usage, messages),
      messages,
      warnings,
      listKey: found.key || 'steps',
      raw: v,
    },
  };
}

export const geminiInteractionsParser: FormatParser = {
  id: 'gemini-interactions',
  label: 'Gemini Interactions',
  provider: 'gemini',
  category: 'request',
  resultStyle: 'tool',
  // Interactions steps.
  blockWords: { call: 'function_call', result: 'function_result' },
  expected:
    'an Interaction with `steps` (or a create body with `input`): typed steps `user_input`, `model_output`, `thought`, `function_call`, `function_result` (by `call_id`), `google_search_call` / `_result`, …',
  sniff,
  parse: jsonDocumentOnly(parse, 'A Gemini Interaction is a JSON document, not JSON Lines.'),
  write: writeInteractions,
};
