/**
 * Writing a Gemini CLI session back (export, repair, structure-only copy): see `writeGeminiCli`.
 * Reading is in geminiCli.ts.
 */
import type { Block, Message, Transcript } from '../../types.ts';
import { arr, isObject, type Json, str, withList } from '../util.ts';

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
export function writeGeminiCli(t: Transcript): string {
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
