/// <reference types="vite/client" />
/**
 * The page's scan of a dropped folder (issue 40): every file read once and scanned in a small
 * pool of workers (one per core, at most four; the page's thread only hands out files and keeps
 * count), with the same rows the CLI's scan makes. Where no worker can run, or one fails, the page
 * scans that file itself (`answerFleetScanJob`).
 */
import { MAX_UNPACKED_BYTES } from '../model/limits.ts';
import { tooLargeMessage } from '../model/parse/bytes.ts';
import type { ScanRecord } from '../model/scan/report.ts';
import { errorRow, recordOf, type ScanSource } from '../model/scan/rows.ts';
import { answerFleetScanJob, type FleetScanAnswer } from './fleetScanProtocol.ts';
import { jobWorker, type JobWorker } from './jobWorker.ts';
import workerUrl from './fleetScan.worker.ts?worker&url';

/** A file of the folder: its path under the folder (`/`-separated) and its contents. */
export interface FleetFile {
  path: string;
  file: Blob & { lastModified?: number };
}

/** How far a scan is: files and bytes done of all. */
export interface FleetScanProgress {
  files: number;
  filesDone: number;
  bytes: number;
  bytesDone: number;
}

/** The most workers a page scan starts. */
const MAX_WORKERS = 4;

/**
 * The pool's workers, made once per page (each starts on first use and is let go when a scan
 * ends, `scanFleetFiles`).
 */
// eslint-disable-next-line cache/no-module-cache -- lazy worker handles (threads, not data about what is loaded), like the inspect and diff workers'
const pool: JobWorker<FleetScanAnswer>[] = [];

function poolWidth(): number {
  const cores = typeof navigator === 'undefined' ? 1 : (navigator.hardwareConcurrency ?? 1);
  return Math.max(1, Math.min(MAX_WORKERS, cores));
}

function poolWorker(k: number): JobWorker<FleetScanAnswer> {
  while (pool.length <= k)
    pool.push(jobWorker<FleetScanAnswer>(workerUrl, `fleet-scan-${pool.length + 1}`));
  return pool[k] as JobWorker<FleetScanAnswer>;
}

/** One file's rows, on worker `k` where it can be, else on the page. */
async function scanOne(f: FleetFile, k: number): Promise<ScanRecord[]> {
  const source: ScanSource = {
    file: f.path,
    path: f.path,
    size: f.file.size,
    version: String(f.file.lastModified ?? 0),
  };
  if (f.file.size > MAX_UNPACKED_BYTES)
    return [recordOf(errorRow(source, tooLargeMessage(f.file.size, MAX_UNPACKED_BYTES)))];
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await f.file.arrayBuffer());
  } catch (e) {
    return [recordOf(errorRow(source, `cannot read: ${(e as Error).message}`))];
  }
  const job = { source, bytes };
  const answer = poolWorker(k).post(job);
  const a = answer ? await answer : null;
  return a?.ok ? a.value : answerFleetScanJob(job);
}

/**
 * Scan the files of a folder: one row per request of each file (an error row for a file that
 * cannot be read), in path order, as `scan` writes them to its Parquet.
 * The pool's workers are let go when it ends (those with no job of another scan waiting).
 * @param onProgress called as files finish
 * @param signal stops handing out files (the rows of the files done are returned)
 */
export async function scanFleetFiles(
  files: readonly FleetFile[],
  onProgress: (p: FleetScanProgress) => void = () => {},
  signal?: AbortSignal,
): Promise<ScanRecord[]> {
  const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const out: (ScanRecord[] | undefined)[] = new Array(sorted.length);
  const progress: FleetScanProgress = {
    files: sorted.length,
    filesDone: 0,
    bytes: sorted.reduce((s, f) => s + f.file.size, 0),
    bytesDone: 0,
  };
  onProgress({ ...progress });
  let next = 0;
  const lane = async (k: number) => {
    while (next < sorted.length && !signal?.aborted) {
      const i = next++;
      const f = sorted[i] as FleetFile;
      out[i] = await scanOne(f, k);
      progress.filesDone++;
      progress.bytesDone += f.file.size;
      onProgress({ ...progress });
    }
  };
  const width = Math.min(poolWidth(), Math.max(1, sorted.length));
  await Promise.all(Array.from({ length: width }, (_, k) => lane(k)));
  // The rows are the page's now: the workers (one per core) are not kept for the page's life.
  for (const w of pool) w.release();
  return out.flatMap((rows) => rows ?? []);
}
