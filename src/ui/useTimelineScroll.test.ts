import { describe, expect, it } from 'vitest';
import { rowInBox } from './useTimelineScroll.ts';

/** An element whose box is [top, bottom] (what rowInBox reads). */
const at = (top: number, bottom: number) =>
  ({ getBoundingClientRect: () => ({ top, bottom, height: bottom - top }) }) as HTMLElement;

describe('rowInBox: is the selected row inside the timeline’s visible box', () => {
  const box = at(100, 420); // 320 px high
  it('a row within the box is; one above or below is not', () => {
    expect(rowInBox(box, at(150, 200))).toBe(true);
    expect(rowInBox(box, at(40, 90))).toBe(false);
    expect(rowInBox(box, at(500, 550))).toBe(false);
    expect(rowInBox(box, null)).toBe(false);
  });
  it('a row taller than the box is when its top is in it, not when its top is below the box', () => {
    expect(rowInBox(box, at(120, 550))).toBe(true);
    // An opened row far below (kept mounted): the jump must scroll to it.
    expect(rowInBox(box, at(45_000, 45_430))).toBe(false);
  });
});
