/**
 * Hooks that connect the store's inputs to the worker client and the lazy tokenizer. The results
 * are derived data held by React, never written to the store.
 */
import { useEffect, useState } from 'react';
import { CHARS_PER_4, loadBpeCounter, type TextCounter } from '../model/tokens.ts';
import { EMPTY_VIEW, nextView, selectRequest, type InspectorView } from '../state/selectors.ts';
import { useAppStore } from '../state/store.ts';
import { createWorkerClient, type InspectClient } from '../workers/client.ts';

let client: InspectClient | null = null;
function getClient(): InspectClient {
  client ??= createWorkerClient();
  return client;
}

/**
 * The current view: parse the store's text in the worker whenever text, name, format or provider
 * change; keep the last good transcript while the new text fails to parse.
 */
export function useInspection(): InspectorView & { pending: boolean } {
  const request = useAppStore(selectRequest);
  const [view, setView] = useState<InspectorView>(EMPTY_VIEW);
  useEffect(() => {
    let live = true;
    if (request.text.length === 0) return;
    void getClient()
      .inspect(request)
      .then((result) => {
        if (live) setView((prev) => nextView(prev, request, result));
      });
    return () => {
      live = false;
    };
  }, [request]);
  return { ...view, pending: request.text.length > 0 && view.request !== request };
}

/**
 * The text counter: chars/4 at first, the exact o200k BPE once its lazy chunk has loaded
 * (started after the first transcript is shown, so it never delays the first paint).
 */
export function useTextCounter(start: boolean): TextCounter {
  const [counter, setCounter] = useState<TextCounter>(CHARS_PER_4);
  useEffect(() => {
    if (!start || counter !== CHARS_PER_4) return;
    let live = true;
    loadBpeCounter('o200k_base')
      .then((c) => {
        if (live) setCounter(c);
      })
      .catch(() => {
        // Keep the chars/4 estimate (it is labelled as such).
      });
    return () => {
      live = false;
    };
  }, [start, counter]);
  return counter;
}
