import { describe, expect, it } from 'vitest';
import { loadStatusShows, partialLoadName } from './LoadStatus.tsx';
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

  it('a finished load whose preview is still drawn (deferred render) is still partial', () => {
    expect(partialLoadName({ ...base, active: false }, true)).toBe('cc.jsonl');
  });

  it('complete: a finished load drawn, a text source, a cancelled or refused load', () => {
    expect(partialLoadName({ ...base, active: false }, false)).toBeNull();
    expect(partialLoadName(null, true)).toBeNull();
    expect(partialLoadName({ ...base, active: false, cancelled: true }, true)).toBeNull();
    expect(partialLoadName({ ...base, active: false, refused: 'too large' }, true)).toBeNull();
  });

  it('a load still reading with no preview yet shows the previous transcript: not partial', () => {
    expect(partialLoadName(base, false)).toBeNull();
  });
});

describe('loadStatusShows (else the "Analysing" status says the transcript is being drawn)', () => {
  it('a running load, a cancelled one and a refused one have their own status', () => {
    expect(loadStatusShows(base)).toBe(true);
    expect(loadStatusShows({ ...base, active: false, cancelled: true })).toBe(true);
    expect(loadStatusShows({ ...base, active: false, refused: 'too large' })).toBe(true);
  });

  it('a load that ended (its transcript maybe not drawn yet), or none, shows nothing of its own', () => {
    expect(loadStatusShows({ ...base, active: false })).toBe(false);
    expect(loadStatusShows({ ...base, active: false, preview: true })).toBe(false);
    expect(loadStatusShows(null)).toBe(false);
  });
});
