import { describe, expect, it } from 'vitest';
import type { Analysis } from '../../model/analyze.ts';
import {
  EMPTY_VIEW,
  nextView,
  recountShown,
  sameRequest,
  selectRequest,
  type InspectorView,
} from './view.ts';
import { createAppStore } from '../store.ts';
import { inspect } from '../../engine/inspect.ts';
import type { InspectRequest } from '../../engine/client.ts';

const req = (text: string): InspectRequest => ({ text, name: '', format: null, provider: null });
const sampleReq = req('{"messages": [{"role": "user", "content": "hi"}]}');
const brokenReq = req('{"messages": [');
const sample = inspect(sampleReq);
if (!sample.ok) throw new Error('the sample did not parse');
const analysis = sample.analysis;
const answered = new Map<Analysis, InspectRequest>([[analysis, sampleReq]]);
const view = (request: InspectRequest | null, a: Analysis | null): InspectorView => ({
  ...EMPTY_VIEW,
  request,
  analysis: a,
});
const noExact = () => false;
const byMap = (a: Analysis) => answered.get(a);

describe('recountShown: which request to count again for the transcript shown', () => {
  it('a failed request shows the older answer without its exact table: that answer’s request', () => {
    expect(recountShown(view(brokenReq, analysis), brokenReq, noExact, byMap)).toBe(sampleReq);
  });

  it('nothing once the exact table arrived', () => {
    expect(recountShown(view(brokenReq, analysis), brokenReq, () => true, byMap)).toBeNull();
  });

  it('nothing for the answer of the current request (its own count runs)', () => {
    expect(recountShown(view(sampleReq, analysis), sampleReq, noExact, byMap)).toBeNull();
  });

  it('nothing while a request is still pending (the view answers an older one)', () => {
    expect(recountShown(view(sampleReq, analysis), brokenReq, noExact, byMap)).toBeNull();
  });

  it('nothing without a transcript, or for one that answered no request (a preview)', () => {
    expect(recountShown(view(brokenReq, null), brokenReq, noExact, byMap)).toBeNull();
    expect(recountShown(view(brokenReq, analysis), brokenReq, noExact, () => undefined)).toBeNull();
  });
});

describe('faults are part of the request (the engine applies them)', () => {
  it('the store’s faults go in the request; none: the request as loaded', () => {
    const store = createAppStore();
    store.getState().setSource({ text: sampleReq.text, name: '', origin: 'paste' });
    const plain = selectRequest(store.getState());
    expect(plain.faults).toBeUndefined();
    store.getState().setFaults([{ kind: 'truncate', count: 1 }]);
    const faulted = selectRequest(store.getState());
    expect(faulted.faults).toEqual([{ kind: 'truncate', count: 1 }]);
    expect(sameRequest(plain, faulted)).toBe(false);
    expect(sameRequest(faulted, { ...faulted, faults: [{ kind: 'truncate', count: 1 }] })).toBe(
      true,
    );
    store.getState().setFaults([]);
    expect(sameRequest(selectRequest(store.getState()), plain)).toBe(true);
  });

  it('the view keeps what the faults did beside their analysis; a failure keeps both', () => {
    const faultedReq = { ...sampleReq, faults: [{ kind: 'truncate' as const, count: 1 }] };
    const r = inspect(faultedReq);
    if (!r.ok || !r.faults) throw new Error('no faulted answer');
    const v = nextView(EMPTY_VIEW, faultedReq, r);
    expect(v.analysis).toBe(r.analysis);
    expect(v.faults).toBe(r.faults);
    const failed = nextView(v, brokenReq, inspect(brokenReq));
    expect(failed.faults).toBe(r.faults);
    expect(nextView(failed, sampleReq, sample).faults).toBeNull();
  });
});
