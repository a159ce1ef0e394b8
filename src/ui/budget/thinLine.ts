/**
 * Thinning a polyline to what a screen shows: per half-pixel column, its first, lowest, highest
 * and last point. A long step line (one point per budget) keeps its shape at a few points per
 * pixel.
 */

/**
 * Points of a polyline kept per half-pixel column: first, lowest, highest, last (in x order);
 * a column of at most four points keeps them all. Lowest and highest are the first such among
 * the points strictly between the first and the last. O(1) per point and nothing allocated per
 * point (a 100,000-message sweep adds 200,000 points per strip).
 */
export class Thinned {
  private out: [number, number][] = [];
  private col = NaN;
  /** Points in the current column. */
  private n = 0;
  // The first three points (a column of up to four keeps them all), the latest point, and the
  // lowest and highest of the points between the first and the latest (index, x, y).
  private x0 = 0;
  private y0 = 0;
  private x1 = 0;
  private y1 = 0;
  private x2 = 0;
  private y2 = 0;
  private lastX = 0;
  private lastY = 0;
  private loI = -1;
  private loX = 0;
  private loY = 0;
  private hiI = -1;
  private hiX = 0;
  private hiY = 0;

  add(px: number, py: number): void {
    const c = Math.floor(px * 2);
    if (c !== this.col) this.flush();
    this.col = c;
    const i = this.n++;
    if (i === 0) {
      this.x0 = px;
      this.y0 = py;
    } else if (i === 1) {
      this.x1 = px;
      this.y1 = py;
    } else if (i === 2) {
      this.x2 = px;
      this.y2 = py;
    }
    // The point before this one is now between the first and the last.
    if (i >= 2) {
      const j = i - 1;
      const x = this.lastX;
      const y = this.lastY;
      if (this.loI < 0 || y < this.loY) {
        this.loI = j;
        this.loX = x;
        this.loY = y;
      }
      if (this.hiI < 0 || y > this.hiY) {
        this.hiI = j;
        this.hiX = x;
        this.hiY = y;
      }
    }
    this.lastX = px;
    this.lastY = py;
  }

  private flush(): void {
    const n = this.n;
    const out = this.out;
    if (n > 0) out.push([this.x0, this.y0]);
    if (n > 4) {
      const lo: [number, number] = [this.loX, this.loY];
      const hi: [number, number] = [this.hiX, this.hiY];
      if (this.loI === this.hiI) out.push(lo);
      else if (this.loI < this.hiI) out.push(lo, hi);
      else out.push(hi, lo);
    } else {
      if (n > 2) out.push([this.x1, this.y1]);
      if (n > 3) out.push([this.x2, this.y2]);
    }
    if (n > 1) out.push([this.lastX, this.lastY]);
    this.n = 0;
    this.loI = -1;
    this.hiI = -1;
  }

  done(): [number, number][] {
    this.flush();
    return this.out;
  }
}
