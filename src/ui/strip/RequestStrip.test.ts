// @vitest-environment happy-dom
import { act, createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StripMark } from '../../state/requests.ts';
import { Mark } from './RequestStrip.tsx';
import type * as MarkText from './markText.ts';

// Count how often a mark's text is made (the work a render of a mark does).
const made = vi.hoisted(() => ({ count: 0 }));
vi.mock('./markText.ts', async (importOriginal) => {
  const real = await importOriginal<typeof MarkText>();
  return {
    ...real,
    markText: (...args: Parameters<typeof real.markText>) => {
      made.count++;
      return real.markText(...args);
    },
  };
});

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const marks: StripMark[] = Array.from({ length: 200 }, (_, index) => ({
  index,
  label: `call ${index + 1} · 2 messages`,
  tokens: 1000 + index,
  encoding: 'o200k_base',
  usageTokens: null,
  messages: 2,
  tone: 'ok',
  code: null,
  compaction: null,
  retry: false,
  fault: null,
  height: 0.5,
}));

/** The strip's row of marks as RequestStrip draws it, with `tick` standing for a load's progress. */
const row = (tick: number, chosen: number) =>
  createElement(
    'ol',
    { 'data-tick': tick },
    marks.map((m) =>
      createElement(Mark, {
        key: m.index,
        m,
        count: 28_000,
        chosen: m.index === chosen,
        what: 'Call',
      }),
    ),
  );

let host: HTMLDivElement;
let root: Root;
beforeEach(() => {
  made.count = 0;
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
});
afterEach(() => {
  act(() => root.unmount());
  host.remove();
});

describe('strip marks', () => {
  it('are not labelled again when the page draws again with the same marks (a loading file)', () => {
    act(() => root.render(row(0, 3)));
    expect(made.count).toBe(200);
    expect(host.querySelectorAll('[data-testid=request-mark]')).toHaveLength(200);
    // A second 115 MB log loading under the first one's strip: the page draws on every progress
    // post, and every mark was labelled again each time (1.8 s of the load in `toLocaleString`).
    for (let tick = 1; tick <= 20; tick++) act(() => root.render(row(tick, 3)));
    expect(made.count).toBe(200);
    // Choosing another mark redraws the two whose `chosen` changed, and only them.
    act(() => root.render(row(21, 7)));
    expect(made.count).toBe(202);
    const chosen = host.querySelector('[aria-current=true]');
    expect(chosen?.getAttribute('data-index')).toBe('7');
    expect(chosen?.getAttribute('aria-label')).toBe(
      'Call 8 of 28,000; request 1,007 tokens (o200k_base), 2 messages; passes. call 8 · 2 messages',
    );
  });
});
