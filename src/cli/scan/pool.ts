/**
 * The worker pool of `scan`: piscina over the cores, running the bundled worker
 * (dist-cli/scanWorker.js, built from worker.ts). Run from the TypeScript sources (the in-process
 * tests), there is no bundled worker: files are scanned on the calling thread, one at a time.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { scanFilePacked, type PackedResult, type ScanTask } from './worker.ts';

export interface ScanPool {
  /** A file's rows, packed where they were made. */
  run(task: ScanTask): Promise<PackedResult>;
  /** How many tasks may run at once. */
  readonly width: number;
  close(): Promise<void>;
}

/** The bundled worker beside the bundled CLI, or null when running from the sources. */
function bundledWorker(): string | null {
  if (import.meta.url.endsWith('.ts')) return null;
  const f = fileURLToPath(new URL('./scanWorker.js', import.meta.url));
  return existsSync(f) ? f : null;
}

/**
 * A pool of `jobs` threads (default: the cores), or the calling thread when there is no bundled
 * worker or `jobs` is 0.
 */
export async function openPool(jobs?: number): Promise<ScanPool> {
  const worker = bundledWorker();
  const threads = jobs ?? availableParallelism();
  if (!worker || threads === 0)
    return { run: (t) => scanFilePacked(t), width: 1, close: async () => {} };
  const { Piscina } = await import('piscina');
  const pool = new Piscina({
    filename: worker,
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: 1000,
  });
  return {
    run: (t) => pool.run(t) as Promise<PackedResult>,
    width: threads * 2,
    close: () => pool.destroy(),
  };
}
