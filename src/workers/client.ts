/**
 * The page's only door to parsing and analysis. Requests go to a module worker; when workers are
 * unavailable (tests, old browsers, a worker that failed to start) the same `inspect` runs
 * synchronously on the main thread. Only the latest request's answer matters: older answers
 * resolve too, and the caller drops them by comparing requests.
 */
import { inspect } from './inspect.ts';
import type { InspectRequest, Inspection, WorkerRequest, WorkerResponse } from './protocol.ts';

export type { InspectRequest, Inspection } from './protocol.ts';

export interface InspectClient {
  /** Parse and analyse off the main thread. Never rejects: failures are `{ok: false}`. */
  inspect: (req: InspectRequest) => Promise<Inspection>;
  /** Stop the worker. */
  dispose: () => void;
}

/** A client that runs on the calling thread (tests, fallback). */
export function createSyncClient(): InspectClient {
  return { inspect: (req) => Promise.resolve(inspect(req)), dispose: () => {} };
}

/**
 * A client backed by a module worker, falling back to the synchronous path if the worker cannot
 * be created or crashes.
 */
export function createWorkerClient(): InspectClient {
  let worker: Worker | null = null;
  try {
    worker = new Worker(new URL('./inspect.worker.ts', import.meta.url), {
      type: 'module',
      name: 'inspect',
    });
  } catch {
    worker = null;
  }
  if (!worker) return createSyncClient();
  const pending = new Map<number, { req: InspectRequest; resolve: (r: Inspection) => void }>();
  let nextId = 1;
  let broken = false;
  worker.onmessage = (ev: MessageEvent<WorkerResponse>) => {
    const p = pending.get(ev.data.id);
    if (!p) return;
    pending.delete(ev.data.id);
    p.resolve(ev.data.result);
  };
  worker.onerror = () => {
    // The worker died (or its script failed to load): answer everything on the main thread.
    broken = true;
    for (const [id, p] of pending) {
      pending.delete(id);
      p.resolve(inspect(p.req));
    }
  };
  return {
    inspect: (req) => {
      if (broken || !worker) return Promise.resolve(inspect(req));
      const id = nextId++;
      return new Promise<Inspection>((resolve) => {
        pending.set(id, { req, resolve });
        const msg: WorkerRequest = { id, req };
        worker.postMessage(msg);
      });
    },
    dispose: () => worker?.terminate(),
  };
}
