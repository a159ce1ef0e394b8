/// <reference types="vite/client" />
/**
 * The diff worker's client: a file's request summaries and a rewritten message's character diff,
 * computed off the page's thread (a trace of many calls is parsed once per call; a long tool
 * result's character diff is quadratic at worst). Where no worker can run, or it fails, the page
 * computes the same answer itself (`answerDiffJob`).
 */
import {
  answerDiffJob,
  type DiffJob,
  type DiffJobAnswer,
  type DiffWorkerAnswer,
} from './diffProtocol.ts';
import { spawnWorker } from './spawn.ts';
import workerUrl from './diff.worker.ts?worker&url';

let worker: Worker | null | undefined;
let nextId = 1;
const waiting = new Map<number, (a: DiffWorkerAnswer) => void>();

/** The diff worker, started on first use; null where workers cannot run. */
function diffWorker(): Worker | null {
  if (worker !== undefined) return worker;
  worker = typeof Worker === 'undefined' ? null : spawnWorker(workerUrl, 'diff');
  if (worker) {
    worker.onmessage = (ev: MessageEvent<DiffWorkerAnswer>) => {
      waiting.get(ev.data.id)?.(ev.data);
      waiting.delete(ev.data.id);
    };
    worker.onerror = () => {
      for (const [id, done] of waiting) done({ id, ok: false, error: 'the worker failed' });
      waiting.clear();
      worker?.terminate();
      worker = null;
    };
  }
  return worker;
}

/**
 * `answerDiffJob(job)`, off the page's thread where it can be.
 * @returns the same answer as on the page (a worker's failure falls back to the page)
 */
export async function diffJobOffThread<J extends DiffJob>(job: J): Promise<DiffJobAnswer<J>> {
  const w = diffWorker();
  if (!w) return answerDiffJob(job);
  const id = nextId++;
  const answer = new Promise<DiffWorkerAnswer>((resolve) => waiting.set(id, resolve));
  try {
    w.postMessage({ ...job, id });
  } catch {
    waiting.delete(id);
    return answerDiffJob(job);
  }
  const a = await answer;
  return a.ok ? (a.value as DiffJobAnswer<J>) : answerDiffJob(job);
}
