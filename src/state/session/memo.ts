/**
 * The state's one memo helper, two shapes: per object (`memoWeak`) and per argument list, one
 * slot (`memoN`). Selectors are declared at module scope and memoised by the reference of their
 * inputs, never by value; their memo storage is not theirs: it lives in the session's
 * `MemoTable` (session.ts), the one owner of what the page computed from what is loaded. A
 * selector holds only a key into that table, so a new session (a test, `resetSession`) starts
 * with nothing remembered, and no module of the page keeps a cache of its own (the lint rule
 * `cache/no-module-cache`, scripts/eslint/noModuleCache.js).
 */
import { activeSession } from './active.ts';

/** The last call of a one-slot selector: its arguments (by reference) and its result. */
interface Slot {
  args: unknown[];
  r: unknown;
}

/** The memo storage of every selector, owned by one session. */
export class MemoTable {
  /** Per `memoWeak` selector: its results by argument object. */
  private readonly weak = new Map<symbol, WeakMap<object, unknown>>();
  /** Per `memoN` selector: its last call. */
  private readonly slots = new Map<symbol, Slot>();

  /** The results of the `memoWeak` selector `key`. */
  weakOf(key: symbol): WeakMap<object, unknown> {
    let m = this.weak.get(key);
    if (!m) this.weak.set(key, (m = new WeakMap()));
    return m;
  }

  /** The last call of the `memoN` selector `key`, or undefined. */
  slotOf(key: symbol): Slot | undefined {
    return this.slots.get(key);
  }

  /** Remember the last call of the `memoN` selector `key`. */
  setSlot(key: symbol, slot: Slot): void {
    this.slots.set(key, slot);
  }

  /** Forget every result (what they were computed from changed in place: texts read later). */
  clear(): void {
    this.weak.clear();
    this.slots.clear();
  }
}

/** The active session's memo table (read at call time: the session module imports this one). */
function tableNow(): MemoTable {
  return activeSession().memo;
}

/**
 * Memoise a one-argument function per object (a WeakMap, not one slot): the tables of the
 * transcript being shown survive a render of another one (the simulator re-rendering the old
 * transcript mid-load evicted one-slot caches, issue 7), and are freed with their object.
 * The WeakMap is the active session's (`MemoTable`).
 */
export function memoWeak<A extends object, R>(fn: (a: A) => R): (a: A) => R {
  const key = Symbol(fn.name || 'memoWeak');
  return (a) => {
    const cache = tableNow().weakOf(key);
    if (cache.has(a)) return cache.get(a) as R;
    const r = fn(a);
    cache.set(a, r);
    return r;
  };
}

/**
 * Memoise a function on its arguments' references, one slot: the same arguments (by `Object.is`)
 * as the last call give the last result. The slot is the active session's (`MemoTable`).
 */
export function memoN<A extends unknown[], R>(fn: (...a: A) => R): (...a: A) => R {
  const key = Symbol(fn.name || 'memoN');
  return (...args) => {
    const table = tableNow();
    const last = table.slotOf(key);
    if (
      last &&
      last.args.length === args.length &&
      last.args.every((x, i) => Object.is(x, args[i]))
    )
      return last.r as R;
    const r = fn(...args);
    table.setSlot(key, { args, r });
    return r;
  };
}

/**
 * Memoise per object like `memoWeak`, where the function also reads further arguments that belong
 * to that object (its view, its pairs): they are read on a miss only, so they must not change
 * while the object lives. The WeakMap is the active session's.
 */
export function memoWeakBy<A extends object, X extends unknown[], R>(
  fn: (a: A, ...rest: X) => R,
): (a: A, ...rest: X) => R {
  const key = Symbol(fn.name || 'memoWeakBy');
  return (a, ...rest) => {
    const cache = tableNow().weakOf(key);
    if (cache.has(a)) return cache.get(a) as R;
    const r = fn(a, ...rest);
    cache.set(a, r);
    return r;
  };
}

/**
 * Memoise on the first `n` arguments' references, one slot, like `memoN`; the arguments after
 * them are read on a miss only (a result whose fields the first `n` name). The slot is the active
 * session's.
 */
export function memoLead<A extends unknown[], R>(n: number, fn: (...a: A) => R): (...a: A) => R {
  const key = Symbol(fn.name || 'memoLead');
  return (...args) => {
    const table = tableNow();
    const last = table.slotOf(key);
    const lead = args.slice(0, n);
    if (last && last.args.every((x, i) => Object.is(x, lead[i]))) return last.r as R;
    const r = fn(...args);
    table.setSlot(key, { args: lead, r });
    return r;
  };
}
