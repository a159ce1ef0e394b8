/**
 * The rows of `scan` on their way into Parquet through DuckDB (`@duckdb/node-api`): as files
 * finish, each file's packed rows (packed.ts) are appended to two in-memory tables, the rows'
 * columns through the Appender and their cuts through data chunks (typed arrays copied into
 * DuckDB's vectors whole, no value object or call per cut); at the end one `COPY` joins them into the schema of
 * docs/scan.md (version `SCAN_SCHEMA_VERSION`: each row's cuts a list of structs), with the rows
 * of an earlier scan kept when resuming. The Parquet is written to a temporary name and renamed,
 * so the output is always a whole file (also after Ctrl-C).
 */
import { existsSync, renameSync } from 'node:fs';
import { SCAN_SCHEMA_VERSION } from '../../model/scan/rows.ts';
import type * as DuckDB from '@duckdb/node-api';
import type { DuckDBAppender, DuckDBConnection } from '@duckdb/node-api';
import type DuckDBBindingsModule from '@duckdb/node-bindings';
import { ROW_COLUMNS, type CutKind, type PackedRows, type RowValues } from './packed.ts';

/** The DuckDB module, loaded only when a scan runs. */
type DuckDBApi = typeof DuckDB;

/** DuckDB's C API bindings (under `@duckdb/node-api`): a vector's values copied in whole. */
type DuckDBBindings = typeof DuckDBBindingsModule;

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

/** A SQL string literal. */
export const sqlString = (s: string) => `'${s.replace(/'/g, "''")}'`;

/**
 * A new in-memory DuckDB connection (the module is loaded only when a scan runs). A scan's rows
 * wait in DuckDB until the final `COPY`; what outgrows DuckDB's memory limit spills to its
 * `temp_directory`, by default `.tmp` in the working directory (which may be read-only or
 * elsewhere than the output's disk): with `spillDir` it spills there instead.
 */
export async function connect(spillDir?: string): Promise<DuckDBConnection> {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const db = await DuckDBInstance.create(':memory:');
  const con = await db.connect();
  if (spillDir) await con.run(`SET temp_directory = ${sqlString(spillDir)}`);
  return con;
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

/** The cuts' column: a list of structs (docs/scan.md#schema). */
const CUTS_TYPE = (SCAN_COLUMNS.find(([n]) => n === 'cuts') as [string, string])[1];

/** Rows in one data chunk of cuts (DuckDB's vector size). */
const CHUNK = 2048;

/**
 * One data chunk of cuts being filled: each column a typed array copied into its DuckDB vector
 * whole (`copy_data_to_vector`), the nulls of the overshoot and the rule in validity masks (a bit
 * per cut, 1 = a value) — no call per value (setting 4.2 million cuts' five values one by one,
 * each validity bit through BigInt arithmetic, took ten seconds of the main thread).
 */
class CutChunk {
  readonly rowId = new Int32Array(CHUNK);
  readonly cut = new Int32Array(CHUNK);
  readonly budget = new Float64Array(CHUNK);
  readonly overshoot = new Float64Array(CHUNK);
  readonly rule = new Int32Array(CHUNK);
  readonly overshootValid = new Uint8Array(CHUNK / 8).fill(0xff);
  readonly ruleValid = new Uint8Array(CHUNK / 8).fill(0xff);
  size = 0;

  /** Empty it for the next chunk. */
  clear(): void {
    this.size = 0;
    this.overshootValid.fill(0xff);
    this.ruleValid.fill(0xff);
  }
}

/** Clear bit `i` of a validity mask (the value is null). */
function setNull(mask: Uint8Array, i: number): void {
  mask[i >> 3] = (mask[i >> 3] as number) & ~(1 << (i & 7));
}

/**
 * The rows of one scan, in DuckDB until `write`: `scan_rows` (a row id and every column but the
 * cuts) and `scan_cuts` (row id, the cut's position in its row, budget, overshoot, rule id), with
 * `scan_kinds` naming each position's policy and fraction and `scan_rules` each rule id's rule.
 */
export class RowStore {
  /** Rows appended so far. */
  rows = 0;
  private readonly chunk = new CutChunk();
  /** Rule → its id in `scan_cuts.rule` (the rules of every file so far). */
  private readonly ruleIds = new Map<string, number>();
  private readonly con: DuckDBConnection;
  private readonly rowApp: DuckDBAppender;
  private readonly cutApp: DuckDBAppender;
  private readonly api: DuckDBApi;
  private readonly bindings: DuckDBBindings;
  private constructor(
    con: DuckDBConnection,
    rowApp: DuckDBAppender,
    cutApp: DuckDBAppender,
    api: DuckDBApi,
    bindings: DuckDBBindings,
  ) {
    this.con = con;
    this.rowApp = rowApp;
    this.cutApp = cutApp;
    this.api = api;
    this.bindings = bindings;
  }

  /** The tables, empty, for cuts of these kinds (in the order each request row lists them). */
  static async open(con: DuckDBConnection, kinds: readonly CutKind[]): Promise<RowStore> {
    const api = await import('@duckdb/node-api');
    const bindings = (await import('@duckdb/node-bindings')).default;
    const cols = SCAN_COLUMNS.filter(([n]) => n !== 'cuts');
    await con.run(
      `CREATE OR REPLACE TABLE scan_rows (row_id INTEGER, ${cols.map(([n, t]) => `${n} ${t}`).join(', ')})`,
    );
    await con.run(
      'CREATE OR REPLACE TABLE scan_cuts (row_id INTEGER, cut INTEGER, budget DOUBLE, overshoot DOUBLE, rule INTEGER)',
    );
    await con.run(
      'CREATE OR REPLACE TABLE scan_kinds (cut INTEGER, policy VARCHAR, fraction DOUBLE)',
    );
    const kindApp = await con.createAppender('scan_kinds');
    kinds.forEach((k, i) => {
      kindApp.appendInteger(i);
      kindApp.appendVarchar(k.policy);
      if (k.fraction === null) kindApp.appendNull();
      else kindApp.appendDouble(k.fraction);
      kindApp.endRow();
    });
    kindApp.closeSync();
    return new RowStore(
      con,
      await con.createAppender('scan_rows'),
      await con.createAppender('scan_cuts'),
      api,
      bindings,
    );
  }

  /** Append a file's packed rows. */
  add(p: PackedRows): void {
    // The file's rule ids → the store's.
    const ids = p.rules.map((r) => {
      let id = this.ruleIds.get(r);
      if (id === undefined) this.ruleIds.set(r, (id = this.ruleIds.size));
      return id;
    });
    const ch = this.chunk;
    let at = 0;
    p.rows.forEach((values, i) => {
      const id = this.rows++;
      this.appendRow(id, values);
      const n = p.cutCount[i] as number;
      for (let c = 0; c < n; c++, at++) {
        const k = ch.size++;
        ch.rowId[k] = id;
        ch.cut[k] = c;
        ch.budget[k] = p.budget[at] as number;
        const o = p.overshoot[at] as number;
        if (Number.isNaN(o)) setNull(ch.overshootValid, k);
        else ch.overshoot[k] = o;
        const ruleId = p.rule[at] as number;
        if (ruleId < 0) setNull(ch.ruleValid, k);
        else ch.rule[k] = ids[ruleId] as number;
        if (ch.size === CHUNK) this.flushCuts();
      }
    });
  }

  private appendRow(id: number, values: RowValues): void {
    const a = this.rowApp;
    a.appendInteger(id);
    ROW_COLUMNS.forEach((name, i) => {
      const v = values[i];
      if (v === null || v === undefined) a.appendNull();
      else if (name === 'broken_lines')
        a.appendList(v as number[], this.api.LIST(this.api.INTEGER));
      else if (typeof v === 'string') a.appendVarchar(v);
      else if (typeof v === 'boolean') a.appendBoolean(v);
      else if (name === 'size' || name === 'tokens') a.appendBigInt(BigInt(v as number));
      else a.appendInteger(v as number);
    });
    a.endRow();
  }

  /** Append the chunk of cuts filled so far (its columns copied whole) and empty it. */
  private flushCuts(): void {
    const ch = this.chunk;
    if (ch.size === 0) return;
    const { INTEGER, DOUBLE } = this.api;
    const b = this.bindings;
    const chunk = this.api.DuckDBDataChunk.create(
      [INTEGER, INTEGER, DOUBLE, DOUBLE, INTEGER],
      CHUNK,
    );
    const columns = [ch.rowId, ch.cut, ch.budget, ch.overshoot, ch.rule];
    columns.forEach((a, c) => {
      const vector = b.data_chunk_get_vector(chunk.chunk, c);
      b.copy_data_to_vector(vector, 0, a.buffer, a.byteOffset, a.byteLength);
      const mask = c === 3 ? ch.overshootValid : c === 4 ? ch.ruleValid : null;
      if (mask) {
        b.vector_ensure_validity_writable(vector);
        b.copy_data_to_vector_validity(vector, 0, mask.buffer, mask.byteOffset, mask.byteLength);
      }
    });
    chunk.rowCount = ch.size;
    this.cutApp.appendDataChunk(chunk);
    ch.clear();
  }

  /**
   * Write the rows (and an earlier output's rows for the files not scanned again) to `out` as
   * Parquet (snappy: the page's reader needs no codec for it), through a temporary file renamed
   * into place.
   * @param keepOld the files whose earlier rows are kept (from `out` as it was)
   */
  async write(out: string, keepOld: ReadonlySet<string>): Promise<void> {
    this.flushCuts();
    this.rowApp.closeSync();
    this.cutApp.closeSync();
    const con = this.con;
    await con.run('CREATE OR REPLACE TABLE scan_rules (id INTEGER, rule VARCHAR)');
    const ruleApp = await con.createAppender('scan_rules');
    for (const [rule, id] of this.ruleIds) {
      ruleApp.appendInteger(id);
      ruleApp.appendVarchar(rule);
      ruleApp.endRow();
    }
    ruleApp.closeSync();
    const names = SCAN_COLUMNS.map(([n]) => n).join(', ');
    // Each row's cuts in their order: listed with their position first, the list sorted, the
    // position dropped (an aggregate's own ORDER BY sorted every row's cuts together: 43 % more
    // time for the bench's 4.2 million cuts).
    const cutsOf = `SELECT row_id, CAST(list_transform(list_sort(list({'cut': c.cut, 'policy': k.policy, 'fraction': k.fraction, 'budget': CAST(c.budget AS BIGINT), 'gives400': c.rule IS NOT NULL, 'overshoot': c.overshoot, 'rule': x.rule})), lambda s: {'policy': s.policy, 'fraction': s.fraction, 'budget': s.budget, 'gives400': s.gives400, 'overshoot': s.overshoot, 'rule': s.rule}) AS ${CUTS_TYPE}) AS cuts
FROM scan_cuts c JOIN scan_kinds k ON k.cut = c.cut LEFT JOIN scan_rules x ON x.id = c.rule GROUP BY row_id`;
    const rowCols = SCAN_COLUMNS.map(([n]) =>
      n === 'cuts' ? `coalesce(c.cuts, CAST([] AS ${CUTS_TYPE})) AS cuts` : `r.${n}`,
    ).join(', ');
    const parts = [
      `SELECT ${rowCols} FROM scan_rows r LEFT JOIN (${cutsOf}) c ON c.row_id = r.row_id`,
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
}
