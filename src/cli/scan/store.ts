/**
 * The rows of `scan` on their way into Parquet through DuckDB (`@duckdb/node-api`): appended as
 * JSON Lines to a spool file beside the output as files finish, then written by one `COPY` with
 * the schema of docs/scan.md (version `SCAN_SCHEMA_VERSION`), with the rows of an earlier scan
 * kept when resuming. The Parquet is written to a temporary name and renamed, so the output is
 * always a whole file (also after Ctrl-C).
 */
import { appendFileSync, existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { recordOf, SCAN_SCHEMA_VERSION, type ScanRow } from '../../model/scan/rows.ts';
import type { DuckDBConnection } from '@duckdb/node-api';

/** The Parquet columns and their DuckDB types, in order (docs/scan.md#schema). */
export const SCAN_COLUMNS: readonly [string, string][] = [
  ['schema_version', 'INTEGER'],
  ['file', 'VARCHAR'],
  ['path', 'VARCHAR'],
  ['size', 'BIGINT'],
  ['version', 'VARCHAR'],
  ['request', 'INTEGER'],
  ['requests', 'INTEGER'],
  ['format', 'VARCHAR'],
  ['provider', 'VARCHAR'],
  ['messages', 'INTEGER'],
  ['tokens', 'BIGINT'],
  ['token_basis', 'VARCHAR'],
  ['valid', 'BOOLEAN'],
  ['first_rule', 'VARCHAR'],
  ['first_code', 'VARCHAR'],
  ['first_message', 'INTEGER'],
  ['compactions', 'INTEGER'],
  ['broken_lines', 'INTEGER[]'],
  [
    'cuts',
    'STRUCT(policy VARCHAR, fraction DOUBLE, budget BIGINT, gives400 BOOLEAN, overshoot DOUBLE, rule VARCHAR)[]',
  ],
  ['error', 'VARCHAR'],
  ['error_line', 'INTEGER'],
];

/** A row as one JSON Lines record of the spool (the Parquet column names). */
export function rowRecord(r: ScanRow): string {
  return JSON.stringify(recordOf(r));
}

/** Rows as the spool's JSON Lines: one `rowRecord` a line, each line ended. */
export function spoolRecords(rows: readonly ScanRow[]): string {
  let out = '';
  for (const r of rows) out += rowRecord(r) + '\n';
  return out;
}

/** A SQL string literal. */
export const sqlString = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** A new in-memory DuckDB connection (the module is loaded only when a scan runs). */
export async function connect(): Promise<DuckDBConnection> {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const db = await DuckDBInstance.create(':memory:');
  return db.connect();
}

/** The spool: rows appended as they come, one file per output. */
export class RowSpool {
  readonly file: string;
  rows = 0;
  constructor(out: string) {
    this.file = `${out}.spool.jsonl`;
    writeFileSync(this.file, '');
  }
  /** Append records made by `spoolRecords` (in a worker), for `rows` rows. */
  add(records: string, rows: number): void {
    if (rows === 0) return;
    appendFileSync(this.file, records);
    this.rows += rows;
  }
  remove(): void {
    rmSync(this.file, { force: true });
  }
}

/**
 * The (file, size, version) of every file an existing output holds in this schema version
 * (resuming skips them; a file scanned under an earlier version is scanned again).
 * @returns an empty map when `out` does not exist
 */
export async function scannedFiles(
  con: DuckDBConnection,
  out: string,
): Promise<Map<string, string>> {
  const done = new Map<string, string>();
  if (!existsSync(out)) return done;
  const r = await con.runAndReadAll(
    `SELECT DISTINCT file, size, version FROM read_parquet(${sqlString(out)}) WHERE schema_version = ${SCAN_SCHEMA_VERSION}`,
  );
  for (const [file, size, version] of r.getRows())
    done.set(String(file), `${String(size)}|${String(version)}`);
  return done;
}

/**
 * Write the spool's rows (and an earlier output's rows for the files not scanned again) to `out`
 * as Parquet (snappy: the page's reader needs no codec for it), through a temporary file renamed into place.
 * @param keepOld the files whose earlier rows are kept (from `out` as it was)
 */
export async function writeParquet(
  con: DuckDBConnection,
  spool: RowSpool,
  out: string,
  keepOld: ReadonlySet<string>,
): Promise<void> {
  const columns = `{${SCAN_COLUMNS.map(([n, t]) => `${n}: ${sqlString(t)}`).join(', ')}}`;
  const names = SCAN_COLUMNS.map(([n]) => n).join(', ');
  const parts = [
    spool.rows > 0
      ? `SELECT ${names} FROM read_json(${sqlString(spool.file)}, format = 'newline_delimited', columns = ${columns})`
      : `SELECT ${SCAN_COLUMNS.map(([n, t]) => `CAST(NULL AS ${t}) AS ${n}`).join(', ')} WHERE false`,
  ];
  if (keepOld.size > 0 && existsSync(out)) {
    await con.run('CREATE OR REPLACE TABLE keep_files (file VARCHAR)');
    const app = await con.createAppender('keep_files');
    for (const f of keepOld) {
      app.appendVarchar(f);
      app.endRow();
    }
    app.closeSync();
    parts.push(
      `SELECT ${names} FROM read_parquet(${sqlString(out)}) WHERE file IN (SELECT file FROM keep_files)`,
    );
  }
  const tmp = `${out}.tmp-${process.pid}`;
  await con.run(
    `COPY (SELECT * FROM (${parts.join(' UNION ALL ')}) ORDER BY file, request) TO ${sqlString(tmp)} (FORMAT parquet, COMPRESSION snappy, KV_METADATA {transcript_inspector_scan_schema: '${SCAN_SCHEMA_VERSION}'})`,
  );
  renameSync(tmp, out);
}
