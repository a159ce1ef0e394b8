import { afterEach, describe, expect, it, vi } from 'vitest';
import { jobWorker } from './jobWorker.ts';

/** A Worker stand-in that answers each job with its id, and records what happens to it. */
class FakeWorker {
  static made: FakeWorker[] = [];
  onmessage: ((ev: MessageEvent) => void) | null = null;
  onerror: (() => void) | null = null;
  terminated = false;
  answerLater = false;
  pending: { id: number }[] = [];
  constructor() {
    FakeWorker.made.push(this);
  }
  postMessage(job: { id: number }): void {
    if (this.answerLater) this.pending.push(job);
    else queueMicrotask(() => this.answer(job));
  }
  answer(job: { id: number }): void {
    this.onmessage?.({ data: { id: job.id, ok: true } } as MessageEvent);
  }
  terminate(): void {
    this.terminated = true;
  }
}

describe('jobWorker', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    FakeWorker.made = [];
  });

  it('starts its worker on the first job, ends it on release, and starts a new one for the next job', async () => {
    vi.stubGlobal('Worker', FakeWorker);
    const w = jobWorker<{ id: number; ok: boolean }>('/w.js', 'test');
    expect(w.release()).toBe(false);
    expect(FakeWorker.made).toHaveLength(0);
    await expect(w.post({})).resolves.toEqual({ id: 1, ok: true });
    expect(FakeWorker.made).toHaveLength(1);
    expect(w.release()).toBe(true);
    expect(FakeWorker.made[0]?.terminated).toBe(true);
    expect(w.release()).toBe(false);
    await expect(w.post({})).resolves.toEqual({ id: 2, ok: true });
    expect(FakeWorker.made).toHaveLength(2);
    expect(FakeWorker.made[1]?.terminated).toBe(false);
  });

  it('a release asked for while a job waits ends the worker once that job is answered', async () => {
    vi.stubGlobal('Worker', FakeWorker);
    const w = jobWorker<{ id: number; ok: boolean }>('/w.js', 'test');
    await w.post({});
    const fake = FakeWorker.made[0] as FakeWorker;
    fake.answerLater = true;
    const waiting = w.post({});
    expect(w.release()).toBe(false);
    expect(fake.terminated).toBe(false);
    fake.answer(fake.pending[0] as { id: number });
    await expect(waiting).resolves.toEqual({ id: 2, ok: true });
    expect(fake.terminated).toBe(true);
    // A job posted before the answer keeps it: the release is dropped.
    const again = w.post({});
    const second = FakeWorker.made[1] as FakeWorker;
    second.answerLater = true;
    const more = w.post({});
    expect(w.release()).toBe(false);
    w.post({});
    second.answer(second.pending[0] as { id: number });
    await more;
    expect(second.terminated).toBe(false);
    await again;
  });

  it('answers null where no worker can run, and release has nothing to end', () => {
    vi.stubGlobal('Worker', undefined);
    const w = jobWorker<{ id: number; ok: boolean }>('/w.js', 'test');
    expect(w.post({})).toBeNull();
    expect(w.release()).toBe(false);
  });
});
