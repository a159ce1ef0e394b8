import { describe, expect, it } from 'vitest';
import { partialLoadName } from './LoadStatus.tsx';
import type { LoadState } from './useInspection.ts';

const base: LoadState = {
  name: 'cc.jsonl',
  progress: null,
  preview: false,
  refused: null,
  cancelled: false,
  active: true,
};

describe('partialLoadName (the verdict waits for the whole file)', () => {
  it('a preview of the first messages on screen is partial', () => {
    expect(partialLoadName({ ...base, preview: true }, true)).toBe('cc.jsonl');
  });

  it('a finished load the page has not yet drawn is still partial', () => {
    expect(partialLoadName({ ...base, active: false }, false)).toBe('cc.jsonl');
  });

  it('complete: a finished load drawn, a text source, a cancelled or refused load', () => {
    expect(partialLoadName({ ...base, active: false }, true)).toBeNull();
    expect(partialLoadName(null, false)).toBeNull();
    expect(partialLoadName({ ...base, active: false, cancelled: true }, false)).toBeNull();
    expect(partialLoadName({ ...base, active: false, refused: 'too large' }, false)).toBeNull();
  });

  it('a load still reading with no preview yet shows the previous transcript: not partial', () => {
    expect(partialLoadName(base, true)).toBeNull();
  });
});
