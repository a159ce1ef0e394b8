/** Growable typed arrays, for tables that a chain of requests extends message by message. */

/** The typed arrays the chain tables grow. */
export type GrowableArray = Uint8Array | Uint32Array | Int32Array | Float64Array;

/**
 * A typed array of at least `n` elements holding `a`'s first `used`: `a` itself when it has
 * room, else a copy of the same kind at least twice as long (so appending one at a time is
 * amortised O(1)).
 */
export function grown<A extends GrowableArray>(a: A, used: number, n: number): A {
  if (a.length >= n) return a;
  const b = new (a.constructor as new (n: number) => A)(Math.max(n, 2 * a.length, 4));
  b.set(a.subarray(0, used));
  return b;
}
