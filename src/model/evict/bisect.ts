/**
 * Position of the first element greater than `x` in an ascending list (binary search).
 * @returns an index in [0, list.length]
 */
export function firstAfter(list: Int32Array, x: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((list[mid] as number) > x) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
