import { describe, expect, it } from 'vitest';
import type { Analysis } from '../../model/analyze.ts';
import { EMPTY_VIEW, recountShown, type InspectorView } from './view.ts';
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
