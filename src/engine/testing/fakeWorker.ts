/**
 * Test support: a worker that runs the inspect worker's loop (run.ts) in this thread, its
 * messages cloned (and transferred) as a worker's are. Stub it as the global `Worker` and
 * `createWorkerClient` talks to it.
 */
import type { SweepRequest, WorkerRequest, WorkerResponse } from '../protocol.ts';
import { resetRun, runRequest, runSweep } from '../run.ts';

/** A worker that runs the worker's loop (run.ts) in this thread; messages are cloned as a worker's. */
export class FakeWorker {
  static spawned: FakeWorker[] = [];
  onmessage: ((ev: MessageEvent<WorkerResponse>) => void) | null = null;
  onerror: (() => void) | null = null;
  requests = 0;
  private dead = false;
  constructor() {
    // A new worker starts with no memo.
    resetRun();
    FakeWorker.spawned.push(this);
  }
  postMessage(msg: WorkerRequest | SweepRequest): void {
    if (this.dead) return;
    if (msg.kind === 'sweep') return runSweep(msg, this.post);
    this.requests++;
    void runRequest(msg, this.post);
  }
  terminate(): void {
    this.dead = true;
  }
  /** While set, `eviction` messages wait here (a slow worker): `release` delivers them. */
  static holdEviction = false;
  private held: WorkerResponse[] = [];
  release(): void {
    const held = this.held;
    this.held = [];
    for (const data of held) this.onmessage?.({ data } as MessageEvent<WorkerResponse>);
  }
  private post = (m: WorkerResponse, transfer: Transferable[] = []) => {
    if (this.dead) return;
    const data = structuredClone(m, { transfer });
    if (FakeWorker.holdEviction && data.kind === 'eviction') {
      this.held.push(data);
      return;
    }
    this.onmessage?.({ data } as MessageEvent<WorkerResponse>);
  };
}
