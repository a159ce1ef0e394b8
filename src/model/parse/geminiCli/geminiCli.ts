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
import type { Block, Message, MessageMeta, Result, Transcript, UsageRecord } from '../../types.ts';
import type { FormatParser } from '../registry.ts';
import { writeGeminiCli } from './geminiCliWrite.ts';
import { geminiCliCalls } from '../codex/codexCalls.ts';
import { arr, isObject, type Json, jsonDocumentOnly, shapeError, str } from '../util.ts';

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

/** What the parse carries from session line to session line (one object per parse). */
interface SessionState {
  messages: Message[];
  usage: UsageRecord[];
  model: string | undefined;
  /** Lines of other types (info, error, …): not part of the request. */
  skipped: number;
}

/** A `gemini` line's blocks: thoughts as thinking, then the text, then one tool_use per call. */
function turnBlocks(m: Json, calls: Json[]): Block[] {
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
  for (const c of calls)
    blocks.push({
      type: 'tool_use',
      id: str(c.id) ?? null,
      name: str(c.name) ?? '',
      input: c.args ?? {},
    });
  return blocks;
}

/** A `gemini` line's `tokens` as the usage record of message `messageIndex`. */
function turnUsage(tokens: Json, messageIndex: number): UsageRecord {
  const rec: UsageRecord = { messageIndex };
  if (typeof tokens.input === 'number') rec.inputTokens = tokens.input;
  if (typeof tokens.output === 'number') rec.outputTokens = tokens.output;
  if (typeof tokens.cached === 'number') rec.cacheReadTokens = tokens.cached;
  if (typeof tokens.thoughts === 'number') rec.reasoningTokens = tokens.thoughts;
  return rec;
}

/**
 * A `gemini` line: the assistant message, then the results its calls carry as the user turn
 * right after it (with the line's raw index).
 */
function geminiLine(s: SessionState, m: Json, pos: number, path: string, meta: MessageMeta) {
  const { messages } = s;
  if (str(m.model)) s.model = str(m.model);
  const calls = (arr(m.toolCalls) ?? []).filter(isObject);
  const blocks = turnBlocks(m, calls);
  if (isObject(m.tokens)) {
    const rec = turnUsage(m.tokens, messages.length);
    s.usage.push(rec);
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
}

/** One session line: a user message, a gemini turn (see geminiLine), or a skipped line. */
function sessionLine(s: SessionState, m: unknown, pos: number) {
  const { messages } = s;
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
  if (m.type === 'user')
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
  else if (m.type === 'gemini') geminiLine(s, m, pos, path, meta);
  else s.skipped++;
}

function parse(v: unknown): Result<Transcript> {
  if (!isSession(v))
    return shapeError(
      'Expected a Gemini CLI session: an object with `messages` of `{type: "user" | "gemini", content}`.',
    );
  const s: SessionState = { messages: [], usage: [], model: undefined, skipped: 0 };
  const warnings: string[] = [
    'Gemini CLI sessions hold neither the system prompt nor the tool definitions: the usage figures include them, the messages do not.',
  ];
  v.messages.forEach((m, pos) => sessionLine(s, m, pos));
  if (s.skipped > 0)
    warnings.push(
      `${s.skipped} line(s) of other types (info, error, …) are not part of the request and were left out.`,
    );
  return {
    ok: true,
    value: {
      format: 'gemini-cli',
      system: [],
      tools: null,
      settings: s.model ? { model: s.model } : {},
      usage: s.usage,
      messages: s.messages,
      warnings,
      listKey: 'messages',
      raw: v,
    },
  };
}

export const geminiCliParser: FormatParser = {
  id: 'gemini-cli',
  label: 'Gemini CLI session',
  provider: 'gemini',
  category: 'log',
  resultStyle: 'call',
  // Gemini parts, as the CLI logs them.
  blockWords: { call: 'functionCall', result: 'functionResponse' },
  expected:
    'a Gemini CLI session: `{sessionId, projectHash, messages: [{type: "user" | "gemini", content, toolCalls?}]}`',
  sniff,
  parse: jsonDocumentOnly(parse, 'A Gemini CLI session is one JSON document, not JSON Lines.'),
  write: writeGeminiCli,
  sessionCalls: (_doc, t) => geminiCliCalls(t),
};
