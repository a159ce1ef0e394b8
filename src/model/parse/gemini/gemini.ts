/**
 * Google Gemini `generateContent` body (`{contents[], systemInstruction, tools}`, REST camelCase
 * or proto snake_case, or the JS SDK form with `config`), a bare `contents` array, or a
 * `GenerateContentResponse` (`candidates[].content`).
 * Source of the shape: googleapis/js-genai `src/types.ts` (docs/formats.md#gemini).
 *
 * One normalised message per content (rawIndex = index in `contents`), one block per part, so a
 * block index is the part index. Role `model` → assistant. `functionCall` → tool_use (id null when
 * absent; its `thoughtSignature` kept in `signature`, never counted); `functionResponse` →
 * tool_result (toolUseId null when absent, `name` set: pairing falls back to position and name);
 * `thought: true` text → thinking; a part holding only a `thoughtSignature` → redacted_thinking.
 */
import type { Block, Message, Result, Transcript, ToolDef, UsageRecord } from '../../types.ts';
import type { FormatParser } from '../registry.ts';
import { writeGemini } from './geminiWrite.ts';
import { arr, base64Bytes, isObject, type Json, jsonText, shapeError, str } from '../util.ts';
import { bareListTranscript, jsonDocumentOnly, notAnObject, responseTranscript } from '../util.ts';
import { toolDef } from '../util.ts';
import { GEMINI_ROLES, geminiNearMiss } from './geminiShape.ts';

/** snake_case of the camelCase field names `field` reads, made once per name. */
const SNAKE = new Map<string, string>();

/** Read a field in camelCase or snake_case. */
function field(o: Json, camel: string): unknown {
  const v = o[camel];
  if (v !== undefined || camel in o) return v;
  let snake = SNAKE.get(camel);
  if (snake === undefined) {
    snake = camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    SNAKE.set(camel, snake);
  }
  return o[snake];
}

/** Map one Gemini part to a block; unknown parts become `other`. */
export function geminiPart(p: unknown): Block {
  if (!isObject(p)) return { type: 'other', label: typeof p, raw: p };
  // The signature is read only where it is used: a plain text part (most parts) needs no lookup.
  if (typeof p.text === 'string' && p.thought !== true) return { type: 'text', text: p.text };
  const signature = str(field(p, 'thoughtSignature'));
  // Optional fields are assigned, not spread: this runs per part of every check (issue 17).
  if (typeof p.text === 'string') {
    const block: Block = { type: 'thinking', thinking: p.text };
    if (signature) block.signature = signature;
    return block;
  }
  const fc = field(p, 'functionCall');
  if (isObject(fc)) {
    const block: Block = {
      type: 'tool_use',
      id: str(fc.id) ?? null,
      name: str(fc.name) ?? '',
      input: fc.args ?? {},
    };
    if (signature) block.signature = signature;
    return block;
  }
  const fr = field(p, 'functionResponse');
  if (isObject(fr)) {
    const response = fr.response;
    const content: Block[] =
      response === undefined
        ? []
        : [typeof response === 'string' ? { type: 'text', text: response } : jsonText(response)];
    for (const inner of arr(fr.parts) ?? []) content.push(geminiPart(inner));
    const name = str(fr.name);
    const block: Block = {
      type: 'tool_result',
      toolUseId: str(fr.id) ?? null,
      isError: isObject(response) && 'error' in response && !('output' in response),
      content,
    };
    if (name !== undefined) block.name = name;
    return block;
  }
  const inline = field(p, 'inlineData');
  const file = field(p, 'fileData');
  const media = isObject(inline) ? inline : isObject(file) ? file : undefined;
  if (media) {
    const mediaType = str(field(media, 'mimeType'));
    const bytes = base64Bytes(media.data);
    return {
      type: mediaType?.startsWith('image/') ? 'image' : 'document',
      ...(mediaType ? { mediaType } : {}),
      ...(bytes !== undefined ? { bytes } : {}),
    };
  }
  if (signature !== undefined && Object.keys(p).length === 1)
    return { type: 'redacted_thinking', bytes: signature.length };
  const label =
    Object.keys(p).find((k) => k !== 'thoughtSignature' && k !== 'thought_signature') ?? 'part';
  return { type: 'other', label, raw: p };
}

/**
 * Normalise one `Content`.
 * @param c the content as pasted
 * @param i its index in `contents`
 * @param listKey the name of the list (`contents`)
 */
export function geminiContent(c: unknown, i: number, listKey: string): Message {
  const path = `${listKey}.${i}`;
  if (!isObject(c)) return notAnObject(c, path, i);
  const role = GEMINI_ROLES.get(str(c.role) ?? 'user') ?? 'user';
  const parts = arr(c.parts);
  const blocks = parts
    ? parts.map(geminiPart)
    : c.parts === undefined
      ? []
      : [{ type: 'other' as const, label: 'parts', raw: c.parts }];
  return { index: i, rawIndex: i, path, role, blocks, raw: c };
}

function isContent(c: unknown): boolean {
  if (!isObject(c)) return false;
  const parts = arr(c.parts);
  if (!parts) return false;
  const role = c.role;
  if (role !== undefined && (typeof role !== 'string' || !GEMINI_ROLES.has(role))) return false;
  // Vercel UIMessage parts carry `type`; Gemini parts never do.
  return parts.every((p) => isObject(p) && !('type' in p));
}

function sniff(v: unknown): number {
  if (Array.isArray(v)) {
    if (v.length === 0) return 0;
    return v.every(isContent) ? (v.some((c) => isObject(c) && c.role === 'model') ? 0.9 : 0.8) : 0;
  }
  if (!isObject(v)) return 0;
  const cands = arr(v.candidates);
  if (
    cands &&
    cands.length > 0 &&
    cands.every((c) => isObject(c) && (c.content === undefined || isContent(c.content)))
  )
    return 0.9;
  const contents = arr(v.contents);
  if (!contents) return 0;
  if ('messages' in v || 'input' in v) return 0;
  if (contents.length === 0)
    return 'systemInstruction' in v || 'system_instruction' in v ? 0.7 : 0.4;
  return contents.every(isContent) ? 0.95 : 0;
}

function parseTools(v: unknown): ToolDef[] | null {
  const list = arr(v);
  if (!list) return null;
  const out: ToolDef[] = [];
  for (const t of list) {
    if (!isObject(t)) continue;
    const decls = arr(field(t, 'functionDeclarations'));
    if (decls) {
      for (const d of decls) {
        if (!isObject(d)) continue;
        const schema = d.parameters ?? field(d, 'parametersJsonSchema');
        out.push(toolDef(str(d.name) ?? '', d.description, schema));
      }
    } else {
      const key = Object.keys(t)[0];
      if (key) out.push({ name: key });
    }
  }
  return out;
}

function usageOf(u: unknown, messageIndex: number): UsageRecord[] {
  if (!isObject(u)) return [];
  const rec: UsageRecord = { messageIndex };
  if (typeof u.promptTokenCount === 'number') rec.inputTokens = u.promptTokenCount;
  if (typeof u.candidatesTokenCount === 'number') rec.outputTokens = u.candidatesTokenCount;
  if (typeof u.cachedContentTokenCount === 'number')
    rec.cacheReadTokens = u.cachedContentTokenCount;
  if (typeof u.thoughtsTokenCount === 'number') rec.reasoningTokens = u.thoughtsTokenCount;
  return [rec];
}

/**
 * A request's system instruction (`systemInstruction`, at the top or under the SDK's `config`):
 * a string, or the text parts of a content, each with its path.
 */
function systemOf(v: Json, config: Json): Transcript['system'] {
  const sysKey =
    field(v, 'systemInstruction') !== undefined
      ? 'systemInstruction'
      : field(config, 'systemInstruction') !== undefined
        ? 'config.systemInstruction'
        : null;
  const sysVal = field(v, 'systemInstruction') ?? field(config, 'systemInstruction');
  const system: Transcript['system'] = [];
  if (typeof sysVal === 'string')
    system.push({ text: sysVal, path: sysKey ?? 'systemInstruction' });
  else if (isObject(sysVal)) {
    (arr(sysVal.parts) ?? []).forEach((p, i) => {
      if (isObject(p) && typeof p.text === 'string')
        system.push({ text: p.text, path: `${sysKey ?? 'systemInstruction'}.parts.${i}` });
    });
  }
  return system;
}

function parse(v: unknown): Result<Transcript> {
  if (Array.isArray(v))
    return bareListTranscript(
      'gemini',
      v,
      'contents',
      v.map((c, i) => geminiContent(c, i, 'contents')),
    );
  if (!isObject(v))
    return shapeError(
      'Expected a Gemini body with `contents`, an array of contents, or a response with `candidates`.',
    );
  const model = str(v.model) ?? str(v.modelVersion);
  const cands = arr(v.candidates);
  if (cands) {
    const first = cands[0];
    const m = geminiContent(isObject(first) ? first.content : undefined, 0, 'candidates');
    m.path = 'candidates.0.content';
    return responseTranscript(
      'gemini',
      v,
      'candidates',
      [m],
      model,
      usageOf(v.usageMetadata, 0),
      'model',
    );
  }
  const config = isObject(v.config) ? v.config : {};
  const system = systemOf(v, config);
  const toolConfig = field(v, 'toolConfig') ?? field(config, 'toolConfig');
  const fcc = isObject(toolConfig) ? field(toolConfig, 'functionCallingConfig') : undefined;
  const forced = isObject(fcc) && (fcc.mode === 'ANY' || fcc.mode === 'any');
  const gen = isObject(field(v, 'generationConfig'))
    ? (field(v, 'generationConfig') as Json)
    : config;
  const outputFormat =
    str(field(gen, 'responseMimeType')) === 'application/json' ||
    field(gen, 'responseSchema') !== undefined;
  // Built field by field, not with spreads: in Node 20's V8 an object literal that adds fields
  // after a spread costs microseconds (a fresh map per call): issue 17, `check` per request.
  const settings: Transcript['settings'] = {};
  if (model) settings.model = model;
  if (forced) settings.toolChoiceForced = true;
  if (outputFormat) settings.outputFormat = true;
  const contents = arr(v.contents) ?? [];
  const warnings: string[] = [];
  if (field(v, 'cachedContent') !== undefined)
    warnings.push(
      'The request uses `cachedContent`: the cached part of the history is not in this paste.',
    );
  return {
    ok: true,
    value: {
      format: 'gemini',
      usage: [],
      warnings,
      raw: v,
      listKey: 'contents',
      system,
      tools: parseTools(v.tools ?? config.tools),
      settings,
      messages: contents.map((c, i) => geminiContent(c, i, 'contents')),
    },
  };
}

export const geminiParser: FormatParser = {
  id: 'gemini',
  label: 'Google Gemini',
  provider: 'gemini',
  category: 'request',
  resultStyle: 'user',
  // Gemini parts.
  blockWords: { call: 'functionCall', result: 'functionResponse' },
  expected:
    'an object with `contents` (role user/model, `parts` with text, `functionCall`, `functionResponse`), a bare array of such contents, or a response with `candidates`',
  sniff,
  nearMiss: geminiNearMiss,
  parse: jsonDocumentOnly(parse, 'A Gemini request is a JSON document, not JSON Lines.'),
  write: writeGemini,
};
