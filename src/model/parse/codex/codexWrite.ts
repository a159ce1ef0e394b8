/**
 * Writing a Codex rollout back (export, repair, structure-only copy): see `writeCodex`. Reading
 * is in codexJsonl.ts.
 */
import type { Message, Transcript } from '../../types.ts';
import { mediaPart } from '../openaiResponses/openaiResponsesWrite.ts';
import { argumentsText, isMedia, isObject, type Json, lineOf, str } from '../util.ts';

/** The `reasoning` item of a message's thinking and encrypted reasoning blocks, or null. */
function reasoningPayload(m: Message): Json | null {
  const thinking = m.blocks.filter((b) => b.type === 'thinking');
  const sealed = m.blocks.find((b) => b.type === 'redacted_thinking');
  if (thinking.length === 0 && !sealed) return null;
  return {
    type: 'reasoning',
    ...(sealed?.itemId !== undefined ? { id: sealed.itemId } : {}),
    summary: thinking.map((b) => ({ type: 'summary_text', text: b.thinking })),
    // Opaque: only its size is read (never counted as text).
    ...(sealed ? { encrypted_content: 'x'.repeat(sealed.bytes) } : {}),
  };
}

/** Render a new or changed message as rollout `response_item` lines (`timestamp` from `at`). */
function renderLines(m: Message, at: string | undefined): Json[] {
  const timestamp = at ?? m.meta?.timestamp ?? new Date(0).toISOString();
  const line = (payload: Json): Json => ({ timestamp, type: 'response_item', payload });
  const out: Json[] = [];
  const text: Json[] = [];
  const reasoning = reasoningPayload(m);
  if (reasoning) out.push(line(reasoning));
  for (const b of m.blocks) {
    if (b.type === 'text')
      text.push({ type: m.role === 'assistant' ? 'output_text' : 'input_text', text: b.text });
    else if (isMedia(b)) text.push(mediaPart(b));
    else if (b.type === 'tool_use')
      out.push(
        line({
          type: 'function_call',
          ...(b.itemId !== undefined ? { id: b.itemId } : {}),
          name: b.name,
          arguments: argumentsText(b.input),
          call_id: b.id,
        }),
      );
    else if (b.type === 'tool_result')
      out.push(
        line({
          type: 'function_call_output',
          call_id: b.toolUseId,
          output: b.content.map((c) => (c.type === 'text' ? c.text : '')).join(''),
        }),
      );
    else if (b.type === 'other' && isObject(b.raw)) out.push(line(b.raw));
  }
  if (text.length > 0)
    out.unshift(
      line({
        type: 'message',
        ...(m.meta?.sourceId !== undefined && m.blocks.every((b) => b.type === 'text')
          ? { id: m.meta.sourceId }
          : {}),
        role: m.role === 'tool' ? 'user' : m.role,
        content: text,
      }),
    );
  return out;
}

/**
 * Write the rollout back as JSON Lines: every non-item line as it was, the lines of kept items
 * as they were, removed items dropped, new or changed items rendered as `response_item` lines —
 * at their source line's place (with its timestamp) when that line is still ahead, so a
 * redacted or repaired item stays before the rollbacks and compactions that follow it.
 */
export function writeCodex(t: Transcript): string {
  const all = Array.isArray(t.raw) ? (t.raw as unknown[]) : [];
  const items = new Set<unknown>(all.filter((v) => isObject(v) && v.type === 'response_item'));
  const kept = new Set<unknown>(t.messages.map((m) => m.raw).filter((r) => r !== undefined));
  const pos = new Map<unknown, number>();
  all.forEach((v, i) => pos.set(v, i));
  const out: unknown[] = [];
  let cursor = 0;
  const flushTo = (end: number) => {
    for (; cursor < end; cursor++) {
      const v = all[cursor];
      if (items.has(v) && !kept.has(v)) continue;
      out.push(v);
    }
  };
  for (const m of t.messages) {
    const p = m.raw !== undefined ? pos.get(m.raw) : undefined;
    if (p === undefined) {
      const at = all[lineOf(m)];
      const source = items.has(at) && !kept.has(at) && isObject(at) ? at : null;
      if (source && lineOf(m) >= cursor) flushTo(lineOf(m) + 1);
      out.push(...renderLines(m, source ? str(source.timestamp) : undefined));
    } else if (p >= cursor) flushTo(p + 1);
  }
  flushTo(all.length);
  return out.map((v) => JSON.stringify(v)).join('\n') + '\n';
}
