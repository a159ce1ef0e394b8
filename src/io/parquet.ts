/**
 * Reading a scan's Parquet in the page (issue 40): hyparquet, a small pure-JavaScript reader,
 * loaded only when a Parquet file is opened (a chunk of the page's own; no request leaves it).
 */
import type { ScanRecord } from '../model/scan/report.ts';
import type { Result } from '../model/types.ts';

/** BIGINT columns come back as bigint: numbers here (sizes and tokens are far below 2^53). */
function plain(v: unknown): unknown {
  if (typeof v === 'bigint') return Number(v);
  if (Array.isArray(v)) return v.map(plain);
  if (v !== null && typeof v === 'object') {
    const o = Object.create(null) as Record<string, unknown>;
    for (const [k, x] of Object.entries(v)) o[k] = plain(x);
    return o;
  }
  return v;
}

/** True for a file named as a Parquet file. */
export const isParquetName = (name: string) => /\.parquet$/i.test(name);

/**
 * The rows of a scan's Parquet (docs/scan.md#schema).
 * @returns the rows, or an error a person can read (not Parquet, or not a scan's)
 */
export async function readScanParquet(file: Blob): Promise<Result<ScanRecord[]>> {
  try {
    const { parquetReadObjects } = await import('hyparquet');
    const rows = await parquetReadObjects({ file: await file.arrayBuffer() });
    const first = rows[0];
    if (first && !('schema_version' in first && 'cuts' in first && 'path' in first))
      return {
        ok: false,
        error: {
          kind: 'shape',
          message:
            'This Parquet file is not a scan (no schema_version, path and cuts columns): open the output of the CLI’s scan command.',
        },
      };
    return { ok: true, value: rows.map((r) => plain(r) as ScanRecord) };
  } catch (e) {
    return {
      ok: false,
      error: {
        kind: 'binary',
        message: `This Parquet file could not be read: ${e instanceof Error ? e.message : String(e)}`,
      },
    };
  }
}
