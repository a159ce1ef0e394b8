/**
 * The top level of a structure-only copy: the source value around the messages (request
 * settings, system prompt, tool definitions, a log's other lines), redacted or rebuilt.
 */
import { ownRecord } from '../own.ts';
import { toOpenAIChatMessages } from '../parse/openaiChat/openaiChat.ts';
import type { Message, ToolDef, Transcript } from '../types.ts';
import type { Redactor } from './redactor.ts';
import { publicModel } from './renames.ts';
import { inVocabulary } from './vocabulary.ts';

/** Top-level request fields copied as they are: settings, never content. */
const SAFE_TOP_LEVEL = new Set([
  'max_tokens',
  'max_completion_tokens',
  'max_output_tokens',
  'temperature',
  'top_p',
  'top_k',
  'stream',
  'thinking',
  'anthropic_version',
  'reasoning_effort',
  'parallel_tool_calls',
  // Responses: `reasoning.effort` decides whether reasoning items are required (R3/R4).
  'reasoning',
  'store',
  'include',
  'truncation',

  'type',
  'role',
  'object',
  'stop_reason',
  'usage',
]);

/**
 * Top-level settings objects (Gemini `generationConfig`, Bedrock `inferenceConfig` and
 * `additionalModelRequestFields`, which carries Claude's `thinking`): kept as settings only.
 */
const SETTINGS_KEYS = new Set([
  'generationConfig',
  'generation_config',
  'inferenceConfig',
  'additionalModelRequestFields',
]);

/**
 * Top-level keys that hold the system prompt in the formats we read (Anthropic, Responses,
 * Gemini; a Gemini SDK body holds it in `config`).
 */
const SYSTEM_KEYS = new Set(['system', 'instructions', 'systemInstruction', 'system_instruction']);

/** Top-level keys holding tool definitions or the tool choice (names, descriptions, schemas). */
const TOOL_KEYS = new Set([
  'tools',
  'functions',
  'tool_choice',
  'function_call',
  'toolConfig',
  'tool_config',
]);

/**
 * A schema as shared: its root `type` kept (`object`, Gemini's `OBJECT`; `object` when it has
 * none), its properties dropped (their names are the tool's data). A Bedrock `inputSchema` is a
 * union (`{json: schema}`): the wrapper stays, or the copy is no longer a Converse tool spec.
 */
function schemaShell(v: unknown): unknown {
  const o =
    v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  if (!('type' in o) && 'json' in o) return { json: schemaShell(o.json) };
  return { type: typeof o.type === 'string' && inVocabulary(o.type) ? o.type : 'object' };
}

/** Keys whose string value in a tool definition or choice is a word of the API, kept. */
const TOOL_WORD_KEYS = new Set(['type', 'mode', 'syntax']);

/**
 * Tool definitions and tool choice as the source wrote them (Anthropic `tools[].input_schema`,
 * OpenAI `tools[].function.parameters`, Responses `tools[].parameters`, Gemini
 * `functionDeclarations[].parameters` / `parametersJsonSchema` and `allowedFunctionNames`, Bedrock
 * `toolConfig.tools[].toolSpec.inputSchema.json`): every key kept where it was, names mapped,
 * descriptions redacted, schemas reduced to their shell (`schemaShell`), other strings redacted,
 * modes and types kept.
 */
function toolish(r: Redactor, v: unknown, key?: string): unknown {
  if (typeof v === 'string') {
    if (key === 'name' || (key !== undefined && /names$/i.test(key))) return r.name(v);
    if ((key === undefined || TOOL_WORD_KEYS.has(key)) && inVocabulary(v)) return v;
    return r.text(v);
  }
  if (Array.isArray(v)) return v.map((x) => toolish(r, x, key));
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = ownRecord();
    for (const [k, x] of Object.entries(v as Record<string, unknown>))
      out[r.renames.key(k)] = /schema|^parameters$/i.test(k) ? schemaShell(x) : toolish(r, x, k);
    return out;
  }
  return v;
}

/**
 * A setting as shared (`max_tokens`, `thinking`, `reasoning`, `include`, `usage`, a response's
 * `type` and `stop_reason`): numbers and booleans as they are, a string only when it is a word of
 * the vocabulary (else a placeholder), keys outside the vocabulary renamed (issue 37).
 */
function settingValue(r: Redactor, v: unknown): unknown {
  if (typeof v === 'string') return inVocabulary(v) ? v : r.text(v);
  if (Array.isArray(v)) return v.map((x) => settingValue(r, x));
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = ownRecord();
    for (const [k, x] of Object.entries(v as Record<string, unknown>))
      out[r.renames.key(k)] = settingValue(r, x);
    return out;
  }
  return v;
}

/**
 * A settings object (Gemini `generationConfig`): numbers, booleans and enum-like strings
 * (MIME types, modes, levels) kept; schemas reduced to their shell; other strings redacted.
 */
function settingsOnly(r: Redactor, v: unknown, key?: string): unknown {
  if (typeof v === 'string')
    return key !== undefined && /mime|mode|type|level|effort/i.test(key) && inVocabulary(v)
      ? v
      : r.text(v);
  if (Array.isArray(v)) return v.map((x) => settingsOnly(r, x, key));
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = ownRecord();
    for (const [k, x] of Object.entries(v as Record<string, unknown>))
      out[r.renames.key(k)] = /schema/i.test(k) ? schemaShell(x) : settingsOnly(r, x, k);
    return out;
  }
  return v;
}

/**
 * A Gemini SDK body's `config` (system instruction, tools, tool config and generation settings
 * in one object): each part redacted as it would be at the top level.
 */
function geminiConfig(r: Redactor, v: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = ownRecord();
  for (const [k, x] of Object.entries(v))
    out[k] = SYSTEM_KEYS.has(k)
      ? r.json(x)
      : TOOL_KEYS.has(k)
        ? toolish(r, x)
        : settingsOnly(r, x, k);
  return out;
}

function anthropicTop(t: Transcript, system: Transcript['system'], tools: ToolDef[] | null) {
  const s = t.settings;
  // A bare array (settings say nothing, no system, no tools) stays a bare array.
  if (s.model === undefined && s.thinking === undefined && system.length === 0 && tools === null)
    return undefined;
  return {
    ...(s.model !== undefined ? { model: s.model } : {}),
    ...(s.thinking ? { thinking: { type: 'enabled' } } : {}),
    ...(system.length === 1 && system[0]?.path === 'system'
      ? { system: system[0].text }
      : system.length > 0
        ? { system: system.map((p) => ({ type: 'text', text: p.text })) }
        : {}),
    ...(tools !== null
      ? {
          tools: tools.map((d) => ({
            name: d.name,
            ...(d.description !== undefined ? { description: d.description } : {}),
            input_schema: { type: 'object' },
          })),
        }
      : {}),
    ...(s.toolChoiceForced ? { tool_choice: { type: 'any' } } : {}),
    ...(s.outputFormat ? { output_format: { type: 'json_schema' } } : {}),
    messages: [],
  };
}

function openaiChatTop(t: Transcript, tools: ToolDef[] | null) {
  const s = t.settings;
  if (s.model === undefined && tools === null && !s.toolChoiceForced && !s.outputFormat)
    return undefined;
  return {
    ...(s.model !== undefined ? { model: s.model } : {}),
    ...(tools !== null
      ? {
          tools: tools.map((d) => ({
            type: 'function',
            function: {
              name: d.name,
              ...(d.description !== undefined ? { description: d.description } : {}),
              parameters: { type: 'object' },
            },
          })),
        }
      : {}),
    ...(s.toolChoiceForced ? { tool_choice: 'required' } : {}),
    ...(s.outputFormat ? { response_format: { type: 'json_schema' } } : {}),
    messages: [],
  };
}

/**
 * The top level of a request body rebuilt from the normalised fields (already redacted), for a
 * transcript that has lost its source value (a spread copy of a streamed file's transcript, a
 * faulted or repaired copy made without it). Without it the writer emits a bare message array:
 * the model, thinking setting, tools and system prompt are gone, the token total drops by the
 * system prompt and T1/T2/T4 and A7 go unchecked (issue 6). Formats: Anthropic Messages and
 * OpenAI Chat request bodies; other formats return undefined (the writer's own fallback).
 */
function rebuiltTop(t: Transcript, system: Transcript['system'], tools: ToolDef[] | null): unknown {
  if (t.format === 'anthropic-messages' && t.listKey === 'messages')
    return anthropicTop(t, system, tools);
  if (t.format === 'openai-chat' && t.listKey === 'messages') return openaiChatTop(t, tools);
  return undefined;
}

/**
 * The source's top level, redacted. A log (JSON Lines): every line redacted string by string
 * (`Redactor.json`: ids renamed, times relative, content placeholders); the writers render the
 * messages from their blocks over the line at their position, so a line keeps its session id,
 * uuid chain and flags. A document: safe settings kept (the model as its public base), system
 * and tools redacted, anything else dropped.
 * @param t the original transcript (`t.settings` not yet redacted)
 * @param messages the redacted messages
 */
export function redactTop(
  r: Redactor,
  t: Transcript,
  messages: Message[],
  system: Transcript['system'],
  tools: ToolDef[] | null,
): unknown {
  const raw = t.raw;
  if (raw === undefined)
    return rebuiltTop({ ...t, settings: { ...t.settings, ...modelOf(t) } }, system, tools);
  if (Array.isArray(raw)) return raw.map((line) => r.json(line));
  if (raw === null || typeof raw !== 'object') return r.json(raw);
  const out: Record<string, unknown> = ownRecord();
  for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
    if (k === t.listKey) out[k] = [];
    else if ((k === 'model' || k === 'modelId') && typeof v === 'string') out[k] = publicModel(v);
    else if (SAFE_TOP_LEVEL.has(k)) out[k] = settingValue(r, v);
    else if (SYSTEM_KEYS.has(k)) out[k] = r.json(v);
    else if (TOOL_KEYS.has(k)) out[k] = toolish(r, v);
    else if (SETTINGS_KEYS.has(k)) out[k] = settingsOnly(r, v);
    else if (k === 'config' && t.format === 'gemini' && v !== null && typeof v === 'object')
      out[k] = geminiConfig(r, v as Record<string, unknown>);
    else if (
      (k === 'response_format' || k === 'output_format') &&
      v !== null &&
      typeof v === 'object'
    )
      out[k] = { type: settingValue(r, (v as Record<string, unknown>).type) };
  }
  // An OpenAI `chat.completion` response is written from `raw` as a whole: rebuild its choice.
  if (t.listKey === 'choices' && messages[0])
    out.choices = [
      { index: 0, message: toOpenAIChatMessages(messages[0])[0], finish_reason: 'stop' },
    ];
  return out;
}

/** `{model}` as shared (its public base), or nothing. */
export function modelOf(t: Transcript): { model?: string } {
  return t.settings.model !== undefined ? { model: publicModel(t.settings.model) } : {};
}
