/**
 * A worker that answers jobs by id, started on first use (`spawnWorker`, under the page's CSP):
 * the one way the diff and share-copy clients post a job and wait for its answer. A worker that
 * fails answers everyone waiting with an error and is never used again; the callers then do the
 * job on the page.
 */
import { spawnWorker } from './spawn.ts';

/** A worker that answers jobs by id (`jobWorker`). */
export interface JobWorker<A> {
  /**
   * Post `job`: its answer (the job's `id` added to it), or null when no worker can take it (no
   * `Worker` here, a failed worker, or a value that does not clone), so the caller does it on
   * the page. Starts the worker on first use, and again after `release`.
   */
  post(job: object): Promise<A> | null;
  /**
   * Let the worker go (and all it holds): now when no job is waiting, else once the last waiting
   * job is answered (unless a new job is posted first). The next `post` starts a new one. A
   * worker that failed stays unused.
   * @returns whether a worker was ended now
   */
  release(): boolean;
}

/**
 * A poster of jobs to the worker at `url`.
 * @param url the worker script's URL (`…?worker&url`)
 * @param name the worker's name (devtools, e2e)
 */
export function jobWorker<A extends { id: number; ok: boolean }>(
  url: string,
  name: string,
): JobWorker<A> {
  let worker: Worker | null | undefined;
  let nextId = 1;
  /** A release asked for while jobs were waiting: done when the last of them is answered. */
  let releaseWhenIdle = false;
  const waiting = new Map<number, (a: A) => void>();
  const start = (): Worker | null => {
    if (worker !== undefined) return worker;
    worker = typeof Worker === 'undefined' ? null : spawnWorker(url, name);
    if (worker) {
      worker.onmessage = (ev: MessageEvent<A>) => {
        waiting.get(ev.data.id)?.(ev.data);
        waiting.delete(ev.data.id);
        if (releaseWhenIdle && waiting.size === 0) release();
      };
      worker.onerror = () => {
        for (const [id, done] of waiting)
          done({ id, ok: false, error: 'the worker failed' } as unknown as A);
        waiting.clear();
        worker?.terminate();
        worker = null;
      };
    }
    return worker;
  };
  const post = (job: object): Promise<A> | null => {
    releaseWhenIdle = false;
    const w = start();
    if (!w) return null;
    const id = nextId++;
    const answer = new Promise<A>((resolve) => waiting.set(id, resolve));
    try {
      w.postMessage({ ...job, id });
    } catch {
      // A value that does not clone (DataCloneError).
      waiting.delete(id);
      return null;
    }
    return answer;
  };
  function release(): boolean {
    if (!worker) return false;
    if (waiting.size > 0) {
      releaseWhenIdle = true;
      return false;
    }
    releaseWhenIdle = false;
    worker.terminate();
    worker = undefined;
    return true;
  }
  return { post, release };
}
