/**
 * Writing a Claude Code session log back (export, repair, structure-only copy): see
 * `writeClaudeCode`. Reading is in claudeCodeJsonl.ts.
 */
import type { Message, Transcript } from '../types.ts';
import { toAnthropicBlock } from './anthropicWrite.ts';
import { isObject, type Json, lineOf, str } from './util.ts';

let newLine = 0;

const isMessageLine = (v: unknown): v is Json =>
  isObject(v) && (v.type === 'user' || v.type === 'assistant') && isObject(v.message);

/**
 * The usage of a reply written over several lines (same `message.id`, consecutive from `at`):
 * the largest, as the parser counts it, so a reply rendered as one line keeps its figures.
 */
function replyUsage(all: readonly unknown[], at: number): unknown {
  const first = all[at];
  if (!isMessageLine(first) || !isObject(first.message)) return undefined;
  const id = str(first.message.id);
  let best: unknown = first.message.usage;
  const out = (u: unknown) =>
    isObject(u) && typeof u.output_tokens === 'number' ? u.output_tokens : -1;
  for (let i = at + 1; id !== undefined && i < all.length; i++) {
    const v = all[i];
    if (!isMessageLine(v) || v.type !== 'assistant') continue;
    if (str((v.message as Json).id) !== id) break;
    const u = (v.message as Json).usage;
    if (out(u) >= out(best)) best = u;
  }
  return best;
}

/**
 * Render a new or changed message as one Claude Code line. With `template` (the source line at
 * the message's position, same role), the line keeps that line's fields — session id, uuid and
 * parent, flags, model, message id, usage — and only its content changes: a redacted or edited
 * message reads back as the same message of the same session.
 */
function renderLine(
  m: Message,
  parentUuid: string | null,
  model: string | undefined,
  template: { line: Json; usage: unknown } | null,
  sessionId: string,
): Json {
  const role = m.role === 'assistant' ? 'assistant' : 'user';
  const content =
    m.stringContent && m.blocks.length === 1 && m.blocks[0]?.type === 'text'
      ? m.blocks[0].text
      : m.blocks.map(toAnthropicBlock);
  if (template) {
    const message = template.line.message as Json;
    return {
      ...template.line,
      message: {
        ...message,
        content,
        ...(template.usage !== undefined ? { usage: template.usage } : {}),
      },
    };
  }
  return {
    type: role,
    uuid: `inspector-${++newLine}`,
    parentUuid,
    // Every message line names its session: a log without it is not read as Claude Code.
    sessionId,
    isSidechain: m.meta?.sidechain === true,
    ...(m.meta?.compactSummary ? { isCompactSummary: true } : {}),
    message:
      role === 'assistant'
        ? {
            ...(m.meta?.sourceId ? { id: m.meta.sourceId } : {}),
            type: 'message',
            role,
            ...(model ? { model } : {}),
            content,
          }
        : { role, content },
  };
}

/**
 * Write the log back as JSON Lines. Lines of untouched messages and every non-message line
 * (progress, attachments, snapshots) are written as they were, in file order; lines of removed
 * messages are dropped. A new or changed message (raw undefined) becomes one line: at its source
 * line's place and over that line's fields when that line is a message line of the same role not
 * used yet (a redacted or repaired copy keeps its session, uuid chain and position among the
 * other lines), else after the line before it, chained by `parentUuid`.
 */
export function writeClaudeCode(t: Transcript): string {
  const all = Array.isArray(t.raw) ? (t.raw as unknown[]) : [];
  const keptLines = new Set<unknown>();
  const messageLines = new Set<unknown>();
  for (const v of all) if (isMessageLine(v)) messageLines.add(v);
  const linesOf = (m: Message): unknown[] =>
    Array.isArray(m.raw) ? (m.raw as unknown[]) : m.raw !== undefined ? [m.raw] : [];
  for (const m of t.messages) for (const l of linesOf(m)) keptLines.add(l);
  const pos = new Map<unknown, number>();
  all.forEach((v, i) => pos.set(v, i));
  const out: unknown[] = [];
  const written = new Set<unknown>();
  const put = (v: unknown) => {
    if (written.has(v)) return;
    written.add(v);
    out.push(v);
  };
  let cursor = 0;
  let lastUuid: string | null = null;
  const flushTo = (end: number) => {
    for (; cursor < end; cursor++) {
      const v = all[cursor];
      if (messageLines.has(v) && !keptLines.has(v)) continue;
      put(v);
      if (isObject(v) && typeof v.uuid === 'string') lastUuid = v.uuid;
    }
  };
  const session = all.find((v) => isObject(v) && typeof v.sessionId === 'string');
  const sessionId = isObject(session) ? (session.sessionId as string) : 'inspector-session';
  const usedTemplates = new Set<unknown>();
  const templateFor = (m: Message): { line: Json; usage: unknown } | null => {
    const at = all[lineOf(m)];
    const role = m.role === 'assistant' ? 'assistant' : 'user';
    if (!isMessageLine(at) || at.type !== role || usedTemplates.has(at) || keptLines.has(at))
      return null;
    usedTemplates.add(at);
    return { line: at, usage: role === 'assistant' ? replyUsage(all, lineOf(m)) : undefined };
  };
  for (const m of t.messages) {
    const lines = linesOf(m).filter((l) => pos.has(l));
    if (m.raw === undefined || lines.length === 0) {
      const template = templateFor(m);
      if (template && lineOf(m) >= cursor) flushTo(lineOf(m) + 1);
      const line = renderLine(m, lastUuid, t.settings.model, template, sessionId);
      out.push(line);
      if (typeof line.uuid === 'string') lastUuid = line.uuid;
      continue;
    }
    for (const l of lines) {
      const p = pos.get(l) as number;
      if (p >= cursor) flushTo(p + 1);
      else put(l);
    }
  }
  flushTo(all.length);
  return out.map((v) => JSON.stringify(v)).join('\n') + '\n';
}
