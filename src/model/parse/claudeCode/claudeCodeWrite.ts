/**
 * Writing a Claude Code session log back (export, repair, structure-only copy): see
 * `writeClaudeCode`. Reading is in claudeCodeJsonl.ts.
 */
import type { Block, Message, Transcript } from '../../types.ts';
import { toAnthropicBlock } from '../anthropicMessages/anthropicWrite.ts';
import { isObject, type Json, lineOf, str } from '../util.ts';

let newLines = 0;

const isMessageLine = (v: unknown): v is Json =>
  isObject(v) && (v.type === 'user' || v.type === 'assistant') && isObject(v.message);

/**
 * The record positions of a reply's lines from `at`: the assistant lines with its `message.id`, in
 * file order, up to an assistant line of another id (tool results written between them are not
 * its lines), as the parser joins them.
 */
function replyLines(all: readonly unknown[], at: number): number[] {
  const first = all[at];
  if (!isMessageLine(first) || first.type !== 'assistant') return [at];
  const id = str((first.message as Json).id);
  const out = [at];
  for (let i = at + 1; id !== undefined && i < all.length; i++) {
    const v = all[i];
    if (!isMessageLine(v) || v.type !== 'assistant') continue;
    if (str((v.message as Json).id) !== id) break;
    out.push(i);
  }
  return out;
}

/**
 * The usage of a reply written over several lines (`lines`, from `replyLines`): the largest, as
 * the parser counts it, so a reply rendered as one line keeps its figures.
 */
function replyUsage(all: readonly unknown[], lines: readonly number[]): unknown {
  const out = (u: unknown) =>
    isObject(u) && typeof u.output_tokens === 'number' ? u.output_tokens : -1;
  let best: unknown = undefined;
  for (const i of lines) {
    const u = ((all[i] as Json).message as Json).usage;
    if (best === undefined || out(u) >= out(best)) best = u;
  }
  return best;
}

/** How many blocks a line's `message.content` reads as (claudeCodeJsonl.ts `contentBlocks`). */
function blockCount(c: unknown): number {
  if (Array.isArray(c)) return c.length;
  return c === undefined || c === null ? 0 : 1;
}

/** A line's content: a string when the line had one and the blocks are one text, else blocks. */
function lineContent(blocks: readonly Block[], asString: boolean): unknown {
  return asString && blocks.length === 1 && blocks[0]?.type === 'text'
    ? blocks[0].text
    : blocks.map(toAnthropicBlock);
}

/** A source line with new content (and the reply's usage when given): its other fields kept. */
function overLine(line: Json, content: unknown, usage: unknown): Json {
  const message = line.message as Json;
  return {
    ...line,
    message: { ...message, content, ...(usage !== undefined ? { usage } : {}) },
  };
}

/**
 * Render a new message as one Claude Code line, chained to `parentUuid`, in `sessionId`.
 */
function newLine(
  m: Message,
  parentUuid: string | null,
  model: string | undefined,
  sessionId: string,
): Json {
  const role = m.role === 'assistant' ? 'assistant' : 'user';
  const content = lineContent(m.blocks, m.stringContent === true);
  return {
    type: role,
    uuid: `inspector-${++newLines}`,
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
 * A new or changed message over the source lines at its position (`at`, same role, not used
 * yet): the lines it was read from, each with its share of the blocks, when their counts add up
 * (a redacted or re-read reply keeps its lines, uuids and per-line usage); else one line over the
 * first, with the reply's usage (an edited reply: the parents of its other lines are re-pointed
 * by `repointParents`). Null when there is no such line.
 */
function overSource(
  m: Message,
  all: readonly unknown[],
  free: (p: number) => boolean,
  splitOk: boolean,
): { at: number; line: Json }[] | null {
  const at = lineOf(m);
  const first = all[at];
  const role = m.role === 'assistant' ? 'assistant' : 'user';
  if (!isMessageLine(first) || first.type !== role || !free(at)) return null;
  if (role === 'user')
    return [
      { at, line: overLine(first, lineContent(m.blocks, m.stringContent === true), undefined) },
    ];
  const lines = replyLines(all, at).filter(free);
  const counts = lines.map((p) => blockCount(((all[p] as Json).message as Json).content));
  if (splitOk && lines.length > 1 && counts.reduce((a, b) => a + b, 0) === m.blocks.length) {
    let k = 0;
    return lines.map((p, i) => {
      const line = all[p] as Json;
      const share = m.blocks.slice(k, (k += counts[i] as number));
      const content = lineContent(share, typeof (line.message as Json).content === 'string');
      return { at: p, line: overLine(line, content, undefined) };
    });
  }
  const content = lineContent(m.blocks, m.stringContent === true);
  return [{ at, line: overLine(first, content, replyUsage(all, lines)) }];
}

/**
 * Parents that name a source line the file no longer has (the other lines of a reply written as
 * one, a removed message's line) re-pointed to the nearest ancestor it has, or null: the chain a
 * resumed session follows stays whole. A parent the source itself left dangling stays.
 */
function repointParents(all: readonly unknown[], out: unknown[]): unknown[] {
  const parentOf = new Map<string, unknown>();
  for (const v of all)
    if (isObject(v) && typeof v.uuid === 'string' && !parentOf.has(v.uuid))
      parentOf.set(v.uuid, v.parentUuid);
  const written = new Set<string>();
  for (const v of out) if (isObject(v) && typeof v.uuid === 'string') written.add(v.uuid);
  const nearest = (p: string): unknown => {
    const seen = new Set<string>();
    let q: unknown = p;
    while (typeof q === 'string' && !written.has(q) && parentOf.has(q) && !seen.has(q)) {
      seen.add(q);
      q = parentOf.get(q);
    }
    return typeof q === 'string' && !written.has(q) && parentOf.has(q) ? null : (q ?? null);
  };
  return out.map((v) =>
    isObject(v) &&
    typeof v.parentUuid === 'string' &&
    !written.has(v.parentUuid) &&
    parentOf.has(v.parentUuid)
      ? { ...v, parentUuid: nearest(v.parentUuid) }
      : v,
  );
}

/**
 * Write the log back as JSON Lines. Lines of untouched messages and every non-message line
 * (progress, attachments, snapshots) are written as they were, in file order; lines of removed
 * messages are dropped. A new or changed message (raw undefined) is written over its source lines
 * when they are message lines of the same role not used yet (`overSource`: a redacted or repaired
 * copy keeps its session, uuid chain and position among the other lines), else as one new line
 * after the line before it, chained by `parentUuid`. Parents of dropped lines are re-pointed
 * (`repointParents`), so every parent the file names is in it, as in the source.
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
  const pending = new Map<number, Json>();
  let lastUuid: string | null = null;
  const put = (v: unknown) => {
    if (written.has(v)) return;
    written.add(v);
    out.push(v);
    if (isObject(v) && typeof v.uuid === 'string') lastUuid = v.uuid;
  };
  let cursor = 0;
  const flushTo = (end: number) => {
    for (; cursor < end; cursor++) {
      const v = all[cursor];
      const rendered = pending.get(cursor);
      pending.delete(cursor);
      if (rendered) put(rendered);
      else if (!messageLines.has(v) || keptLines.has(v)) put(v);
    }
  };
  const session = all.find((v) => isObject(v) && typeof v.sessionId === 'string');
  const sessionId = isObject(session) ? (session.sessionId as string) : 'inspector-session';
  const used = new Set<number>();
  const free = (p: number) => !used.has(p) && !keptLines.has(all[p]);
  for (const m of t.messages) {
    const lines = linesOf(m).filter((l) => pos.has(l));
    if (m.raw === undefined || lines.length === 0) {
      const over = overSource(m, all, free, lineOf(m) >= cursor);
      if (!over) {
        // After the line before it: the rest of a reply written over its lines included.
        if (pending.size > 0) flushTo(Math.max(...pending.keys()) + 1);
        put(newLine(m, lastUuid, t.settings.model, sessionId));
        continue;
      }
      for (const { at } of over) used.add(at);
      const [head, ...rest] = over as [{ at: number; line: Json }, ...{ at: number; line: Json }[]];
      if (head.at >= cursor) flushTo(head.at + 1);
      put(head.line);
      for (const r of rest) pending.set(r.at, r.line);
      continue;
    }
    for (const l of lines) {
      const p = pos.get(l) as number;
      if (p >= cursor) flushTo(p + 1);
      else put(l);
    }
  }
  flushTo(all.length);
  return (
    repointParents(all, out)
      .map((v) => JSON.stringify(v))
      .join('\n') + '\n'
  );
}
