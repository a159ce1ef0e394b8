/// <reference types="vite/client" />
/**
 * The inspect worker's helpers for a large JSON Lines file (lineParts.ts, issue 38): one
 * `parseLines` worker per core beyond the inspect worker's own (`navigator.hardwareConcurrency`),
 * started on first use from the app's own script under the page's policy (spawn.ts), kept for
 * the next file. A helper that fails answers null (the reader then reads the file whole).
 */
import type { FormatId } from '../model/types.ts';
import type { LinePool, PartAnswer, PartRequest } from './lineParts.ts';
import workerUrl from './parseLines.worker.ts?worker&url';
import { spawnWorker } from './spawn.ts';

/** Most helpers, whatever the core count. */
const MAX_HELPERS = 7;

/** The pool, or null where no worker can start (Node, one core). */
export function createLinePool(): LinePool | null {
  if (typeof Worker === 'undefined' || typeof navigator === 'undefined') return null;
  const size = Math.min(MAX_HELPERS, (navigator.hardwareConcurrency || 1) - 1);
  if (size < 1) return null;
  const helpers: (Worker | null)[] = [];
  const waiting = new Map<number, { helper: number; resolve: (a: PartAnswer | null) => void }>();
  let seq = 0;
  let turn = 0;
  const fail = (k: number) => {
    helpers[k]?.terminate();
    helpers[k] = null;
    for (const [id, w] of waiting)
      if (w.helper === k) {
        waiting.delete(id);
        w.resolve(null);
      }
  };
  const helper = (k: number): Worker | null => {
    const had = helpers[k];
    if (had) return had;
    const w = spawnWorker(workerUrl, `parse-lines-${k + 1}`);
    if (!w) return null;
    w.onmessage = (ev: MessageEvent<{ id: number; answer: PartAnswer | null }>) => {
      const got = waiting.get(ev.data.id);
      waiting.delete(ev.data.id);
      got?.resolve(ev.data.answer);
    };
    w.onerror = () => fail(k);
    w.onmessageerror = () => fail(k);
    helpers[k] = w;
    return w;
  };
  return {
    size,
    parse(part: Blob, slimFormat: FormatId | null): Promise<PartAnswer | null> {
      const k = turn++ % size;
      const w = helper(k);
      if (!w) return Promise.resolve(null);
      const id = ++seq;
      return new Promise((resolve) => {
        waiting.set(id, { helper: k, resolve });
        const msg: PartRequest = { id, part, slimFormat };
        w.postMessage(msg);
      });
    },
  };
}
