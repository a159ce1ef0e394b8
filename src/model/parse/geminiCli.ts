/**
 * Gemini CLI saved sessions (`~/.gemini/tmp/<projectHash>/chats/session-*.json`):
 * `{sessionId, projectHash, startTime, lastUpdated, messages[]}` where each message is
 * `{id, timestamp, type: 'user' | 'gemini' | 'info' | 'error' | …, content, thoughts?, toolCalls?,
 * tokens?, model?}` and a tool call carries its own result:
 * `{id, name, args, status, result: [{functionResponse: {id, name, response}}]}`.
 * Source: the shape of a real saved session (the corpus suite reads one; docs/formats.md#gemini-cli).
 *
 * A `gemini` line becomes an assistant message (text, thoughts as thinking, one tool_use per
 * call); the results it carries become the user turn right after it, as the CLI sends them to
 * the API. Results keep the source line's index as their raw index.
 */
import type { Block, Message, MessageMeta, Result, Transcript, UsageRecord } from '../types.ts';
import type { FormatParser } from './registry.ts';
import { arr, isObject, type Json, jsonDocumentOnly, shapeError, str, withList } from './util.ts';

function isSession(v: unknown): v is Json & { messages: unknown[] } {
  return isObject(v) && Array.isArray(v.messages);
}

function sniff(v: unknown): number {
  if (!isSession(v)) return 0;
  const items = v.messages.filter(isObject);
  if (items.length === 0) return 'projectHash' in v ? 0.5 : 0;
  const known = items.filter(
    (m) =>
      typeof m.type === 'string' &&
      ['user', 'gemini', 'info', 'error', 'warning'].includes(m.type as string),
  ).length;
  if (known / items.length < 0.8 || !items.some((m) => m.type === 'gemini' || m.type === 'user'))
    return 0;
  if (items.some((m) => 'role' in m)) return 0;
  return 'projectHash' in v || 'sessionId' in v ? 0.95 : 0.7;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  const list = arr(content);
  if (!list) return '';
  return list.map((p) => (isObject(p) && typeof p.text === 'string' ? p.text : '')).join('');
}

function resultBlocks(call: Json): Block[] {
  const out: Block[] = [];
  const id = str(call.id) ?? null;
  const isError = call.status === 'error' || call.status === 'cancelled';
  for (const r of arr(call.result) ?? []) {
    const fr = isObject(r) && isObject(r.functionResponse) ? r.functionResponse : null;
    if (!fr) continue;
    const response = fr.response;
    const text =
      isObject(response) && typeof response.output === 'string'
        ? response.output
        : JSON.stringify(response ?? null);
    out.push({
      type: 'tool_result',
      toolUseId: str(fr.id) ?? id,
      isError,
      content: [{ type: 'text', text }],
      ...(str(fr.name) ? { name: str(fr.name) as string } : {}),
    });
  }
  return out;
}

/**
 * A user line's content: its text, then any `functionResponse` parts (a Gemini `Part`, which the
 * CLI's `PartListUnion` content allows) as tool results — how a result whose call is not in the
 * session (an eviction cut it) is written back.
 */
function userBlocks(content: unknown): Block[] {
  const parts = arr(content) ?? [];
  if (!parts.some((p) => isObject(p) && isObject(p.functionResponse)))
    return [{ type: 'text', text: textOf(content) }];
  return parts.flatMap((p): Block[] => {
    if (!isObject(p)) return [];
    if (typeof p.text === 'string') return [{ type: 'text', text: p.text }];
    const fr = isObject(p.functionResponse) ? p.functionResponse : null;
    if (!fr) return [];
    const r = fr.response;
    const isError = isObject(r) && 'error' in r && !('output' in r);
    const text =
      isObject(r) && typeof r.output === 'string'
        ? r.output
        : isError && typeof r.error === 'string'
          ? r.error
          : JSON.stringify(r ?? null);
    return [
      {
        type: 'tool_result',
        toolUseId: str(fr.id) ?? null,
        isError,
        content: [{ type: 'text', text }],
        ...(str(fr.name) ? { name: str(fr.name) as string } : {}),
      },
    ];
  });
}

function parse(v: unknown): Result<Transcript> {
  if (!isSession(v))
    return shapeError(
      'Expected a Gemini CLI session: an object with `messages` of `{type: "user" | "gemini", content}`.',
    );
  const messages: Message[] = [];
  const usage: UsageRecord[] = [];
  const warnings: string[] = [
    'Gemini CLI sessions hold neither the system prompt nor the tool definitions: the usage figures include them, the messages do not.',
  ];
  let model: string | undefined;
  let skipped = 0;
  v.messages.forEach((m, pos) => {
    const path = `messages.${pos}`;
    if (!isObject(m)) {
      messages.push({
        index: messages.length,
        rawIndex: pos,
        path,
        role: 'user',
        blocks: [{ type: 'other', label: typeof m, raw: m }],
        raw: m,
      });
      return;
    }
    const meta: MessageMeta = {};
    if (str(m.id)) meta.sourceId = str(m.id) as string;
    if (str(m.timestamp)) meta.timestamp = str(m.timestamp) as string;
    if (m.type === 'user') {
      messages.push({
        index: messages.length,
        rawIndex: pos,
        path,
        role: 'user',
        blocks: userBlocks(m.content),
        raw: m,
        meta,
        stringContent: typeof m.content === 'string',
      });
      return;
    }
    if (m.type !== 'gemini') {
      skipped++;
      return;
    }
    if (str(m.model)) model = str(m.model);
    const blocks: Block[] = [];
    for (const th of arr(m.thoughts) ?? []) {
      if (isObject(th))
        blocks.push({
          type: 'thinking',
          thinking: [str(th.subject), str(th.description)].filter(Boolean).join(': '),
        });
    }
    const text = textOf(m.content);
    if (text.length > 0) blocks.push({ type: 'text', text });
    const calls = (arr(m.toolCalls) ?? []).filter(isObject);
    for (const c of calls)
      blocks.push({
        type: 'tool_use',
        id: str(c.id) ?? null,
        name: str(c.name) ?? '',
        input: c.args ?? {},
      });
    const tokens = isObject(m.tokens) ? m.tokens : null;
    if (tokens) {
      const rec: UsageRecord = { messageIndex: messages.length };
      if (typeof tokens.input === 'number') rec.inputTokens = tokens.input;
      if (typeof tokens.output === 'number') rec.outputTokens = tokens.output;
      if (typeof tokens.cached === 'number') rec.cacheReadTokens = tokens.cached;
      if (typeof tokens.thoughts === 'number') rec.reasoningTokens = tokens.thoughts;
      usage.push(rec);
      if (rec.outputTokens !== undefined) meta.usageOutputTokens = rec.outputTokens;
    }
    messages.push({
      index: messages.length,
      rawIndex: pos,
      path,
      role: 'assistant',
      blocks,
      raw: m,
      meta,
    });
    const results = calls.flatMap(resultBlocks);
    if (results.length > 0) {
      // Not a line of its own in the log: the results the CLI sent back right after this turn.
      messages.push({
        index: messages.length,
        rawIndex: pos,
        path: `${path}.toolCalls`,
        role: 'user',
        blocks: results,
        raw: undefined,
        meta: { ...(meta.timestamp ? { timestamp: meta.timestamp } : {}) },
      });
    }
  });
  if (skipped > 0)
    warnings.push(
      `${skipped} line(s) of other types (info, error, …) are not part of the request and were left out.`,
    );
  return {
    ok: true,
    value: {
      format: 'gemini-cli',
      system: [],
      tools: null,
      settings: model ? { model } : {},
      usage,
      messages,
      warnings,
      listKey: 'messages',
      raw: v,
    },
  };
}

/** A rendered result as the CLI stores it inside its call (`result[].functionResponse`). */
function storedResult(
  b: Extract<Block, { type: 'tool_result' }>,
  name: string,
  loose = false,
): Json {
  const text = b.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
  // Inside a call, the call's status says whether it failed; a loose result says it itself.
  let response: unknown = loose && b.isError ? { error: text } : { output: text };
  // A result the parser read from a non-`output` response (an error object) is its JSON text.
  try {
    const v: unknown = JSON.parse(text);
    if (isObject(v) && typeof v.output !== 'string') response = v;
  } catch {
    // plain text: `{output}`
  }
  return { functionResponse: { id: b.toolUseId, name: b.name ?? name, response } };
}

/** True when `results` holds only answers to calls of `call` (the CLI stores them in the calls). */
function attachable(call: Message | undefined, results: Message): boolean {
  if (call?.role !== 'assistant' || results.role !== 'user') return false;
  const ids = new Set(call.blocks.flatMap((b) => (b.type === 'tool_use' ? [b.id] : [])));
  return (
    results.blocks.length > 0 &&
    results.blocks.every((b) => b.type === 'tool_result' && ids.has(b.toolUseId))
  );
}

/** One session line from a message (new or changed: rendered from its blocks and meta). */
function renderItem(m: Message, results: Message | undefined, model: string | undefined): Json {
  const meta = {
    ...(m.meta?.sourceId !== undefined ? { id: m.meta.sourceId } : {}),
    ...(m.meta?.timestamp !== undefined ? { timestamp: m.meta.timestamp } : {}),
  };
  const text = m.blocks.map((b) => (b.type === 'text' ? b.text : '')).join('');
  if (m.role !== 'assistant') return { ...meta, type: 'user', content: text };
  const answers = (results?.blocks ?? []).filter((b) => b.type === 'tool_result');
  const thoughts = m.blocks.flatMap((b) =>
    b.type === 'thinking' ? [{ subject: '', description: b.thinking }] : [],
  );
  const toolCalls = m.blocks.flatMap((b) => {
    if (b.type !== 'tool_use') return [];
    const mine = answers.filter((r) => r.toolUseId === b.id);
    return [
      {
        id: b.id,
        name: b.name,
        args: b.input,
        status: mine.some((r) => r.isError) ? 'error' : 'success',
        result: mine.map((r) => storedResult(r, b.name)),
      },
    ];
  });
  return {
    ...meta,
    type: 'gemini',
    content: text,
    ...(thoughts.length > 0 ? { thoughts } : {}),
    ...(toolCalls.length > 0 ? { toolCalls } : {}),
    ...(model !== undefined ? { model } : {}),
  };
}

/**
 * A kept line whose calls carry the results of the turn after it: those of its own still in the
 * transcript (the same objects), and new ones (a repair's error result) rendered.
 */
function keptItem(raw: Json, results: Message | undefined): Json {
  const calls = arr(raw.toolCalls);
  if (!calls) return raw;
  const answers = (results?.blocks ?? []).filter((b) => b.type === 'tool_result');
  return {
    ...raw,
    toolCalls: calls.map((c) => {
      if (!isObject(c)) return c;
      const own = (arr(c.result) ?? []).filter(
        (r) => isObject(r) && isObject(r.functionResponse),
      ) as Json[];
      const idOf = (r: Json) => str((r.functionResponse as Json).id) ?? str(c.id) ?? null;
      const mine = answers.filter((b) => b.toolUseId === (str(c.id) ?? null));
      const kept = own.filter((r) => mine.some((b) => b.toolUseId === idOf(r)));
      if (kept.length === mine.length && kept.length === own.length) return c;
      if (mine.length > 0 && kept.length === mine.length) return { ...c, result: kept };
      return {
        ...c,
        status: mine.some((b) => b.isError) ? 'error' : 'success',
        result: mine.map((b) => storedResult(b, str(c.name) ?? '')),
      };
    }),
  };
}

/**
 * Write the session back: `user` and `gemini` lines from the messages (kept ones as they were,
 * new or changed ones rendered), each call carrying the results of the user turn after it;
 * lines of other types (info, error) stay in place. A turn that is not only answers to the calls
 * before it (a result whose call was cut) is a user line of `functionResponse` parts.
 */
function write(t: Transcript): string {
  const src = isObject(t.raw) && Array.isArray(t.raw.messages) ? t.raw.messages : [];
  const out: unknown[] = [];
  let cursor = 0;
  const flushTo = (end: number) => {
    for (; cursor < end; cursor++) {
      const v = src[cursor];
      if (!(isObject(v) && (v.type === 'user' || v.type === 'gemini'))) out.push(v);
    }
  };
  t.messages.forEach((m, i) => {
    const prev = t.messages[i - 1];
    if (m.role === 'user' && m.blocks.some((b) => b.type === 'tool_result')) {
      // Results ride in their calls (the line before). A user turn that is not only answers to
      // those calls (a result whose call an eviction cut, text beside results) is written as a
      // user line of text and `functionResponse` parts, in block order.
      if (attachable(prev, m)) return;
      out.push({
        ...(m.meta?.timestamp !== undefined ? { timestamp: m.meta.timestamp } : {}),
        type: 'user',
        content: m.blocks.flatMap((b) =>
          b.type === 'tool_result'
            ? [storedResult(b, '', true)]
            : b.type === 'text'
              ? [{ text: b.text }]
              : [],
        ),
      });
      return;
    }
    const next = t.messages[i + 1];
    const results = next && attachable(m, next) ? next : undefined;
    if (m.rawIndex >= cursor && m.rawIndex < src.length) flushTo(m.rawIndex + 1);
    out.push(isObject(m.raw) ? keptItem(m.raw, results) : renderItem(m, results, t.settings.model));
  });
  flushTo(src.length);
  const top = isObject(t.raw) ? t.raw : { messages: [] };
  return JSON.stringify(withList(top, 'messages', out), null, 2);
}

export const geminiCliParser: FormatParser = {
  id: 'gemini-cli',
  label: 'Gemini CLI session',
  provider: 'gemini',
  category: 'log',
  resultStyle: 'user',
  expected:
    'a Gemini CLI session: `{sessionId, projectHash, messages: [{type: "user" | "gemini", content, toolCalls?}]}`',
  sniff,
  parse: jsonDocumentOnly(parse, 'A Gemini CLI session is one JSON document, not JSON Lines.'),
  write,
};
