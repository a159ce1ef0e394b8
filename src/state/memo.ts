/**
 * The state's one memo helper, two shapes: per object (`memoWeak`) and per argument list, one
 * slot (`memoN`). Selectors are memoised by the reference of their inputs, never by value.
 */
/**
 * Memoise a one-argument function per object (a WeakMap, not one slot): the tables of the
 * transcript being shown survive a render of another one (the simulator re-rendering the old
 * transcript mid-load evicted one-slot caches, issue 7), and are freed with their object.
 */
export function memoWeak<A extends object, R>(fn: (a: A) => R): (a: A) => R {
  const cache = new WeakMap<A, R>();
  return (a) => {
    if (cache.has(a)) return cache.get(a) as R;
    const r = fn(a);
    cache.set(a, r);
    return r;
  };
}

/**
 * Memoise a function on its arguments' references, one slot: the same arguments (by `Object.is`)
 * as the last call give the last result.
 */
export function memoN<A extends unknown[], R>(fn: (...a: A) => R): (...a: A) => R {
  let last: { args: A; r: R } | null = null;
  return (...args) => {
    if (
      last &&
      last.args.length === args.length &&
      last.args.every((x, i) => Object.is(x, args[i]))
    )
      return last.r;
    const r = fn(...args);
    last = { args, r };
    return r;
  };
}
