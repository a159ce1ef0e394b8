/// <reference types="vite/client" />
/**
 * The structure-only copy built off the page's thread: redacting, writing, reading back and
 * comparing a transcript of a few MB takes 0.5–1.2 s, a frozen page when the share panel opens.
 * The transcript is structured-cloned to a worker (shareCopy.worker.ts) that runs the same
 * `checkedStructureCopy`; where no worker can take it (no Worker, a counter the worker cannot
 * rebuild, a value that does not clone, a worker that fails) the page runs it itself.
 */
import { checkedStructureCopy, type CheckedCopy } from '../model/redact/shareCopy.ts';
import type { TextCounter } from '../model/tokens.ts';
import type { Transcript } from '../model/types.ts';
import { REBUILDABLE, type ShareCopyAnswer } from './shareCopyProtocol.ts';
import { spawnWorker } from './spawn.ts';
import workerUrl from './shareCopy.worker.ts?worker&url';

let worker: Worker | null | undefined;
let nextId = 1;
const waiting = new Map<number, (a: ShareCopyAnswer) => void>();

/** The share-copy worker, started on first use; null where workers cannot run. */
function shareWorker(): Worker | null {
  if (worker !== undefined) return worker;
  worker = typeof Worker === 'undefined' ? null : spawnWorker(workerUrl, 'share-copy');
  if (worker) {
    worker.onmessage = (ev: MessageEvent<ShareCopyAnswer>) => {
      waiting.get(ev.data.id)?.(ev.data);
      waiting.delete(ev.data.id);
    };
    worker.onerror = () => {
      // A worker that failed: answer everyone waiting with an error, and never use it again.
      for (const [id, done] of waiting) done({ id, ok: false, error: 'the worker failed' });
      waiting.clear();
      worker?.terminate();
      worker = null;
    };
  }
  return worker;
}

/**
 * `checkedStructureCopy(t, counter, toolNames)`, off the page's thread where it can be.
 * @returns the same copy, text and problems as on the page (a worker's error falls back to it)
 */
export async function structureCopyOffThread(
  t: Transcript,
  counter: TextCounter,
  toolNames: 'keep' | 'hide',
): Promise<CheckedCopy> {
  const onPage = () => checkedStructureCopy(t, counter, toolNames);
  const w = REBUILDABLE.includes(counter.encoding) ? shareWorker() : null;
  if (!w) return onPage();
  const id = nextId++;
  const answer = new Promise<ShareCopyAnswer>((resolve) => waiting.set(id, resolve));
  try {
    w.postMessage({ id, transcript: t, encoding: counter.encoding, toolNames });
  } catch {
    // A value that does not clone (DataCloneError): the page builds it.
    waiting.delete(id);
    return onPage();
  }
  const a = await answer;
  return a.ok ? a.copy : onPage();
}
