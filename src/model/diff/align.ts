/**
 * Aligning two message lists (issue 33): identity first (a message's place in a shared source,
 * its tool-call ids), then a longest common subsequence over content keys (role and blocks).
 *
 * Near-linear in the common cases, a cut and an append: identity anchors and the common prefix
 * and suffix are O(n); the anchors' longest increasing run is O(k log k); only what is left
 * between them goes to Myers' diff (the `diff` library, bounded in edit length), and a large
 * gap with no anchor is matched as a subsequence when it is one (O(n)), else left unmatched.
 */
import { diffArrays } from 'diff';

/** The matched pairs of an alignment. */
export interface Alignment {
  /** For each left message, the right message it is matched with, or −1. */
  leftTo: Int32Array;
  /** For each right message, the left message it is matched with, or −1. */
  rightTo: Int32Array;
  /** Right messages matched out of order (their pair is not on the common subsequence). */
  moved: Uint8Array;
}

export interface AlignInput {
  /** Content keys (interned: equal numbers, equal role and blocks). */
  left: Int32Array;
  right: Int32Array;
  /**
   * Identity keys per side (interned; −1: none), strongest first: a message's place in a shared
   * source, then its tool ids. A key unique on both sides pairs the two messages whatever
   * their content.
   */
  identities: { left: Int32Array; right: Int32Array }[];
  /**
   * Break ties toward the end: when the right side is shorter (a cut keeps the recent
   * messages), repeated content is matched from the end; else (an append) from the start.
   */
  preferTail: boolean;
}

/** Myers' diff is used on a gap when its two sides' product is at most this. */
const MYERS_AREA = 1 << 20;
/** …and with at most this many edits (past it, the gap is matched as a subsequence, or not at all). */
const MYERS_EDITS = 4000;

/**
 * The longest strictly increasing run of `js` (in the given order), as positions into `js`.
 * O(k log k).
 */
export function longestIncreasing(js: ArrayLike<number>): number[] {
  const k = js.length;
  const tails = new Int32Array(k);
  const prev = new Int32Array(k).fill(-1);
  let len = 0;
  for (let x = 0; x < k; x++) {
    const v = js[x] as number;
    let lo = 0;
    let hi = len;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((js[tails[mid] as number] as number) < v) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) prev[x] = tails[lo - 1] as number;
    tails[lo] = x;
    if (lo === len) len++;
  }
  const out = new Array<number>(len);
  let at = len > 0 ? (tails[len - 1] as number) : -1;
  for (let p = len - 1; p >= 0; p--) {
    out[p] = at;
    at = prev[at] as number;
  }
  return out;
}

/** Pairs (i, j) whose key occurs exactly once on each side within [la, lb) × [ra, rb). */
function uniquePairs(
  keyL: Int32Array,
  keyR: Int32Array,
  la: number,
  lb: number,
  ra: number,
  rb: number,
): { is: number[]; js: number[] } {
  // Per key: its left position (or −2 when repeated) and its right position.
  const posL = new Map<number, number>();
  for (let i = la; i < lb; i++) {
    const k = keyL[i] as number;
    if (k < 0) continue;
    posL.set(k, posL.has(k) ? -2 : i);
  }
  const posR = new Map<number, number>();
  for (let j = ra; j < rb; j++) {
    const k = keyR[j] as number;
    if (k < 0 || !posL.has(k)) continue;
    posR.set(k, posR.has(k) ? -2 : j);
  }
  const is: number[] = [];
  const js: number[] = [];
  for (let i = la; i < lb; i++) {
    const k = keyL[i] as number;
    if (k < 0 || posL.get(k) !== i) continue;
    const j = posR.get(k);
    if (j === undefined || j < 0) continue;
    is.push(i);
    js.push(j);
  }
  return { is, js };
}

class Aligner {
  readonly leftTo: Int32Array;
  readonly rightTo: Int32Array;
  readonly moved: Uint8Array;

  private readonly input: AlignInput;

  constructor(input: AlignInput) {
    this.input = input;
    this.leftTo = new Int32Array(input.left.length).fill(-1);
    this.rightTo = new Int32Array(input.right.length).fill(-1);
    this.moved = new Uint8Array(input.right.length);
  }

  private pair(i: number, j: number): void {
    this.leftTo[i] = j;
    this.rightTo[j] = i;
  }

  /** Identity anchors over the whole lists: unique on both sides, in order; the rest are moves. */
  anchors(): { is: number[]; js: number[] } {
    const { left, right, identities } = this.input;
    const candL = new Int32Array(left.length).fill(-1);
    const candR = new Int32Array(right.length).fill(-1);
    for (const id of identities) {
      const { is, js } = uniquePairs(id.left, id.right, 0, left.length, 0, right.length);
      for (let x = 0; x < is.length; x++) {
        const i = is[x] as number;
        const j = js[x] as number;
        if ((candL[i] as number) >= 0 || (candR[j] as number) >= 0) continue;
        candL[i] = j;
        candR[j] = i;
      }
    }
    const is: number[] = [];
    const js: number[] = [];
    for (let i = 0; i < left.length; i++)
      if ((candL[i] as number) >= 0) {
        is.push(i);
        js.push(candL[i] as number);
      }
    const run = longestIncreasing(js);
    const onRun = new Uint8Array(is.length);
    for (const x of run) onRun[x] = 1;
    const out = { is: [] as number[], js: [] as number[] };
    for (let x = 0; x < is.length; x++) {
      const i = is[x] as number;
      const j = js[x] as number;
      if (onRun[x]) {
        out.is.push(i);
        out.js.push(j);
      } else if (left[i] === right[j]) {
        // The same message, elsewhere: reordered (paired, flagged).
        this.pair(i, j);
        this.moved[j] = 1;
      }
    }
    return out;
  }

  run(): void {
    const { is, js } = this.anchors();
    let li = 0;
    let ri = 0;
    for (let x = 0; x < is.length; x++) {
      const i = is[x] as number;
      const j = js[x] as number;
      this.gap(li, i, ri, j, 0);
      this.pair(i, j);
      li = i + 1;
      ri = j + 1;
    }
    this.gap(li, this.input.left.length, ri, this.input.right.length, 0);
  }

  /** Match [la, lb) with [ra, rb) by content, skipping messages already paired (moves). */
  private gap(la: number, lb: number, ra: number, rb: number, depth: number): void {
    const L = this.input.left;
    const R = this.input.right;
    const freeL: number[] = [];
    const freeR: number[] = [];
    for (let i = la; i < lb; i++) if (this.leftTo[i] === -1) freeL.push(i);
    for (let j = ra; j < rb; j++) if (this.rightTo[j] === -1) freeR.push(j);
    let a = 0;
    let b = freeL.length;
    let c = 0;
    let d = freeR.length;
    const same = (x: number, y: number) => L[freeL[x] as number] === R[freeR[y] as number];
    const stripHead = () => {
      while (a < b && c < d && same(a, c)) this.pair(freeL[a++] as number, freeR[c++] as number);
    };
    const stripTail = () => {
      while (a < b && c < d && same(b - 1, d - 1))
        this.pair(freeL[--b] as number, freeR[--d] as number);
    };
    if (this.input.preferTail) {
      stripTail();
      stripHead();
    } else {
      stripHead();
      stripTail();
    }
    if (a >= b || c >= d) return;
    const midL = freeL.slice(a, b);
    const midR = freeR.slice(c, d);
    if (midL.length * midR.length <= MYERS_AREA && this.myers(midL, midR)) return;
    if (depth < 6) {
      const keysL = Int32Array.from(midL, (i) => L[i] as number);
      const keysR = Int32Array.from(midR, (j) => R[j] as number);
      const u = uniquePairs(keysL, keysR, 0, midL.length, 0, midR.length);
      if (u.is.length > 0) {
        const run = longestIncreasing(u.js);
        let pl = 0;
        let pr = 0;
        for (const x of run) {
          const i = u.is[x] as number;
          const j = u.js[x] as number;
          this.gapOf(midL, midR, pl, i, pr, j, depth + 1);
          this.pair(midL[i] as number, midR[j] as number);
          pl = i + 1;
          pr = j + 1;
        }
        this.gapOf(midL, midR, pl, midL.length, pr, midR.length, depth + 1);
        return;
      }
    }
    this.subsequence(midL, midR);
  }

  /** `gap` over a sub-range of two lists of free positions (contiguous in them, not in the sides). */
  private gapOf(
    midL: number[],
    midR: number[],
    pl: number,
    ql: number,
    pr: number,
    qr: number,
    depth: number,
  ): void {
    if (pl >= ql || pr >= qr) return;
    // The positions are increasing, so the range of sides between them holds exactly these free
    // positions (and paired ones, which `gap` skips).
    this.gap(
      midL[pl] as number,
      (midL[ql - 1] as number) + 1,
      midR[pr] as number,
      (midR[qr - 1] as number) + 1,
      depth,
    );
  }

  /** Myers' LCS of two short lists (bounded in edits); false when it gave up. */
  private myers(midL: number[], midR: number[]): boolean {
    const L = this.input.left;
    const R = this.input.right;
    const changes = diffArrays(
      midL.map((i) => L[i] as number),
      midR.map((j) => R[j] as number),
      { maxEditLength: MYERS_EDITS },
    );
    if (!changes) return false;
    let x = 0;
    let y = 0;
    for (const ch of changes) {
      const n = ch.count ?? ch.value.length;
      if (ch.added) y += n;
      else if (ch.removed) x += n;
      else for (let k = 0; k < n; k++) this.pair(midL[x++] as number, midR[y++] as number);
    }
    return true;
  }

  /** A gap too large for Myers: one side matched as a subsequence of the other, when it is one. */
  private subsequence(midL: number[], midR: number[]): void {
    const L = this.input.left;
    const R = this.input.right;
    const keysL = midL.map((i) => L[i] as number);
    const keysR = midR.map((j) => R[j] as number);
    const short = keysR.length <= keysL.length ? keysR : keysL;
    const long = short === keysR ? keysL : keysR;
    const at = embed(short, long, this.input.preferTail);
    if (!at) return;
    for (let s = 0; s < short.length; s++) {
      const l = at[s] as number;
      if (short === keysR) this.pair(midL[l] as number, midR[s] as number);
      else this.pair(midL[s] as number, midR[l] as number);
    }
  }
}

/**
 * Where `short` sits in `long` as a subsequence (greedy: from the end when `fromEnd`), or null
 * when it is not one. O(|long|).
 */
function embed(short: number[], long: number[], fromEnd: boolean): number[] | null {
  const at = new Array<number>(short.length);
  if (fromEnd) {
    let l = long.length - 1;
    for (let s = short.length - 1; s >= 0; s--) {
      while (l >= 0 && long[l] !== short[s]) l--;
      if (l < 0) return null;
      at[s] = l--;
    }
  } else {
    let l = 0;
    for (let s = 0; s < short.length; s++) {
      while (l < long.length && long[l] !== short[s]) l++;
      if (l >= long.length) return null;
      at[s] = l++;
    }
  }
  return at;
}

/**
 * Align two message lists (see the module comment).
 * @returns the pairs, both ways, and the right messages matched out of order
 */
export function alignMessages(input: AlignInput): Alignment {
  const a = new Aligner(input);
  a.run();
  return { leftTo: a.leftTo, rightTo: a.rightTo, moved: a.moved };
}
