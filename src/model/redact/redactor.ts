/**
 * The redactor of one transcript: same-size placeholders for content, renamed ids, tool names
 * kept or hidden. One instance per redaction, so every rename is consistent across messages,
 * tool definitions and the source's other lines.
 */
import { ownRecord } from '../own.ts';
import { CHARS_PER_4, type TextCounter } from '../tokens.ts';
import type { Block, Message, ToolDef } from '../types.ts';
import { fitPlaceholder } from './placeholders.ts';
import { Renames, isIdKey, isTimeNumberKey, isTimestamp, publicModel } from './renames.ts';
import { parseJsonBounded } from '../parse/json.ts';
import { inVocabulary } from './vocabulary.ts';

export interface RedactOptions {
  /**
   * `keep` (default) leaves tool names as they are: they are the tools' own names (`bash`,
   * `read_file`), rarely a secret, and the provider's error texts and the arcs stay readable;
   * `hide` renames them `A`, `B000`, … (a letter padded with zeros to the original token count).
   */
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

/**
 * Keys whose string value is a schema word the parsers read: kept when it is a word of the
 * vocabulary (`vocabulary.ts`), else a placeholder like any text (issue 37: an email under
 * `toolUseResult.type`, a phone number under `subtype` were copied as they were).
 */
const STRUCTURAL_STRING_KEYS = new Set([
  'type',
  'subtype',
  'role',
  'media_type',
  'mimeType',
  'stop_reason',
  'object',
  // Claude Code's compact boundary: `auto` or `manual` (vocabulary, not content).
  'trigger',
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

/** Counted text of a tool_use, as `countableText` in tokens.ts builds it. */
function callText(name: string, input: unknown): string {
  return name + (typeof input === 'string' ? input : (JSON.stringify(input ?? {}) ?? ''));
}

/** Text of result content as `countableText` concatenates it. */
function contentText(bs: readonly Block[]): string {
  return bs
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
}

export class Redactor {
  readonly renames = new Renames();
  readonly names = new Map<string, string>();
  inexact = 0;
  readonly counter: TextCounter;
  private readonly hideNames: boolean;
  private readonly dropThinking: boolean;
  private readonly memo = new Map<string, string>();

  constructor(opts: RedactOptions) {
    this.counter = opts.counter ?? CHARS_PER_4;
    this.hideNames = opts.toolNames === 'hide';
    this.dropThinking = opts.thinking === 'remove';
  }

  get ids(): Map<string, string> {
    return this.renames.ids;
  }

  id(id: string): string;
  id(id: string | null): string | null;
  id(id: string | null): string | null {
    return this.renames.id(id);
  }

  /** A tool name as shared: itself, or (hidden) a letter padded to the same token count. */
  name(name: string): string {
    if (!this.hideNames || name === '') {
      this.names.set(name, name);
      return name;
    }
    let r = this.names.get(name);
    if (r === undefined) {
      // A letter padded with zeros to the original name's token count, so that a call with an
      // empty input keeps its size (`get_user_country` → `A000000`); of the paddings that count
      // the same, the one closest to the name's length, so the name counts the same inside a
      // longer string too (an AI SDK part's `tool-<name>`). No separator: `_x` units kept each
      // name's underscore pattern (issue 41).
      const n = this.names.size;
      const letter = n < 26 ? String.fromCharCode(65 + n) : `T${n}`;
      const target = this.counter.count(name);
      r = letter;
      let best = Number.POSITIVE_INFINITY;
      for (let k = 0; k <= 4 * target + 8; k++) {
        const candidate = letter + '0'.repeat(k);
        if (this.counter.count(candidate) !== target) continue;
        const off = Math.abs(candidate.length - name.length);
        if (off < best) [best, r] = [off, candidate];
      }
      this.names.set(name, r);
    }
    return r;
  }

  fit(target: number, targetLen: number, render?: (p: string) => string): string {
    const r = fitPlaceholder(target, targetLen, this.counter, render);
    if (!r.exact) this.inexact++;
    return r.text;
  }

  /**
   * A free text (message text, system part, description): empty and whitespace-only stay, and so
   * does the whitespace around a text. A text
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
    } else {
      // Leading and trailing whitespace stays: rules read it (a final assistant text ending in
      // whitespace, A12), and the placeholder is fitted to the count with it around.
      const lead = s.slice(0, s.length - s.trimStart().length);
      const trail = s.slice(s.trimEnd().length);
      const fitted = this.fit(target, s.length, (p) => lead + p + trail);
      out = lead + fitted + trail;
    }
    this.memo.set(s, out);
    return out;
  }

  /**
   * Any JSON value outside the messages' blocks (log lines, system parts, unknown items):
   * schema strings kept, ids renamed, date-times on the relative clock, models to their public
   * base, every other string a placeholder; numbers and booleans stay (times shifted).
   */
  json(v: unknown, key?: string): unknown {
    if (typeof v === 'string') {
      if (key !== undefined) {
        if (STRUCTURAL_STRING_KEYS.has(key) && inVocabulary(v)) return v;
        if (key === 'model' || key === 'modelId') return publicModel(v);
        if (isIdKey(key)) return this.id(v);
      }
      return isTimestamp(v) ? this.renames.clock(v) : this.text(v);
    }
    if (typeof v === 'number')
      return key !== undefined && isTimeNumberKey(key) ? this.renames.clockNumber(v) : v;
    if (Array.isArray(v)) return v.map((x) => this.json(x));
    if (v !== null && typeof v === 'object') {
      const out: Record<string, unknown> = ownRecord();
      for (const [k, x] of Object.entries(v as Record<string, unknown>))
        out[this.renames.key(k)] = this.json(x, k);
      return out;
    }
    return v;
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
      case 'tool_use':
        return this.toolUse(b);
      case 'tool_result':
        return {
          type: 'tool_result',
          toolUseId: this.id(b.toolUseId),
          isError: b.isError,
          ...(b.isErrorFalse ? { isErrorFalse: true as const } : {}),
          content: this.resultContent(b.content),
          ...(b.server !== undefined ? { server: b.server } : {}),
          ...(b.name !== undefined ? { name: this.name(b.name) } : {}),
        };
      case 'other':
        return { type: 'other', label: b.label, raw: this.other(b.raw, b.label) };
    }
  }

  /** A call: name kept or hidden, input one placeholder fitted to the name + input count. */
  private toolUse(b: Extract<Block, { type: 'tool_use' }>): Block {
    const name = this.name(b.name);
    const original = callText(b.name, b.input);
    const target = this.counter.count(original);
    let input: unknown;
    const empty =
      b.input === undefined ||
      b.input === null ||
      (typeof b.input === 'object' && Object.keys(b.input).length === 0);
    if (typeof b.input === 'string') input = this.fit(target, original.length, (p) => name + p);
    else {
      const r = fitPlaceholder(target, original.length, this.counter, (p) =>
        callText(name, { _: p }),
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
        candidates.find((c) => this.counter.count(callText(name, c)) === target) ?? candidates[0];
      if (this.counter.count(callText(name, input)) !== target) this.inexact++;
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
      ...(b.legacy ? { legacy: true as const } : {}),
    };
  }

  /** An unknown block's raw value: its kind and one placeholder of the same token count. */
  private other(raw: unknown, label: string): unknown {
    if (raw === null || typeof raw === 'number' || typeof raw === 'boolean' || raw === undefined)
      return raw;
    const original = JSON.stringify(raw) ?? '';
    const target = this.counter.count(original);
    if (typeof raw === 'object' && !Array.isArray(raw)) {
      const type = (raw as Record<string, unknown>).type;
      // The part's kind as the format spells it: a `type` field, or a key holding the part
      // (Gemini's `executableCode`, Bedrock's `guardContent`), so the copy reads back the same.
      const shell = (p: string): Record<string, unknown> =>
        typeof type === 'string'
          ? { type, _: p }
          : label in raw
            ? { [label]: { _: p } }
            : { type: label, _: p };
      return shell(this.fit(target, original.length, (p) => JSON.stringify(shell(p))));
    }
    return this.fit(target, original.length, (p) => JSON.stringify(p));
  }

  /**
   * A tool result's content: each block redacted, then the last text re-fitted so that the
   * concatenation (what `countableText` counts) keeps its token count.
   */
  private resultContent(content: Block[]): Block[] {
    const out = content.map((c) => this.block(c)).filter((c): c is Block => c !== null);
    if (out.length < 2) return out;
    const target = this.counter.count(contentText(content));
    if (this.counter.count(contentText(out)) === target) return out;
    const last = out
      .map((c, i) => (c.type === 'text' && c.text.trim() !== '' ? i : -1))
      .filter((i) => i >= 0)
      .pop();
    if (last === undefined) return out;
    const before = contentText(out.slice(0, last));
    const after = contentText(out.slice(last + 1));
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

  /** A message rebuilt from its redacted blocks (`raw` undefined: the writer renders it). */
  message(m: Message): Message {
    const blocks = m.blocks.map((b) => this.block(b)).filter((b): b is Block => b !== null);
    const meta = m.meta
      ? {
          ...m.meta,
          ...(m.meta.sourceId !== undefined ? { sourceId: this.id(m.meta.sourceId) } : {}),
          ...(m.meta.timestamp !== undefined
            ? { timestamp: this.renames.clock(m.meta.timestamp) }
            : {}),
          // DeepSeek's reasoning: present or not is what a rule reads (D4); its text goes.
          ...(m.meta.reasoning !== undefined ? { reasoning: '' } : {}),
        }
      : undefined;
    return {
      index: m.index,
      rawIndex: m.rawIndex,
      ...(m.rawLine !== undefined ? { rawLine: m.rawLine } : {}),
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
}
