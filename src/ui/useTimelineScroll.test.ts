import { measureElement, type Virtualizer } from '@tanstack/react-virtual';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { rowInBox, rowSizeOf } from './useTimelineScroll.ts';

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

describe("rowSizeOf: a long timeline's rows are measured by their ResizeObserver, not when attached", () => {
  afterEach(() => vi.unstubAllGlobals());
  /** A row element whose height, when read, forces a layout: counted. */
  const row = (index: number) => {
    const el = { reads: 0, getAttribute: () => String(index) };
    Object.defineProperty(el, 'offsetHeight', {
      get: () => {
        el.reads++;
        return 120;
      },
    });
    return el;
  };
  const v = {
    options: { horizontal: false, indexAttribute: 'data-index' },
    measurementsCache: [{ size: 34 }, { size: 57 }],
    indexFromElement: (el: { getAttribute: () => string }) => Number(el.getAttribute()),
  } as unknown as Virtualizer<HTMLDivElement, Element>;
  const entry = (blockSize: number) =>
    ({ borderBoxSize: [{ blockSize, inlineSize: 300 }] }) as unknown as ResizeObserverEntry;

  it('attached (no entry): the height known so far, without reading the layout', () => {
    vi.stubGlobal('ResizeObserver', class {});
    const size = rowSizeOf(67_302);
    const el = row(1);
    expect(size(el as unknown as Element, undefined, v)).toBe(57);
    expect(el.reads).toBe(0);
    // The observer's report (after the browser's layout) is the row's height.
    expect(size(el as unknown as Element, entry(212.4), v)).toBe(212);
    expect(el.reads).toBe(0);
  });

  it('a short timeline, or a page without ResizeObserver, measures at once', () => {
    vi.stubGlobal('ResizeObserver', class {});
    expect(rowSizeOf(500)).toBe(measureElement);
    const el = row(0);
    expect(rowSizeOf(500)(el as unknown as Element, undefined, v)).toBe(120);
    expect(el.reads).toBe(1);
    vi.stubGlobal('ResizeObserver', undefined);
    expect(rowSizeOf(67_302)).toBe(measureElement);
  });
});
