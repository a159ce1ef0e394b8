/**
 * Keyboard and find navigation over message indices (ours). Pure, so it is unit-tested without a
 * DOM. `current` is the selected message, or -1 when nothing is selected.
 */
import type { Grouping } from '../model/exchanges.ts';

/** Next (dir 1) or previous (dir -1) message, clamped to [0, count). */
export function stepMessage(count: number, current: number, dir: 1 | -1): number {
  if (count === 0) return -1;
  if (current < 0) return dir === 1 ? 0 : count - 1;
  return Math.max(0, Math.min(count - 1, current + dir));
}

/**
 * First message of the next (or previous) exchange. From inside an exchange, "previous" goes to
 * its own first message unless already there. Pinned messages (no exchange) count as before the
 * next exchange.
 */
export function stepExchange(g: Grouping, current: number, dir: 1 | -1): number {
  const xs = g.exchanges;
  if (xs.length === 0) return current;
  if (current < 0) return (dir === 1 ? xs[0] : xs[xs.length - 1])?.first ?? -1;
  // Exchanges are in order of their first message: binary search for the first exchange that
  // starts after `current` (J/K on a 67,000-message log must not walk every exchange).
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((xs[mid]?.first ?? 0) > current) hi = mid;
    else lo = mid + 1;
  }
  if (dir === 1) return lo < xs.length ? (xs[lo]?.first ?? current) : current;
  // The last exchange starting before `current`: the one before `lo`, unless it starts at it.
  let i = lo - 1;
  while (i >= 0 && (xs[i]?.first ?? 0) >= current) i--;
  return i >= 0 ? (xs[i]?.first ?? current) : current;
}

/** The next item of a sorted list after `current`, wrapping around; -1 for an empty list. */
export function nextInList(sorted: readonly number[], current: number, dir: 1 | -1 = 1): number {
  if (sorted.length === 0) return -1;
  if (dir === 1) return sorted.find((m) => m > current) ?? (sorted[0] as number);
  for (let i = sorted.length - 1; i >= 0; i--)
    if ((sorted[i] as number) < current) return sorted[i] as number;
  return sorted[sorted.length - 1] as number;
}
