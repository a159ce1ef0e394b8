import { describe, expect, it } from 'vitest';
import { selectRequest } from './selectors.ts';
import { createAppStore } from './store.ts';
import { InspectStages } from '../engine/inspect.ts';
/** The engine's answer to the store's inputs, on this thread (the stages the inspect worker runs). */
const stages = new InspectStages();
const selectInspection = (s: Parameters<typeof selectRequest>[0]) =>
  stages.inspect(selectRequest(s));

// Issue 5: a JSON file holding several requests (a log export). Content invented.
const EXPORT = JSON.stringify({
  requests: [
    { model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'first request' }] },
    {
      model: 'claude-sonnet-4-5',
      messages: [
        { role: 'user', content: 'second request' },
        { role: 'assistant', content: 'an answer' },
      ],
    },
  ],
});

const firstText = (r: ReturnType<typeof selectInspection>) => {
  if (!r.ok) throw new Error(r.error.message);
  const b = r.analysis.transcript.messages[0]?.blocks[0];
  return b?.type === 'text' ? b.text : '';
};

describe('requestIndex (the request picker)', () => {
  it('defaults to the last request and follows the user choice into the inspect request', () => {
    const store = createAppStore({ source: { text: EXPORT, name: 'export.json', origin: 'file' } });
    const last = selectInspection(store.getState());
    expect(last.ok && last.parsed.requests?.length).toBe(2);
    expect(last.ok && last.parsed.requestIndex).toBe(1);
    expect(firstText(last)).toBe('second request');

    store.getState().setRequestIndex(0);
    expect(selectRequest(store.getState()).requestIndex).toBe(0);
    const first = selectInspection(store.getState());
    expect(first.ok && first.parsed.requestIndex).toBe(0);
    expect(firstText(first)).toBe('first request');
  });

  it('a new source forgets the choice; picking a request clears the selection', () => {
    const store = createAppStore({ source: { text: EXPORT, name: '', origin: 'paste' } });
    store.getState().select({ kind: 'message', index: 1 });
    store.getState().setRequestIndex(0);
    expect(store.getState().selection).toBeNull();
    store.getState().setSource({ text: EXPORT, name: '', origin: 'paste' });
    expect(store.getState().requestIndex).toBeNull();
    expect(selectRequest(store.getState()).requestIndex).toBeUndefined();
  });
});
