/**
 * The request strip's marks, each made when first read: a long session log has 28,000 calls and
 * the strip draws 200 of them (`MARK_WINDOW`), so making every mark when its listing arrived was
 * a long task of the page (`markOf` over all of them). A mark, once made, is the same object on
 * every read of the list (the strip's `Mark` is drawn again only when its props change).
 */
export class MarkList<T> {
  /** How many marks. */
  readonly length: number;
  private readonly make: (i: number) => T;
  private readonly made: (T | undefined)[] = [];

  /** @param make mark `i` (0-based), called once per mark read */
  constructor(length: number, make: (i: number) => T) {
    this.length = length;
    this.make = make;
  }

  /** Mark `i` (0-based), or undefined out of range. */
  at(i: number): T | undefined {
    if (!(Number.isInteger(i) && i >= 0 && i < this.length)) return undefined;
    let m = this.made[i];
    if (m === undefined) {
      m = this.make(i);
      this.made[i] = m;
    }
    return m;
  }

  /** Marks `[from, to)`, clamped to the list, as `Array.prototype.slice` with non-negative bounds. */
  slice(from = 0, to = this.length): T[] {
    const out: T[] = [];
    for (let i = Math.max(0, from); i < Math.min(to, this.length); i++) out.push(this.at(i) as T);
    return out;
  }
}
