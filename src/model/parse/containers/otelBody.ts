/**
 * A call's semconv context rebuilt as the request body its provider received: Anthropic
 * Messages, OpenAI Chat Completions, Gemini `generateContent` or Bedrock Converse, so the
 * provider's own parser and rules judge it (GenAI semconv: `tool_call_response.id` →
 * `tool_call.id`; role `tool` is how instrumentations record results for every provider).
 *
 * What a trace does not keep is not invented: reasoning parts carry no signature in any
 * instrumentation, so for Anthropic and Bedrock they are kept as `reasoning` blocks (shown, not
 * judged by the signature rules T5/T6) and a Gemini body carries no `model` (as on the wire,
 * where the model is in the URL), so G4 (thought signatures) is not judged either.
 */
import type { FormatId } from '../../types.ts';
import { isObject, parseArguments, str, type Json } from '../util.ts';
import type { CallContext, SemMessage } from './otelContext.ts';

/** The request formats a span's context is rebuilt as. */
export type BodyFormat = Extract<
  FormatId,
  'anthropic-messages' | 'openai-chat' | 'gemini' | 'bedrock-converse'
>;

/**
 * The request format of a provider as the span names it.
 * @param provider `gen_ai.provider.name` (or the older `gen_ai.system`): `anthropic`,
 *   `aws.bedrock`, `gcp.gemini`, `gcp.vertex_ai`, `openai`, `azure.ai.openai`, …
 * @param model the request or response model, used when the provider is missing or a
 *   platform that serves several families (Vertex AI serves Claude too)
 */
export function bodyFormatOf(provider: string | undefined, model: string | undefined): BodyFormat {
  const p = (provider ?? '').toLowerCase();
  const m = (model ?? '').toLowerCase();
  if (p === 'aws.bedrock' || p === 'bedrock') return 'bedrock-converse';
  if (p === 'anthropic' || m.includes('claude')) return 'anthropic-messages';
  if (/^(gcp\.|google|gemini|vertex)/.test(p) || (p === '' && m.includes('gemini')))
    return 'gemini';
  return 'openai-chat';
}

/** A tool result's content as text (semconv `response` is any JSON value). */
function responseText(r: unknown): string {
  return typeof r === 'string' ? r : JSON.stringify(r ?? null);
}

function textOf(parts: Json[]): string {
  return parts
    .filter((p) => p.type === 'text')
    .map((p) => str(p.content) ?? '')
    .join('\n');
}

/** Call id → tool name, over every message (results need the name in Gemini). */
function callNames(ctx: CallContext): Map<string, string> {
  const names = new Map<string, string>();
  for (const m of [...ctx.input, ...ctx.output])
    for (const p of m.parts)
      if ((p.type === 'tool_call' || p.type === 'server_tool_call') && typeof p.id === 'string')
        names.set(p.id, str(p.name) ?? '');
  return names;
}

function mediaType(p: Json): string | undefined {
  return str(p.mime_type) ?? str(p.mimeType);
}

function anthropicBlock(p: Json, names: Map<string, string>): Json {
  switch (p.type) {
    case 'text':
      return { type: 'text', text: str(p.content) ?? '' };
    case 'tool_call':
      return { type: 'tool_use', id: p.id, name: p.name, input: parseArguments(p.arguments) ?? {} };
    case 'tool_call_response':
      return {
        type: 'tool_result',
        tool_use_id: p.id,
        content: responseText(p.response),
        ...(p.is_error === true ? { is_error: true } : {}),
      };
    case 'server_tool_call':
      return { type: 'server_tool_use', id: p.id, name: p.name, input: p.server_tool_call ?? {} };
    case 'server_tool_call_response': {
      const name = typeof p.id === 'string' ? names.get(p.id) : undefined;
      return {
        type: `${name ?? 'server'}_tool_result`,
        tool_use_id: p.id,
        content: p.server_tool_call_response,
      };
    }
    case 'blob': {
      const mt = mediaType(p);
      const kind = p.modality === 'image' || mt?.startsWith('image/') ? 'image' : 'document';
      return { type: kind, source: { type: 'base64', media_type: mt, data: p.content } };
    }
    case 'uri':
      return {
        type: p.modality === 'image' ? 'image' : 'document',
        source: { type: 'url', url: p.uri },
      };
    default:
      return p; // reasoning (no signature recorded), file, unknown: shown as recorded
  }
}

function openaiPart(p: Json): Json {
  if (p.type === 'text') return { type: 'text', text: str(p.content) ?? '' };
  if (p.type === 'blob')
    return {
      type: 'image_url',
      image_url: { url: `data:${mediaType(p) ?? ''};base64,${str(p.content) ?? ''}` },
    };
  if (p.type === 'uri') return { type: 'image_url', image_url: { url: p.uri } };
  return p;
}

function geminiPart(p: Json, names: Map<string, string>): Json {
  switch (p.type) {
    case 'text':
      return { text: str(p.content) ?? '' };
    case 'reasoning':
      return { text: str(p.content) ?? '', thought: true };
    case 'tool_call':
      return {
        functionCall: {
          ...(p.id !== undefined ? { id: p.id } : {}),
          name: p.name,
          args: parseArguments(p.arguments) ?? {},
        },
      };
    case 'tool_call_response': {
      const r = p.response;
      return {
        functionResponse: {
          ...(p.id !== undefined ? { id: p.id } : {}),
          name: (typeof p.id === 'string' ? names.get(p.id) : undefined) ?? '',
          response: isObject(r) ? r : { output: r },
        },
      };
    }
    case 'blob':
      return { inlineData: { mimeType: mediaType(p), data: p.content } };
    case 'uri':
      return { fileData: { mimeType: mediaType(p), fileUri: p.uri } };
    default:
      return p;
  }
}

function bedrockBlock(p: Json): Json {
  switch (p.type) {
    case 'text':
      return { text: str(p.content) ?? '' };
    case 'tool_call':
      return {
        toolUse: { toolUseId: p.id, name: p.name, input: parseArguments(p.arguments) ?? {} },
      };
    case 'tool_call_response': {
      const r = p.response;
      return {
        toolResult: {
          toolUseId: p.id,
          content: [isObject(r) ? { json: r } : { text: responseText(r) }],
          ...(p.is_error === true ? { status: 'error' } : {}),
        },
      };
    }
    case 'blob':
      return {
        image: {
          format: (mediaType(p) ?? 'image/png').split('/')[1],
          source: { bytes: p.content },
        },
      };
    default:
      return p;
  }
}

/**
 * Messages in the provider's roles: `system` goes to the system prompt, `tool` becomes `user`,
 * and consecutive `tool` messages (instrumentations write one per result) form one user turn,
 * as the request had them. OpenAI Chat keeps `tool` messages, one per result.
 */
function turns(input: SemMessage[]): { system: Json[]; list: { role: string; parts: Json[] }[] } {
  const system: Json[] = [];
  const list: { role: string; parts: Json[]; tool?: boolean }[] = [];
  for (const m of input) {
    if (m.role === 'system' || m.role === 'developer') {
      system.push(...m.parts);
      continue;
    }
    const last = list[list.length - 1];
    if (m.role === 'tool' && last?.tool === true) last.parts.push(...m.parts);
    else
      list.push({
        role: m.role === 'tool' ? 'user' : m.role,
        parts: [...m.parts],
        tool: m.role === 'tool',
      });
  }
  return { system, list: list.map(({ role, parts }) => ({ role, parts })) };
}

function anthropicBody(ctx: CallContext, msgs: SemMessage[], settings: Json): Json {
  const names = callNames(ctx);
  const { system, list } = turns(msgs);
  const sys = [...ctx.system, ...system].filter((p) => p.type === 'text');
  return {
    ...(settings.model !== undefined ? { model: settings.model } : {}),
    ...(settings.maxTokens !== undefined ? { max_tokens: settings.maxTokens } : {}),
    ...(sys.length > 0
      ? { system: sys.map((p) => ({ type: 'text', text: str(p.content) ?? '' })) }
      : {}),
    ...(ctx.tools
      ? {
          tools: ctx.tools.map((t) => ({
            name: t.name,
            description: t.description,
            input_schema: t.parameters ?? {},
          })),
        }
      : {}),
    messages: list.map((m) => ({
      role: m.role,
      content: m.parts.map((p) => anthropicBlock(p, names)),
    })),
  };
}

/** One semconv message as OpenAI Chat messages: tool results first as `tool` messages. */
function openaiMessages(m: SemMessage): Json[] {
  const out: Json[] = [];
  const rest: Json[] = [];
  for (const p of m.parts) {
    if (p.type === 'tool_call_response')
      out.push({ role: 'tool', tool_call_id: p.id, content: responseText(p.response) });
    else rest.push(p);
  }
  if (m.role === 'tool' && rest.length === 0) return out;
  const calls = rest.filter((p) => p.type === 'tool_call');
  const reasoning = rest.filter((p) => p.type === 'reasoning');
  const content = rest.filter((p) => p.type !== 'tool_call' && p.type !== 'reasoning');
  if (m.role === 'tool' || (out.length > 0 && content.length === 0 && calls.length === 0))
    return out;
  const allText = content.every((p) => p.type === 'text');
  const msg: Json = {
    role: m.role === 'tool' ? 'user' : m.role,
    content:
      content.length === 0
        ? m.role === 'assistant'
          ? null
          : ''
        : allText
          ? textOf(content)
          : content.map(openaiPart),
  };
  if (calls.length > 0)
    msg.tool_calls = calls.map((c) => ({
      id: c.id,
      type: 'function',
      function: {
        name: c.name,
        arguments:
          typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments ?? {}),
      },
    }));
  if (reasoning.length > 0)
    msg.reasoning_content = textOf(reasoning.map((p) => ({ ...p, type: 'text' })));
  return [...out, msg];
}

function openaiBody(ctx: CallContext, msgs: SemMessage[], settings: Json): Json {
  const sys = textOf(ctx.system);
  return {
    ...(settings.model !== undefined ? { model: settings.model } : {}),
    ...(ctx.tools ? { tools: ctx.tools.map((t) => ({ type: 'function', function: t })) } : {}),
    messages: [
      ...(sys !== '' ? [{ role: 'system', content: sys }] : []),
      ...msgs.flatMap(openaiMessages),
    ],
  };
}

function geminiBody(ctx: CallContext, msgs: SemMessage[]): Json {
  const names = callNames(ctx);
  const { system, list } = turns(msgs);
  const sys = [...ctx.system, ...system].filter((p) => p.type === 'text');
  return {
    ...(sys.length > 0
      ? { systemInstruction: { parts: sys.map((p) => ({ text: str(p.content) ?? '' })) } }
      : {}),
    ...(ctx.tools ? { tools: [{ functionDeclarations: ctx.tools }] } : {}),
    contents: list.map((m) => ({
      role: m.role === 'assistant' ? 'model' : m.role,
      parts: m.parts.map((p) => geminiPart(p, names)),
    })),
  };
}

function bedrockBody(ctx: CallContext, msgs: SemMessage[], settings: Json): Json {
  const { system, list } = turns(msgs);
  const sys = [...ctx.system, ...system].filter((p) => p.type === 'text');
  return {
    ...(settings.model !== undefined ? { modelId: settings.model } : {}),
    ...(sys.length > 0 ? { system: sys.map((p) => ({ text: str(p.content) ?? '' })) } : {}),
    ...(ctx.tools
      ? {
          toolConfig: {
            tools: ctx.tools.map((t) => ({
              toolSpec: {
                name: t.name,
                description: t.description,
                inputSchema: { json: t.parameters ?? {} },
              },
            })),
          },
        }
      : {}),
    messages: list.map((m) => ({ role: m.role, content: m.parts.map(bedrockBlock) })),
  };
}

/**
 * The request body of a call as it was sent: its input messages, never its output (the answer
 * the request got back).
 * @param ctx the call's context (system parts, input and output messages, tools)
 * @param format the provider's request format (`bodyFormatOf`)
 * @param settings `model` and `maxTokens` from the span's request attributes
 * @returns a JSON body the provider's parser reads
 */
export function buildBody(
  ctx: CallContext,
  format: BodyFormat,
  settings: { model?: string; maxTokens?: number },
): Json {
  const msgs = ctx.input;
  const s = settings as Json;
  switch (format) {
    case 'anthropic-messages':
      return anthropicBody(ctx, msgs, s);
    case 'openai-chat':
      return openaiBody(ctx, msgs, s);
    case 'gemini':
      return geminiBody(ctx, msgs);
    case 'bedrock-converse':
      return bedrockBody(ctx, msgs, s);
  }
}
