/**
 * The order of a Claude Code session log's lines: `parentUuid` order (a line after its parent
 * even when it was written first), otherwise file order; sidechain threads after the main thread.
 * Split from claudeCodeJsonl.ts: the parse reads lines in the order these functions give.
 */
import { isObject, type Json, str } from '../util.ts';

/** A parsed line kept for reordering. */
export interface Entry {
  /** Index among parsed lines. */
  pos: number;
  line: number;
  value: Json;
}

/**
 * True when every line's parent (by `parentUuid`, at the first line with that `uuid`) comes
 * before it in the file, or is not in the file at all: the usual log, kept in file order.
 * Most lines name the line just before them as parent, so only the other lines' parents are
 * looked up (a map of every uuid would cost more than the rest of the parse of a 50 MB log).
 * @param lines the parsed lines (their `value`: objects), in file order. O(n), allocation
 *   O(exceptions).
 */
export function inParentOrder(lines: readonly { value: unknown }[]): boolean {
  const field = (i: number, key: 'uuid' | 'parentUuid'): string | undefined => {
    const v = (lines[i] as { value: unknown }).value;
    return isObject(v) ? str(v[key]) : undefined;
  };
  const exceptions: number[] = [];
  let prev: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const p = field(i, 'parentUuid');
    if (p !== undefined && p !== prev) exceptions.push(i);
    const u = field(i, 'uuid');
    if (u !== undefined) prev = u;
  }
  if (exceptions.length === 0) return true;
  // First position of each parent an exception names (-1: not in the file).
  const firstPos = new Map<string, number>();
  for (const i of exceptions) firstPos.set(field(i, 'parentUuid') as string, -1);
  for (let i = 0; i < lines.length; i++) {
    const u = field(i, 'uuid');
    if (u !== undefined && firstPos.get(u) === -1) firstPos.set(u, i);
  }
  for (const i of exceptions)
    if ((firstPos.get(field(i, 'parentUuid') as string) ?? -1) >= i) return false;
  return true;
}

/** File order, except that a line whose parent comes later in the file is placed after it. */
export function parentOrder(entries: Entry[]): Entry[] {
  if (inParentOrder(entries)) return entries;
  const known = new Set<string>();
  for (const e of entries) {
    const u = str(e.value.uuid);
    if (u !== undefined) known.add(u);
  }
  const emitted = new Set<string>();
  const pending = new Map<string, Entry[]>();
  const out: Entry[] = [];
  const emit = (first: Entry) => {
    const stack = [first];
    while (stack.length > 0) {
      const e = stack.pop() as Entry;
      out.push(e);
      const u = str(e.value.uuid);
      if (!u) continue;
      emitted.add(u);
      const kids = pending.get(u);
      if (kids) {
        pending.delete(u);
        for (let k = kids.length - 1; k >= 0; k--) stack.push(kids[k] as Entry);
      }
    }
  };
  for (const e of entries) {
    const p = str(e.value.parentUuid);
    if (p && known.has(p) && !emitted.has(p) && p !== str(e.value.uuid)) {
      const list = pending.get(p) ?? [];
      list.push(e);
      pending.set(p, list);
    } else emit(e);
  }
  // Cycles or parents that never got emitted: keep what is left in file order.
  const placed = new Set(out);
  const rest = [...pending.values()].flat().sort((a, b) => a.pos - b.pos);
  for (const e of rest) if (!placed.has(e)) out.push(e);
  return out;
}

/** Main thread first, then each sidechain thread (grouped by its root), in order of appearance. */
export function threads(ordered: Entry[]): Entry[] {
  if (!ordered.some((e) => e.value.isSidechain === true)) return ordered;
  const parentOf = new Map<string, string>();
  for (const e of ordered) {
    const u = str(e.value.uuid);
    const p = str(e.value.parentUuid);
    if (u && p) parentOf.set(u, p);
  }
  const sideUuids = new Set(
    ordered
      .filter((e) => e.value.isSidechain === true)
      .map((e) => str(e.value.uuid))
      .filter((u): u is string => u !== undefined),
  );
  // Memoised walk to the thread's root: O(n) over the whole log, not O(depth) per line.
  const rootMemo = new Map<string, string>();
  const rootOf = (e: Entry): string => {
    const start = str(e.value.uuid) ?? `#${e.pos}`;
    const path: string[] = [];
    let u = start;
    for (let guard = 0; guard < 100000; guard++) {
      const known = rootMemo.get(u);
      if (known !== undefined) {
        u = known;
        break;
      }
      path.push(u);
      const p = parentOf.get(u);
      if (!p || !sideUuids.has(p)) break;
      u = p;
    }
    for (const x of path) rootMemo.set(x, u);
    return u;
  };
  const main: Entry[] = [];
  const side = new Map<string, Entry[]>();
  for (const e of ordered) {
    if (e.value.isSidechain !== true) main.push(e);
    else {
      const r = rootOf(e);
      const list = side.get(r) ?? [];
      list.push(e);
      side.set(r, list);
    }
  }
  return [...main, ...[...side.values()].flat()];
}
