/**
 * Inspect AI eval logs, JSON format v2 (`.json` log files written by `inspect eval`):
 * `{version: 2, status, eval: {task, model, …}, plan, results, stats, samples: [sample]}` where a
 * sample is `{id, epoch, input, target, messages, output, events, attachments, …}` and
 * `messages` are Inspect `ChatMessage`s: `{id, role: system|user|assistant|tool, content,
 * source?, model?, tool_calls?: [{id, function: <name>, arguments: {…}, parse_error?}],
 * tool_call_id?, function?, error?: {type, message} | null}`. `content` is a string or a list
 * of `{type: text|reasoning|image|audio|video, …}`; a string may be `attachment://<hash>`,
 * resolved against the sample's `attachments`.
 * Source of the shape: inspect_ai's `EvalLog` as a real log writes it (the corpus suite reads one)
 * and docs/formats.md#inspect-log. Requests go to the model of
 * `eval.model` (`openai/gpt-4o-mini`): validated as OpenAI Chat Completions by default.
 *
 * A log with several samples is a multi-request file: `listInspectSamples` gives one entry per
 * sample (a log holding that sample alone), and `parseTranscript`'s `requestIndex` picks one.
 * Tools come from the last `model` event's `tools`; usage from each `model` event's
 * `output.usage`. Each `model` event is a model call (`inspectCalls`): the sample's requests,
 * each the event's `input`.
 *
 * Writing back (`write`): the log with its one sample's `messages` replaced; untouched messages
 * from their raw value, new or changed ones as Inspect messages (`tool_calls[{id, function,
 * arguments}]`, tool messages with `tool_call_id` and `function`).
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
import { toOpenAIChatMessages } from '../openaiChat/openaiChat.ts';
import type { RequestEntry } from '../multi.ts';
import type { FormatParser } from '../registry.ts';
import type { SessionCall, SessionCalls, Span } from '../sessionCalls.ts';
import { arr, isObject, type Json, parseArguments, shapeError, str } from '../util.ts';
import { dataUrlStandIn, jsonDocumentOnly, notAnObject, readDataUrl } from '../util.ts';
import { requestLabel } from '../util.ts';
import { nameTable } from '../../own.ts';

const ROLES: ReadonlyMap<string, Role> = nameTable({
  system: 'system',
  user: 'user',
  assistant: 'assistant',
  tool: 'tool',
});

/** True for an Inspect eval log object: `eval` settings and a `samples` list (maybe empty). */
function isLog(v: unknown): v is Json & { samples: unknown[]; eval: Json } {
  return isObject(v) && isObject(v.eval) && Array.isArray(v.samples);
}

/** Sniff: an eval log (`eval` + `samples`, version 2 or unversioned). Cheap, never throws. */
function sniff(v: unknown): number {
  if (!isLog(v)) return 0;
  if (v.version !== undefined && v.version !== 2) return 0.5;
  const first = v.samples[0];
  if (first === undefined) return 0.8;
  return isObject(first) && Array.isArray(first.messages) ? 0.95 : 0.6;
}

/** Resolve an `attachment://<hash>` reference against the sample's attachments. */
function resolve(s: string, attachments: Json): string {
  if (!s.startsWith('attachment://')) return s;
  const hit = attachments[s.slice('attachment://'.length)];
  return typeof hit === 'string' ? hit : s;
}

function dataBytes(url: string): number | undefined {
  return readDataUrl(url)?.bytes;
}

/** One Inspect content item (`ContentText`, `ContentReasoning`, `ContentImage`, …). */
function contentItem(c: unknown, attachments: Json): Block {
  if (typeof c === 'string') return { type: 'text', text: resolve(c, attachments) };
  if (!isObject(c)) return { type: 'other', label: typeof c, raw: c };
  switch (c.type) {
    case 'text':
      return typeof c.text === 'string'
        ? { type: 'text', text: resolve(c.text, attachments) }
        : { type: 'other', label: 'text', raw: c };
    case 'reasoning': {
      const reasoning = resolve(str(c.reasoning) ?? '', attachments);
      if (c.redacted === true) return { type: 'redacted_thinking', bytes: reasoning.length };
      const sig = str(c.signature);
      return { type: 'thinking', thinking: reasoning, ...(sig ? { signature: sig } : {}) };
    }
    case 'image': {
      const bytes = dataBytes(resolve(str(c.image) ?? '', attachments));
      return { type: 'image', ...(bytes !== undefined ? { bytes } : {}) };
    }
    case 'audio':
    case 'video':
      return { type: 'document', mediaType: `${c.type}/${str(c.format) ?? 'unknown'}` };
    default:
      return { type: 'other', label: str(c.type) ?? 'unknown', raw: c };
  }
}

function contentBlocks(c: unknown, attachments: Json): { blocks: Block[]; stringContent: boolean } {
  if (typeof c === 'string')
    return { blocks: [{ type: 'text', text: resolve(c, attachments) }], stringContent: true };
  if (Array.isArray(c))
    return { blocks: c.map((x) => contentItem(x, attachments)), stringContent: false };
  if (c === null || c === undefined) return { blocks: [], stringContent: false };
  return { blocks: [{ type: 'other', label: 'content', raw: c }], stringContent: false };
}

/** An Inspect `ToolCall`: `function` is the tool name; `arguments` an object (or a JSON string). */
function toolCall(tc: unknown): Block {
  if (!isObject(tc)) return { type: 'other', label: 'tool_call', raw: tc };
  const fn = tc.function;
  const name = typeof fn === 'string' ? fn : isObject(fn) ? (str(fn.name) ?? '') : '';
  const args = isObject(fn) && 'arguments' in fn ? fn.arguments : tc.arguments;
  return { type: 'tool_use', id: str(tc.id) ?? null, name, input: parseArguments(args) };
}

function message(m: unknown, i: number, sampleKey: string, attachments: Json): Message {
  const path = `${sampleKey}.messages.${i}`;
  if (!isObject(m)) return notAnObject(m, path, i);
  const role = ROLES.get(str(m.role) ?? '');
  const { blocks, stringContent } = contentBlocks(m.content, attachments);
  let out: Block[] = blocks;
  if (role === undefined) {
    out = [{ type: 'other', label: `role ${String(m.role)}`, raw: m }];
  } else if (role === 'assistant') {
    const calls = arr(m.tool_calls) ?? [];
    // An empty string beside tool calls is Inspect's "no text", not a text block.
    if (calls.length > 0 && stringContent && blocks.every((b) => b.type === 'text' && !b.text))
      out = [];
    out = [...out, ...calls.map(toolCall)];
  } else if (role === 'tool') {
    const name = str(m.function);
    out = [
      {
        type: 'tool_result',
        toolUseId: str(m.tool_call_id) ?? null,
        isError: isObject(m.error),
        content: blocks,
        ...(name !== undefined ? { name } : {}),
      },
    ];
  }
  const id = str(m.id);
  return {
    index: i,
    rawIndex: i,
    path,
    role: role ?? 'user',
    blocks: out,
    raw: m,
    ...(stringContent ? { stringContent } : {}),
    ...(id !== undefined ? { meta: { sourceId: id } } : {}),
  };
}

/** Tool definitions from the last `model` event that lists them (`{name, description, parameters}`). */
function toolsOf(events: unknown[], attachments: Json): ToolDef[] | null {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (!isObject(e) || e.event !== 'model') continue;
    const tools = arr(e.tools);
    if (!tools) continue;
    return tools.filter(isObject).map((t) => {
      const description = str(t.description);
      return {
        name: str(t.name) ?? '',
        ...(description !== undefined ? { description: resolve(description, attachments) } : {}),
        ...(t.parameters !== undefined ? { schema: t.parameters } : {}),
      };
    });
  }
  return null;
}

/**
 * Usage of each `model` event (`output.usage`: `input_tokens` includes cache reads, as OpenAI's
 * `prompt_tokens` does — docs/formats.md#usage), tied to the reply message by its id when it is kept.
 */
function usageOf(events: unknown[], idToIndex: Map<string, number>): UsageRecord[] {
  const out: UsageRecord[] = [];
  for (const e of events) {
    if (!isObject(e) || e.event !== 'model' || !isObject(e.output)) continue;
    const u = e.output.usage;
    if (!isObject(u)) continue;
    const rec: UsageRecord = {};
    const choice = arr(e.output.choices)?.[0];
    const replyId =
      isObject(choice) && isObject(choice.message) ? str(choice.message.id) : undefined;
    const mi = replyId !== undefined ? idToIndex.get(replyId) : undefined;
    if (mi !== undefined) rec.messageIndex = mi;
    if (typeof u.input_tokens === 'number') rec.inputTokens = u.input_tokens;
    if (typeof u.output_tokens === 'number') rec.outputTokens = u.output_tokens;
    if (typeof u.input_tokens_cache_read === 'number')
      rec.cacheReadTokens = u.input_tokens_cache_read;
    if (typeof u.input_tokens_cache_write === 'number')
      rec.cacheWriteTokens = u.input_tokens_cache_write;
    if (typeof u.reasoning_tokens === 'number') rec.reasoningTokens = u.reasoning_tokens;
    out.push(rec);
  }
  return out;
}

/**
 * A warning when a model name says its requests went to another provider than OpenAI Chat
 * Completions (the default for Inspect logs and SWE-agent trajectories): `anthropic/…`,
 * `claude-…`, `google/…`, `gemini-…`, `bedrock/…`, `mistral…`, `deepseek…`, `qwen…`.
 * @param model the model as the source names it, with or without a provider prefix
 * @returns the sentence to show, or undefined for OpenAI or unknown models
 */
export function providerHint(model: string | undefined): string | undefined {
  if (model === undefined) return undefined;
  const m = model.toLowerCase();
  // OpenAI-compatible gateways take Chat Completions bodies whatever model they route to.
  if (/^(openai|openrouter|together|groq|azure|vllm|ollama)\//.test(m)) return undefined;
  // [pattern, provider, its label in the Provider menu]
  const to: [RegExp, string, string][] = [
    [/^bedrock\//, 'AWS Bedrock', 'AWS Bedrock Converse'],
    [/^(anthropic\/|claude)|\/claude/, 'Anthropic', 'Anthropic Messages'],
    [/^(google|vertex)\/|gemini/, 'Google', 'Google Gemini'],
    [/mistral/, 'Mistral', 'Mistral'],
    [/deepseek/, 'DeepSeek', 'DeepSeek'],
    [/qwen/, 'Qwen', 'Qwen (DashScope)'],
  ];
  const hit = to.find(([re]) => re.test(m));
  return hit
    ? `The model is ${model}: its requests went to ${hit[1]}, not OpenAI. Pick ${hit[2]} under Provider for its rules.`
    : undefined;
}

/** `openai/gpt-4o-mini` → `gpt-4o-mini` (Inspect prefixes the model with its provider). */
function modelName(log: Json, messages: unknown[]): string | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (isObject(m) && m.role === 'assistant' && typeof m.model === 'string') return m.model;
  }
  const evalModel = isObject(log.eval) ? str(log.eval.model) : undefined;
  return evalModel?.slice(evalModel.lastIndexOf('/') + 1);
}

/**
 * Parse an Inspect eval log into the transcript of one sample (the first one in the value: a
 * multi-sample log reaches here one sample at a time through `listInspectSamples`).
 * @param v the parsed log
 * @returns the sample's messages; bad items become `other` blocks; a log without samples (a
 *   header-only log) gives an empty transcript with a warning. Never throws.
 */
function parse(v: unknown): Result<Transcript> {
  if (!isLog(v))
    return shapeError('Expected an Inspect eval log: an object with `eval` and `samples`.');
  const warnings: string[] = [];
  const sample = v.samples[0];
  if (v.samples.length > 1)
    warnings.push(
      `This log holds ${v.samples.length} samples; showing the first (samples.0). Pick another in the request list.`,
    );
  if (sample === undefined)
    warnings.push('This log holds no samples (a header-only log): there are no messages to show.');
  const s: Json = isObject(sample) ? sample : {};
  if (sample !== undefined && !isObject(sample))
    warnings.push('samples.0 is not an object: there are no messages to show.');
  const attachments = isObject(s.attachments) ? s.attachments : {};
  const list = arr(s.messages) ?? [];
  if (isObject(sample) && !Array.isArray(s.messages))
    warnings.push('samples.0 has no `messages` list: there are no messages to show.');
  const messages = list.map((m, i) => message(m, i, 'samples.0', attachments));
  const idToIndex = new Map<string, number>();
  for (const m of messages) if (m.meta?.sourceId) idToIndex.set(m.meta.sourceId, m.index);
  const events = arr(s.events) ?? [];
  const model = modelName(v, list);
  const hint = providerHint(isObject(v.eval) ? str(v.eval.model) : undefined);
  if (hint !== undefined) warnings.push(hint);
  if (isObject(s.error))
    warnings.push(`The sample ended with an error: ${str(s.error.message) ?? 'no message'}.`);
  return {
    ok: true,
    value: {
      format: 'inspect-log',
      system: [],
      tools: toolsOf(events, attachments),
      settings: model !== undefined ? { model } : {},
      usage: usageOf(events, idToIndex),
      messages,
      warnings,
      listKey: 'samples',
      raw: v,
    },
  };
}

/**
 * The samples of a multi-sample Inspect log, for the request picker (multi.ts `listRequests`).
 * @param v a parsed JSON value
 * @returns one entry per sample (`#2 · sample 7 (epoch 1) · 10 messages`), whose value is the
 *   log with that sample alone; `[]` for anything that is not a log with two or more samples.
 *   Never throws.
 */
export function listInspectSamples(v: unknown): RequestEntry[] {
  if (!isLog(v) || v.samples.length < 2) return [];
  return v.samples.map((s, i) => {
    const o = isObject(s) ? s : {};
    const id = typeof o.id === 'string' || typeof o.id === 'number' ? String(o.id) : undefined;
    const epoch = typeof o.epoch === 'number' ? o.epoch : undefined;
    const n = arr(o.messages)?.length;
    const label = requestLabel(
      i,
      id !== undefined
        ? `sample ${id}${epoch !== undefined ? ` (epoch ${epoch})` : ''}`
        : undefined,
      n !== undefined ? `${n} messages` : undefined,
    );
    return { label, value: { ...v, samples: [s] }, ...(i === 0 ? { preferred: true } : {}) };
  });
}

/** Runs of consecutive message indices as spans: `[0, 1, 2, 5]` → `[[0, 3], [5, 6]]`. */
function spansOf(indices: readonly number[]): Span[] {
  const out: Span[] = [];
  for (const i of indices) {
    const last = out[out.length - 1];
    if (last && last[1] === i) last[1] = i + 1;
    else out.push([i, i + 1]);
  }
  return out;
}

/**
 * The model calls of an Inspect sample (issue 33): one per `model` event of the sample's
 * `events`, in order. A call's context is the event's `input`, each message found in the
 * sample's `messages` by its `id` (Inspect gives both the same ids); an input without ids is
 * taken as the first as many messages. The reply is the message whose id the event's
 * `output.choices[0].message` carries; the logged input tokens are `output.usage.input_tokens`
 * (cache reads included, as `usageOf` reads them).
 * @param t a transcript read by this parser (its `raw` the log of one sample)
 * @returns the calls over `t` (none when the sample records no `model` event)
 */
export function inspectCalls(t: Transcript): SessionCalls {
  const log: Json = isObject(t.raw) ? t.raw : {};
  const sample = arr(log.samples)?.[0];
  const events = isObject(sample) ? (arr(sample.events) ?? []) : [];
  const at = new Map<string, number>();
  for (const m of t.messages) if (m.meta?.sourceId !== undefined) at.set(m.meta.sourceId, m.index);
  const calls: SessionCall[] = [];
  for (const e of events) {
    if (!isObject(e) || e.event !== 'model') continue;
    const input = arr(e.input) ?? [];
    const ids = input.map((m) => (isObject(m) ? at.get(str(m.id) ?? '') : undefined));
    const found = ids.filter((i): i is number => i !== undefined);
    const spans: Span[] =
      found.length === input.length
        ? spansOf(found)
        : input.length > 0
          ? [[0, Math.min(input.length, t.messages.length)]]
          : [];
    const out = isObject(e.output) ? e.output : {};
    const choice = arr(out.choices)?.[0];
    const replyId =
      isObject(choice) && isObject(choice.message) ? str(choice.message.id) : undefined;
    const call: SessionCall = {
      spans,
      reply: replyId !== undefined ? (at.get(replyId) ?? null) : null,
      thread: 'main',
      compaction: null,
    };
    const u = out.usage;
    if (isObject(u) && typeof u.input_tokens === 'number') call.usageTokens = u.input_tokens;
    calls.push(call);
  }
  return { transcript: t, calls };
}

/**
 * A block as Inspect content items: an image as a data URL with a stand-in payload of its size
 * (or a stand-in address), audio and video by their format, an unmodelled item as it is.
 */
function inspectItem(b: Block): unknown[] {
  switch (b.type) {
    case 'text':
      return [{ type: 'text', text: b.text }];
    case 'image': {
      const image =
        b.bytes === undefined ? 'https://example.invalid/image' : dataUrlStandIn(b, b.bytes);
      return [{ type: 'image', image }];
    }
    case 'document': {
      const [kind, format] = (b.mediaType ?? '').split('/');
      const type = kind === 'video' ? 'video' : 'audio';
      return [{ type, [type]: '', format: format ?? 'unknown' }];
    }
    case 'other':
      return [b.raw];
    default:
      return [];
  }
}

/**
 * A message as Inspect messages: its raw value when untouched; otherwise the Chat messages it
 * renders to, with Inspect's tool call shape and the tool name on each tool message.
 */
function toInspectMessages(m: Message): unknown[] {
  if (m.raw !== undefined) return [m.raw];
  const results = m.blocks.filter((b) => b.type === 'tool_result');
  let k = 0;
  return toOpenAIChatMessages(m).map((x) => {
    const o: Json = isObject(x) ? x : {};
    // Chat writes a message with media as parts; Inspect has content items of its own.
    if (o.role !== 'tool' && o.role !== 'assistant' && Array.isArray(o.content))
      return { ...o, content: m.blocks.flatMap(inspectItem) };
    if (o.role === 'tool') {
      const r = results[k++];
      const name = r?.type === 'tool_result' ? r.name : undefined;
      return { ...o, ...(name !== undefined ? { function: name } : {}) };
    }
    const calls = arr(o.tool_calls);
    if (o.role !== 'assistant' || !calls) return o;
    return {
      ...o,
      content: o.content ?? '',
      tool_calls: calls.map((c) => {
        const fn = isObject(c) && isObject(c.function) ? c.function : {};
        return {
          id: isObject(c) ? c.id : null,
          function: str(fn.name) ?? '',
          arguments: parseArguments(fn.arguments),
        };
      }),
    };
  });
}

/**
 * The log with its (first) sample's messages rewritten. A log that lost its top level (a
 * structure-only copy) gets `eval` back with the model, so it is read as an Inspect log again.
 */
function write(t: Transcript): string {
  const log: Json = isObject(t.raw) ? t.raw : {};
  const first = arr(log.samples)?.[0];
  const sample: Json = isObject(first) ? first : {};
  const messages = t.messages.flatMap(toInspectMessages);
  const evalPart = isObject(log.eval)
    ? log.eval
    : t.settings.model !== undefined
      ? { model: t.settings.model }
      : {};
  return JSON.stringify({ ...log, eval: evalPart, samples: [{ ...sample, messages }] }, null, 2);
}

export const inspectLogParser: FormatParser = {
  id: 'inspect-log',
  label: 'Inspect AI eval log',
  provider: 'openai-chat',
  category: 'archive',
  resultStyle: 'tool',
  // An item of `tool_calls`, answered by a `tool` message.
  blockWords: { call: 'tool_call', result: 'tool' },
  listRequests: listInspectSamples,
  sessionCalls: (_doc, t) => inspectCalls(t),
  expected:
    'an Inspect AI eval log (JSON format v2): an object with `eval` and `samples[]`, each sample with `messages` (OpenAI-style `tool_calls` and `tool_call_id`)',
  sniff,
  parse: jsonDocumentOnly(parse, 'An Inspect eval log is one JSON document, not JSON Lines.'),
  write,
};
