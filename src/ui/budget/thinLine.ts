/**
 * Thinning a polyline to what a screen shows: per half-pixel column, its first, lowest, highest
 * and last point. A long step line (one point per budget) keeps its shape at a few points per
 * pixel.
 */

/** Points of a polyline kept per half-pixel column: first, lowest, highest, last (in x order). */
export class Thinned {
  private out: [number, number][] = [];
  private col = NaN;
  // The current column's points, as two reused number arrays (no array per point).
  private xs: number[] = [];
  private ys: number[] = [];

  add(px: number, py: number): void {
    const c = Math.floor(px * 2);
    if (c !== this.col) this.flush();
    this.col = c;
    this.xs.push(px);
    this.ys.push(py);
  }

  private flush(): void {
    const { xs, ys } = this;
    const n = xs.length;
    const at = (i: number): [number, number] => [xs[i] as number, ys[i] as number];
    if (n <= 4) for (let i = 0; i < n; i++) this.out.push(at(i));
    else {
      let lo = 1;
      let hi = 1;
      for (let i = 1; i < n - 1; i++) {
        if ((ys[i] as number) < (ys[lo] as number)) lo = i;
        if ((ys[i] as number) > (ys[hi] as number)) hi = i;
      }
      const mid = lo === hi ? [lo] : lo < hi ? [lo, hi] : [hi, lo];
      this.out.push(at(0));
      for (const i of mid) this.out.push(at(i));
      this.out.push(at(n - 1));
    }
    xs.length = 0;
    ys.length = 0;
  }

  done(): [number, number][] {
    this.flush();
    return this.out;
  }
}
