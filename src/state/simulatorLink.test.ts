import { describe, expect, it } from 'vitest';
import { createAppStore } from './store.ts';
import {
  buildShareFragment,
  buildViewOnlyFragment,
  simulatorFromFragment,
  withViewExtras,
} from './permalink/storeLink.ts';

// The simulator panel's open/collapsed state rides in the link as `sim=1`/`sim=0` (issue 16):
// the user's choice, not the window's width, decides how a shared view opens.
describe('the simulator panel in the link', () => {
  it('reads sim=1 and sim=0; anything else is the default (null)', () => {
    expect(simulatorFromFragment('#v=1&src=invoice&sim=1')).toBe(true);
    expect(simulatorFromFragment('v=1&sim=0')).toBe(false);
    expect(simulatorFromFragment('v=1')).toBeNull();
    expect(simulatorFromFragment('v=1&sim=yes')).toBeNull();
  });

  it('writes it after the lesson step, and nothing when the user never chose', () => {
    expect(withViewExtras('v=1', { lesson: null, simulator: null })).toBe('v=1');
    expect(withViewExtras('v=1', { lesson: null, simulator: false })).toBe('v=1&sim=0');
    expect(withViewExtras('v=1', { lesson: 'faults', simulator: true })).toBe(
      'v=1&learn=faults&sim=1',
    );
    expect(withViewExtras('', { lesson: null, simulator: true })).toBe('sim=1');
  });

  it('shared and view-only links carry the choice; a round trip gives it back', () => {
    const s = createAppStore();
    s.setState({ source: { text: '', name: '', origin: 'sample', sampleId: 'invoice' } });
    expect(buildShareFragment(s.getState(), 'full')).not.toMatch(/sim=/);
    s.getState().setSimulator(false);
    const frag = buildShareFragment(s.getState(), 'full');
    expect(simulatorFromFragment(frag)).toBe(false);
    expect(simulatorFromFragment(buildViewOnlyFragment(s.getState()))).toBe(false);
    s.getState().setSimulator(true);
    expect(simulatorFromFragment(buildShareFragment(s.getState(), 'full'))).toBe(true);
  });
});
