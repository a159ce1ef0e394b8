/**
 * The page's scan of a dropped folder (issue 40): one job per file — its bytes and where it came
 * from — answered with its rows in the Parquet's columns (`recordOf`), by the model's `scanBytes`
 * with the scan's default policies and budgets, as the CLI's workers make them.
 */
import { recordOf, scanBytes, type ScanSource } from '../model/scan/rows.ts';
import type { ScanRecord } from '../model/scan/report.ts';

/** One file to scan: the bytes as stored (gzip or text), transferred to the worker. */
export interface FleetScanJob {
  source: ScanSource;
  bytes: Uint8Array;
}

export type FleetScanMessage = FleetScanJob & { id: number };

export type FleetScanAnswer =
  | { id: number; ok: true; value: ScanRecord[] }
  | { id: number; ok: false; error: string };

/** A file's rows (the worker's answer, or the page's own where no worker runs). Never throws. */
export function answerFleetScanJob(job: FleetScanJob): ScanRecord[] {
  return scanBytes(job.source, job.bytes).map(recordOf);
}
