/**
 * Same-size placeholders for redacted text.
 *
 * Placeholders are made of the units `x`, `xx`, `xxx`, `xxxx` separated by spaces: each is one
 * token in o200k and cl100k and they never merge across a space, so the count is additive, and
 * no placeholder contains a word of five letters or more.
 */
import type { TextCounter } from '../tokens.ts';

const MAX_UNIT_LETTERS = 4;

/**
 * A placeholder of `k` units (`x`, `xx`, `xxx`, `xxxx`, space-separated) whose length is as close
 * to `len` as `k` units allow: between 2k − 1 and 5k − 1 characters.
 */
export function placeholderText(k: number, len: number): string {
  if (k <= 0) return '';
  const min = 2 * k - 1;
  const max = (MAX_UNIT_LETTERS + 1) * k - 1;
  let extra = Math.max(0, Math.min(len, max) - min);
  const units: string[] = [];
  for (let i = 0; i < k; i++) {
    const add = Math.min(MAX_UNIT_LETTERS - 1, extra);
    extra -= add;
    units.push('x'.repeat(1 + add));
  }
  return units.join(' ');
}

/**
 * Find a placeholder `p` such that `counter.count(render(p))` equals `target` tokens, with
 * `render(p).length` as close to `targetLen` as possible.
 * @returns the placeholder and whether the count matched exactly (it can fail only when the fixed
 *   part of `render` alone already has more tokens than `target`)
 */
export function fitPlaceholder(
  target: number,
  targetLen: number,
  counter: TextCounter,
  render: (p: string) => string = (p) => p,
): { text: string; exact: boolean } {
  const base = render('');
  const baseCount = counter.count(base);
  const len = targetLen - base.length;
  if (target <= baseCount) return { text: '', exact: target === baseCount };
  let k = Math.max(1, target - baseCount);
  let best = { text: '', diff: Math.abs(target - baseCount) };
  const seen = new Set<number>();
  // Units are additive, so each step usually lands exactly; the loop only absorbs merges at the
  // edges of `render` (a letter run touching the placeholder) and the chars/4 rounding.
  for (let step = 0; step < 24 && !seen.has(k); step++) {
    seen.add(k);
    const p = placeholderText(k, len);
    const c = counter.count(render(p));
    if (c === target) return { text: p, exact: true };
    if (Math.abs(c - target) < best.diff) best = { text: p, diff: Math.abs(c - target) };
    k = Math.max(1, k + (target - c));
  }
  // chars/4 and other length-driven counters: walk the length with a fixed unit count.
  for (let l = Math.max(1, len - 8); l <= len + 8; l++) {
    for (const kk of [Math.max(1, Math.ceil((l + 1) / 5)), Math.max(1, Math.floor((l + 1) / 2))]) {
      const p = placeholderText(kk, l);
      if (counter.count(render(p)) === target) return { text: p, exact: true };
    }
  }
  return { text: best.text, exact: false };
}
