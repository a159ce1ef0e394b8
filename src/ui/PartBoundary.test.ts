// @vitest-environment happy-dom
import { act, createElement, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PartBoundary } from './PartBoundary.tsx';

// React reports acts outside a test renderer unless told it runs in one.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let broken = true;
/** Throws while `broken`, else draws its text. */
function Part({ text }: { text: string }): ReactNode {
  if (broken) throw new Error('message 7 (line 12) could not be drawn');
  return createElement('p', { 'data-testid': 'part' }, text);
}

let host: HTMLDivElement;
let root: Root;
beforeEach(() => {
  broken = true;
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  act(() => root.unmount());
  host.remove();
  vi.restoreAllMocks();
});

function draw(resetKey: unknown, inline = false): void {
  act(() =>
    root.render(
      createElement(
        'main',
        null,
        createElement(PartBoundary, {
          part: 'timeline',
          resetKey,
          inline,
          children: createElement(Part, { text: 'rows' }),
        }),
        createElement('aside', { 'data-testid': 'sibling' }, 'verdict'),
      ),
    ),
  );
}

describe('PartBoundary', () => {
  it('replaces a part that throws by a note naming it and why; its siblings stay', () => {
    draw(1);
    const note = host.querySelector('[data-testid=part-error]');
    expect(note?.getAttribute('role')).toBe('alert');
    expect(note?.getAttribute('data-part')).toBe('timeline');
    expect(note?.textContent).toContain('The timeline could not be drawn.');
    expect(note?.textContent).toContain('message 7 (line 12) could not be drawn');
    expect(note?.textContent).toContain('the rest of the page works');
    expect(host.querySelector('[data-testid=sibling]')?.textContent).toBe('verdict');
    expect(console.error).toHaveBeenCalledWith(
      'Transcript Inspector: the timeline failed to draw',
      expect.any(Error),
      expect.anything(),
    );
  });

  it('Try again draws the part anew', () => {
    draw(1);
    broken = false;
    const retry = host.querySelector<HTMLButtonElement>('[data-testid=part-error] button');
    expect(retry?.textContent).toBe('Try again');
    act(() => retry?.click());
    expect(host.querySelector('[data-testid=part-error]')).toBeNull();
    expect(host.querySelector('[data-testid=part]')?.textContent).toBe('rows');
  });

  it('a new reset key (another analysis) draws the part anew; the same key keeps the note', () => {
    draw(1);
    broken = false;
    draw(1);
    expect(host.querySelector('[data-testid=part-error]')).not.toBeNull();
    draw(2);
    expect(host.querySelector('[data-testid=part]')?.textContent).toBe('rows');
  });

  it('an inline note (a message row) is one line without the page-level sentence', () => {
    draw(1, true);
    const note = host.querySelector('[data-testid=part-error]');
    expect(note?.className).toBe('part-error inline');
    expect(note?.textContent).not.toContain('the rest of the page works');
    expect(note?.textContent).toContain('Try again');
  });
});
