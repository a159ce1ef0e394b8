/**
 * Structure-only redaction (issue 6): share the shape of a failure without its content.
 *
 * Every text, tool input, tool result, system prompt, tool description and thinking text is
 * replaced by a placeholder with the same token count under the same `TextCounter` (and, where
 * the placeholder alphabet allows, the same length, so the `chars/4` heuristic agrees too). Tool
 * ids are renamed consistently, keeping the provider's prefix (`toolu_01AB…` → `toolu_r001`), so
 * pairing, duplicates and orphans survive. Tool names are kept or hidden by option. Nothing else
 * changes: roles, block types and order, message indices and paths, empty and whitespace-only
 * texts (they carry rules A10/A11), settings (model, thinking, tool_choice) and usage figures.
 *
 * So the redacted transcript gives the same exchanges, tool pairs (statuses), violations (ids
 * renamed) and token counts per message, hence the same eviction results.
 *
 * Placeholders are made of the units `x`, `xx`, `xxx`, `xxxx` separated by spaces: each is one
 * token in o200k and cl100k and they never merge across a space, so the count is additive, and
 * no placeholder contains a word of five letters or more.
 */
import { CHARS_PER_4, type TextCounter } from './tokens.ts';
import type { Block, Message, ToolDef, Transcript } from './types.ts';
import { toOpenAIChatMessages } from './parse/openaiChat.ts';
import { parseJsonBounded } from './parse/json.ts';

export interface RedactOptions {
  /** `keep` (default) leaves tool names as they are; `hide` renames them `A`, `B_x`, … (a letter, padded to the original token count) */
  toolNames?: 'keep' | 'hide';
  /**
   * `placeholder` (default): thinking text becomes a same-size placeholder and its signature a
   * same-length run of `x`. `remove`: thinking blocks are dropped — smaller, but the thinking
   * rules (T1–T4) and token counts then differ from the original.
   */
  thinking?: 'placeholder' | 'remove';
  /** Counter under which placeholders keep each count (default `CHARS_PER_4`; pass the page's). */
  counter?: TextCounter;
}

export interface Redaction {
  transcript: Transcript;
  /** Original tool / item id → renamed id. */
  ids: Map<string, string>;
  /** Original tool name → shown name (identity when names are kept). */
  names: Map<string, string>;
  /** Placeholders whose token count could not be matched exactly (tiny texts beside a long hidden name). */
  inexact: number;
}

/** Top-level request fields copied as they are: settings, never content. */
const SAFE_TOP_LEVEL = new Set([
  'model',
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

/** Top-level keys that hold the system prompt in the formats we read (Anthropic, Responses, Gemini). */
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

/** Keys whose string values are structure (kept) inside redacted JSON. */
const STRUCTURAL_STRING_KEYS = new Set([
  'type',
  'subtype',
  'role',
  'model',
  'media_type',
  'mimeType',
  'uuid',
  'parentUuid',
  'timestamp',
]);

/**
 * Top-level keys kept when a text is a JSON object: they say whether a result is an output or an
 * error (Gemini `functionResponse.response`, MCP-style results), which some rules read.
 */
export const RESULT_KEYS: ReadonlySet<string> = new Set(['output', 'error', 'result', 'content']);

/** The text parsed as a JSON object, or null (cheap check first: most texts are not JSON). */
function jsonObject(s: string): Record<string, unknown> | null {
  const t = s.trimStart();
  if (!t.startsWith('{')) return null;
  try {
    const v: unknown = parseJsonBounded(s); // a deep text stays text (model/limits.ts)
    return v !== null && typeof v === 'object' && !Array.isArray(v)
      ? (v as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

const MAX_UNIT_LETTERS = 4;

/**
 * A placeholder of `k` units (`x`, `xx`, `xxx`, `xxxx`, space-separated) whose length is as close
 * to `len` as `k` units allow: between 2k − 1 and 5k − 1 characters.
 */
export function placeholderText(k: number, len: number): string {
  if (k <= 0) return '';
  const min = 2 * k - 1;
  const max = (MAX_UNIT_LETTERS + 1) * k - 1;
  let extra = Math.max(0, Math.min(len, max) - min);
  const units: string[] = [];
  for (let i = 0; i < k; i++) {
    const add = Math.min(MAX_UNIT_LETTERS - 1, extra);
    extra -= add;
    units.push('x'.repeat(1 + add));
  }
  return units.join(' ');
}

/**
 * Find a placeholder `p` such that `counter.count(render(p))` equals `target` tokens, with
 * `render(p).length` as close to `targetLen` as possible.
 * @returns the placeholder and whether the count matched exactly (it can fail only when the fixed
 *   part of `render` alone already has more tokens than `target`)
 */
export function fitPlaceholder(
  target: number,
  targetLen: number,
  counter: TextCounter,
  render: (p: string) => string = (p) => p,
): { text: string; exact: boolean } {
  const base = render('');
  const baseCount = counter.count(base);
  const len = targetLen - base.length;
  if (target <= baseCount) return { text: '', exact: target === baseCount };
  let k = Math.max(1, target - baseCount);
  let best = { text: '', diff: Math.abs(target - baseCount) };
  const seen = new Set<number>();
  // Units are additive, so each step usually lands exactly; the loop only absorbs merges at the
  // edges of `render` (a letter run touching the placeholder) and the chars/4 rounding.
  for (let step = 0; step < 24 && !seen.has(k); step++) {
    seen.add(k);
    const p = placeholderText(k, len);
    const c = counter.count(render(p));
    if (c === target) return { text: p, exact: true };
    if (Math.abs(c - target) < best.diff) best = { text: p, diff: Math.abs(c - target) };
    k = Math.max(1, k + (target - c));
  }
  // chars/4 and other length-driven counters: walk the length with a fixed unit count.
  for (let l = Math.max(1, len - 8); l <= len + 8; l++) {
    for (const kk of [Math.max(1, Math.ceil((l + 1) / 5)), Math.max(1, Math.floor((l + 1) / 2))]) {
      const p = placeholderText(kk, l);
      if (counter.count(render(p)) === target) return { text: p, exact: true };
    }
  }
  return { text: best.text, exact: false };
}

class Redactor {
  readonly ids = new Map<string, string>();
  readonly names = new Map<string, string>();
  inexact = 0;
  private readonly counter: TextCounter;
  private readonly hideNames: boolean;
  private readonly dropThinking: boolean;
  private readonly memo = new Map<string, string>();
  /** Object keys that are data, not schema (file paths, ids, names), renamed consistently. */
  private readonly keys = new Map<string, string>();

  constructor(opts: RedactOptions) {
    this.counter = opts.counter ?? CHARS_PER_4;
    this.hideNames = opts.toolNames === 'hide';
    this.dropThinking = opts.thinking === 'remove';
  }

  id(id: string): string;
  id(id: string | null): string | null;
  id(id: string | null): string | null {
    if (id === null || id === '') return id;
    let r = this.ids.get(id);
    if (r === undefined) {
      const prefix = /^[A-Za-z]+[_-]/.exec(id)?.[0] ?? '';
      r = `${prefix}r${String(this.ids.size + 1).padStart(3, '0')}`;
      this.ids.set(id, r);
    }
    return r;
  }

  name(name: string): string {
    if (!this.hideNames || name === '') {
      this.names.set(name, name);
      return name;
    }
    let r = this.names.get(name);
    if (r === undefined) {
      // A letter, then `_x` units (one token each) up to the original name's token count, so
      // that a call with an empty input keeps its size: `get_user_country` → `A_x_x`.
      const n = this.names.size;
      const letter = n < 26 ? String.fromCharCode(65 + n) : `T${n}`;
      const target = this.counter.count(name);
      let k = Math.max(0, target - this.counter.count(letter));
      r = letter + '_x'.repeat(k);
      for (let step = 0; step < 12; step++) {
        const c = this.counter.count(r);
        if (c === target) break;
        k = Math.max(0, k + Math.sign(target - c));
        r = letter + '_x'.repeat(k);
      }
      this.names.set(name, r);
    }
    return r;
  }

  private fit(target: number, targetLen: number, render?: (p: string) => string): string {
    const r = fitPlaceholder(target, targetLen, this.counter, render);
    if (!r.exact) this.inexact++;
    return r.text;
  }

  /**
   * A free text (message text, system part, description): empty and whitespace-only stay. A text
   * that is a JSON object keeps that shape and its `RESULT_KEYS` (Gemini derives `isError` from
   * an `error` key of the function response, and writes results back as objects).
   */
  text(s: string): string {
    if (s.trim() === '') return s;
    const hit = this.memo.get(s);
    if (hit !== undefined) return hit;
    const target = this.counter.count(s);
    const obj = jsonObject(s);
    let out: string;
    if (obj) {
      const keys = Object.keys(obj).filter((k) => RESULT_KEYS.has(k));
      const main = keys[keys.length - 1] ?? '_';
      const shell = Object.fromEntries(keys.map((k) => [k, '']));
      out = JSON.stringify({
        ...shell,
        [main]: this.fit(target, s.length, (p) => JSON.stringify({ ...shell, [main]: p })),
      });
    } else out = this.fit(target, s.length);
    this.memo.set(s, out);
    return out;
  }

  /** Any JSON value: strings become placeholders (structure keys kept), numbers/booleans stay. */
  json(v: unknown, key?: string): unknown {
    if (typeof v === 'string')
      return key !== undefined && STRUCTURAL_STRING_KEYS.has(key) ? v : this.text(v);
    if (Array.isArray(v)) return v.map((x) => this.json(x));
    if (v !== null && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v as Record<string, unknown>))
        out[this.key(k)] = this.json(x, k);
      return out;
    }
    return v;
  }

  /**
   * A key as shared: schema-like keys (an identifier of at most 40 characters) stay; any other
   * key is data — Claude Code keys file backups by path — and becomes `k1`, `k2`, … consistently.
   */
  private key(k: string): string {
    if (/^[A-Za-z_$][\w$-]{0,39}$/.test(k)) return k;
    let r = this.keys.get(k);
    if (r === undefined) {
      r = `k${this.keys.size + 1}`;
      this.keys.set(k, r);
    }
    return r;
  }

  /** Counted text of a tool_use, as `countableText` in tokens.ts builds it. */
  private static callText(name: string, input: unknown): string {
    return name + (typeof input === 'string' ? input : (JSON.stringify(input ?? {}) ?? ''));
  }

  block(b: Block): Block | null {
    switch (b.type) {
      case 'text':
        return { type: 'text', text: this.text(b.text) };
      case 'image':
      case 'document':
        return { ...b };
      case 'thinking': {
        if (this.dropThinking) return null;
        return {
          type: 'thinking',
          thinking: this.text(b.thinking),
          ...(b.signature !== undefined ? { signature: 'x'.repeat(b.signature.length) } : {}),
        };
      }
      case 'redacted_thinking':
        return {
          type: 'redacted_thinking',
          bytes: b.bytes,
          ...(b.itemId !== undefined ? { itemId: this.id(b.itemId) } : {}),
        };
      case 'tool_use': {
        const name = this.name(b.name);
        const original = Redactor.callText(b.name, b.input);
        const target = this.counter.count(original);
        let input: unknown;
        const empty =
          b.input === undefined ||
          b.input === null ||
          (typeof b.input === 'object' && Object.keys(b.input).length === 0);
        if (typeof b.input === 'string') input = this.fit(target, original.length, (p) => name + p);
        else {
          const r = fitPlaceholder(target, original.length, this.counter, (p) =>
            Redactor.callText(name, { _: p }),
          );
          // An empty input stays empty when the name allows; tiny inputs beside a renamed tool
          // try a few fixed shapes before giving up.
          const candidates: unknown[] = [
            ...(empty ? [b.input] : []),
            { _: r.text },
            {},
            { _: 0 },
            { _: '' },
            { _: 10 },
            { _: [] },
            { _: 'x' },
          ];
          input =
            candidates.find((c) => this.counter.count(Redactor.callText(name, c)) === target) ??
            candidates[0];
          if (this.counter.count(Redactor.callText(name, input)) !== target) this.inexact++;
        }
        return {
          type: 'tool_use',
          id: this.id(b.id),
          name,
          input,
          ...(b.server !== undefined ? { server: b.server } : {}),
          ...(b.itemId !== undefined ? { itemId: this.id(b.itemId) } : {}),
          // Gemini thoughtSignature (G4): opaque, never counted; its presence is what matters.
          ...(b.signature !== undefined ? { signature: 'x'.repeat(b.signature.length) } : {}),
        };
      }
      case 'tool_result': {
        const content = this.resultContent(b.content);
        return {
          type: 'tool_result',
          toolUseId: this.id(b.toolUseId),
          isError: b.isError,
          content,
          ...(b.server !== undefined ? { server: b.server } : {}),
          ...(b.name !== undefined ? { name: this.name(b.name) } : {}),
        };
      }
      case 'other':
        return { type: 'other', label: b.label, raw: this.other(b.raw, b.label) };
    }
  }

  /** An unknown block's raw value: its type label and one placeholder of the same token count. */
  private other(raw: unknown, label: string): unknown {
    if (raw === null || typeof raw === 'number' || typeof raw === 'boolean' || raw === undefined)
      return raw;
    const original = JSON.stringify(raw) ?? '';
    const target = this.counter.count(original);
    if (typeof raw === 'object' && !Array.isArray(raw)) {
      const type = (raw as Record<string, unknown>).type;
      const shell = typeof type === 'string' ? { type } : { type: label };
      return {
        ...shell,
        _: this.fit(target, original.length, (p) => JSON.stringify({ ...shell, _: p })),
      };
    }
    return this.fit(target, original.length, (p) => JSON.stringify(p));
  }

  /**
   * A tool result's content: each block redacted, then the last text re-fitted so that the
   * concatenation (what `countableText` counts) keeps its token count.
   */
  private resultContent(content: Block[]): Block[] {
    const out = content.map((c) => this.block(c)).filter((c): c is Block => c !== null);
    const textOf = (bs: Block[]) =>
      bs
        .map((c) =>
          c.type === 'text'
            ? c.text
            : c.type === 'thinking'
              ? c.thinking
              : c.type === 'other'
                ? (JSON.stringify(c.raw) ?? '')
                : '',
        )
        .join('');
    if (out.length < 2) return out;
    const originalText = textOf(content);
    const target = this.counter.count(originalText);
    if (this.counter.count(textOf(out)) === target) return out;
    const last = out
      .map((c, i) => (c.type === 'text' && c.text.trim() !== '' ? i : -1))
      .filter((i) => i >= 0)
      .pop();
    if (last === undefined) return out;
    const before = textOf(out.slice(0, last));
    const after = textOf(out.slice(last + 1));
    const lastOriginal = content[last];
    const lastLen = lastOriginal?.type === 'text' ? lastOriginal.text.length : 0;
    const r = fitPlaceholder(
      target,
      before.length + lastLen + after.length,
      this.counter,
      (p) => before + p + after,
    );
    if (!r.exact) this.inexact++;
    out[last] = { type: 'text', text: r.text };
    return out;
  }

  message(m: Message): Message {
    const blocks = m.blocks.map((b) => this.block(b)).filter((b): b is Block => b !== null);
    const meta = m.meta
      ? {
          ...m.meta,
          ...(m.meta.sourceId !== undefined ? { sourceId: this.id(m.meta.sourceId) } : {}),
        }
      : undefined;
    // raw = undefined: the format's writer renders the message from its (redacted) blocks.
    return {
      index: m.index,
      rawIndex: m.rawIndex,
      path: m.path,
      role: m.role,
      blocks,
      raw: undefined,
      ...(m.stringContent ? { stringContent: true } : {}),
      ...(meta ? { meta } : {}),
    };
  }

  tool(d: ToolDef): ToolDef {
    return {
      name: this.name(d.name),
      ...(d.description !== undefined ? { description: this.text(d.description) } : {}),
      ...(d.schema !== undefined ? { schema: { type: 'object' } } : {}),
    };
  }

  /**
   * Tool definitions and tool choice as the source wrote them (Anthropic `tools`, OpenAI
   * `tools[].function`, Gemini `functionDeclarations` / `allowedFunctionNames`, Bedrock
   * `toolConfig.tools[].toolSpec`): names mapped, descriptions redacted, schemas reduced to
   * `{type: 'object'}`, other strings redacted, modes and types kept.
   */
  toolish(v: unknown, key?: string): unknown {
    if (typeof v === 'string') {
      if (key === 'name' || (key !== undefined && /names$/i.test(key))) return this.name(v);
      if (key === undefined || key === 'type' || key === 'mode') return v;
      return this.text(v);
    }
    if (Array.isArray(v)) return v.map((x) => this.toolish(x, key));
    if (v !== null && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v as Record<string, unknown>))
        out[k] = /schema|^parameters$/i.test(k) ? { type: 'object' } : this.toolish(x, k);
      return out;
    }
    return v;
  }

  /**
   * A settings object (Gemini `generationConfig`): numbers, booleans and enum-like strings
   * (MIME types, modes, levels) kept; schemas reduced to `{type: 'object'}`; other strings redacted.
   */
  settingsOnly(v: unknown, key?: string): unknown {
    if (typeof v === 'string')
      return key !== undefined && /mime|mode|type|level|effort/i.test(key) ? v : this.text(v);
    if (Array.isArray(v)) return v.map((x) => this.settingsOnly(x, key));
    if (v !== null && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v as Record<string, unknown>))
        out[k] = /schema/i.test(k) ? { type: 'object' } : this.settingsOnly(x, k);
      return out;
    }
    return v;
  }

  /**
   * The top level of a request body rebuilt from the normalised fields, for a transcript that
   * has lost its source value (a spread copy of a streamed file's transcript, a faulted or
   * repaired copy made without it). Without it the writer emits a bare message array: the model,
   * thinking setting, tools and system prompt are gone, the token total drops by the system
   * prompt and T1/T2/T4 and A7 go unchecked (issue 6). Formats: Anthropic Messages and OpenAI
   * Chat request bodies; other formats return undefined (the writer's own fallback).
   */
  rebuiltTop(t: Transcript, system: Transcript['system'], tools: ToolDef[] | null): unknown {
    const s = t.settings;
    if (t.format === 'anthropic-messages' && t.listKey === 'messages') {
      // A bare array (settings say nothing, no system, no tools) stays a bare array.
      if (
        s.model === undefined &&
        s.thinking === undefined &&
        system.length === 0 &&
        tools === null
      )
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
    if (t.format === 'openai-chat' && t.listKey === 'messages') {
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
    return undefined;
  }

  /** The source's top level: safe settings kept, system and tools redacted, anything else dropped. */
  top(
    t: Transcript,
    messages: Message[],
    system: Transcript['system'],
    tools: ToolDef[] | null,
  ): unknown {
    const raw = t.raw;
    if (raw === undefined) return this.rebuiltTop(t, system, tools);
    // A log (JSON Lines): every line redacted string by string. The writers drop message lines
    // no message refers to (all of them here: messages are rendered from blocks) and keep the
    // others (session metadata with the system prompt, the model, compaction markers).
    if (Array.isArray(raw)) return raw.map((line) => this.json(line));
    if (raw === null || typeof raw !== 'object')
      return raw === undefined ? undefined : this.json(raw);
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
      if (k === t.listKey) out[k] = [];
      else if (SAFE_TOP_LEVEL.has(k)) out[k] = v;
      else if (SYSTEM_KEYS.has(k)) out[k] = this.json(v);
      else if (TOOL_KEYS.has(k)) out[k] = this.toolish(v);
      else if (k === 'generationConfig' || k === 'generation_config') out[k] = this.settingsOnly(v);
      else if (
        (k === 'response_format' || k === 'output_format') &&
        v !== null &&
        typeof v === 'object'
      )
        out[k] = { type: (v as Record<string, unknown>).type };
    }
    // An OpenAI `chat.completion` response is written from `raw` as a whole: rebuild its choice.
    if (t.listKey === 'choices' && messages[0])
      out.choices = [
        { index: 0, message: toOpenAIChatMessages(messages[0])[0], finish_reason: 'stop' },
      ];
    return out;
  }
}

/**
 * Redact a transcript to its structure, with the maps used.
 * @param t a parsed transcript (any format)
 * @param opts tool names kept or hidden, thinking kept as placeholders or removed, the counter
 * @returns the redacted transcript (every message `raw` undefined, `raw` at the top reduced to
 *   safe settings plus redacted system and tools), the id and name maps, and the number of
 *   placeholders whose token count could not be matched (0 in practice; a warning is added then)
 */
export function redactTranscriptWithMaps(t: Transcript, opts: RedactOptions = {}): Redaction {
  const r = new Redactor(opts);
  const messages = t.messages.map((m) => r.message(m));
  const system = t.system.map((s) => ({ text: r.text(s.text), path: s.path }));
  const tools = t.tools === null ? null : t.tools.map((d) => r.tool(d));
  const transcript: Transcript = {
    format: t.format,
    system,
    tools,
    settings: { ...t.settings },
    usage: t.usage.map((u) => ({ ...u })),
    messages,
    warnings: [...t.warnings],
    listKey: t.listKey,
    raw: r.top(t, messages, system, tools),
  };
  if (r.inexact > 0)
    transcript.warnings.push(
      `Structure-only copy: ${r.inexact} placeholder(s) could not keep their exact token count.`,
    );
  return { transcript, ids: r.ids, names: r.names, inexact: r.inexact };
}

/**
 * Redact a transcript to its structure (see the module comment for what is kept).
 * @example redactTranscript(t, { toolNames: 'hide', counter }) // same exchanges, pairs, verdicts
 */
export function redactTranscript(t: Transcript, opts: RedactOptions = {}): Transcript {
  return redactTranscriptWithMaps(t, opts).transcript;
}
