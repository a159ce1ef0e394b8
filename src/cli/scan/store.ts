/**
 * The rows of `scan` on their way into Parquet through DuckDB (`@duckdb/node-api`): as files
 * finish, each file's packed rows (packed.ts) are appended to an in-memory table in the schema
 * of docs/scan.md (version `SCAN_SCHEMA_VERSION`: each row's cuts a list of structs) as data
 * chunks (typed arrays copied into DuckDB's vectors whole, no value object or call per cut); at
 * the end one `COPY` writes it, with the rows of an earlier scan kept when resuming. The Parquet is written to a temporary name and renamed,
 * so the output is always a whole file (also after Ctrl-C).
 */
import { existsSync, renameSync } from 'node:fs';
import { SCAN_SCHEMA_VERSION } from '../../model/scan/rows.ts';
import { RULE_IDS } from '../../model/validate/ruleRegistry.ts';
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

/** Rows in one data chunk (DuckDB's vector size). */
const CHUNK = 2048;

/** 2^32: a BIGINT's high word. */
const WORD = 4294967296;

/** A SQL `ENUM(...)` of some strings. */
const enumOf = (values: readonly string[]) => `ENUM(${values.map(sqlString).join(', ')})`;

/**
 * The cuts' column as the store holds it: the Parquet's list of structs with the policy and the
 * rule as ENUMs (their codes copied in whole, no string per cut). DuckDB writes an ENUM to
 * Parquet as the same UTF8 strings as a VARCHAR (the file's schema and values are those of
 * docs/scan.md), and much faster: each of the 4.2 million cuts' two strings hashed into the
 * column's dictionary cost about 0.5 s per field on the bench's fleet, their codes about 0.12 s.
 */
function storedCutsType(policies: readonly string[]): string {
  return CUTS_TYPE.replace('policy VARCHAR', `policy ${enumOf(policies)}`).replace(
    'rule VARCHAR',
    `rule ${enumOf(RULE_IDS)}`,
  );
}

/** `n` codes of an ENUM of `values` values: one byte each up to 255 values, else two. */
const enumCodes = (values: number, n: number) =>
  values <= 255 ? new Uint8Array(n) : new Uint16Array(n);

/** A validity mask (a bit per value, 1 = a value) of `n` values, all valid. */
const allValid = (n: number) => new Uint8Array(Math.ceil(n / 8) || 1).fill(0xff);

/** Clear bit `i` of a validity mask (the value is null). */
function setNull(mask: Uint8Array, i: number): void {
  mask[i >> 3] = (mask[i >> 3] as number) & ~(1 << (i & 7));
}

/**
 * The rows of one scan, in DuckDB until `write`: `scan_rows`, every column of docs/scan.md in
 * its order, the cuts' policy and rule as ENUMs (`storedCutsType`). A file's rows are appended
 * as data chunks: each column a typed array copied into its vector whole (a string column one
 * call per value), the cuts a list vector whose struct's fields are copied whole (no call per
 * cut; appending rows one value at a time, and the cuts to a table of their own to be grouped
 * back into lists by the final `COPY`, took twice the time of that `COPY`).
 */
export class RowStore {
  /** Rows appended so far. */
  rows = 0;
  /**
   * True while the rows were appended in the Parquet's order (by file, as DuckDB orders
   * VARCHARs: their UTF-8 bytes; then by request): `write` then keeps the table's order instead
   * of sorting it (about a second for the bench's 51,878 rows and their cuts).
   */
  private sorted = true;
  /** The file of the last row appended, as UTF-8, and its request (−1: none or null). */
  private lastFile: Buffer | null = null;
  private lastRequest = -1;
  private readonly con: DuckDBConnection;
  private readonly app: DuckDBAppender;
  private readonly types: DuckDB.DuckDBType[];
  private readonly api: DuckDBApi;
  private readonly bindings: DuckDBBindings;
  /** Each cut position's policy (its code in the policy ENUM) and budget fraction (NaN: none). */
  private readonly kindPolicy: Uint16Array;
  /** Values of the policy ENUM. */
  private readonly policyCount: number;
  private readonly kindFraction: Float64Array;
  /** The rule ENUM's codes, by rule. */
  private readonly ruleCodes: Map<string, number>;
  private constructor(
    con: DuckDBConnection,
    app: DuckDBAppender,
    api: DuckDBApi,
    bindings: DuckDBBindings,
    kinds: readonly CutKind[],
    policies: readonly string[],
  ) {
    this.con = con;
    this.app = app;
    this.api = api;
    this.bindings = bindings;
    this.types = Array.from({ length: app.columnCount }, (_, i) => app.columnType(i));
    this.kindPolicy = Uint16Array.from(kinds, (k) => policies.indexOf(k.policy));
    this.policyCount = Math.max(1, policies.length);
    this.kindFraction = Float64Array.from(kinds, (k) => k.fraction ?? NaN);
    this.ruleCodes = new Map(RULE_IDS.map((r, i) => [r as string, i]));
  }

  /** The table, empty, for cuts of these kinds (in the order each request row lists them). */
  static async open(con: DuckDBConnection, kinds: readonly CutKind[]): Promise<RowStore> {
    const api = await import('@duckdb/node-api');
    const bindings = (await import('@duckdb/node-bindings')).default;
    const policies = [...new Set(kinds.map((k) => k.policy))];
    // An ENUM needs a value; a scan with no cut never uses it.
    const cutsType = storedCutsType(policies.length > 0 ? policies : ['none']);
    const cols = SCAN_COLUMNS.map(([n, t]) => `${n} ${n === 'cuts' ? cutsType : t}`);
    await con.run(`CREATE OR REPLACE TABLE scan_rows (${cols.join(', ')})`);
    return new RowStore(con, await con.createAppender('scan_rows'), api, bindings, kinds, policies);
  }

  /**
   * Append a file's packed rows. @throws when a cut names a rule that is not a `RuleId` (the
   * rule ENUM holds every rule of the registry)
   */
  add(p: PackedRows): void {
    const codes = p.rules.map((r) => {
      const c = this.ruleCodes.get(r);
      if (c === undefined) throw new Error(`scan: a cut's rule "${r}" is not in the rule registry`);
      return c;
    });
    this.track(p);
    let cutAt = 0;
    for (let from = 0; from < p.rows.length; from += CHUNK) {
      const to = Math.min(p.rows.length, from + CHUNK);
      let cuts = 0;
      for (let i = from; i < to; i++) cuts += p.cutCount[i] as number;
      this.appendChunk(p, from, to, cutAt, cuts, codes);
      cutAt += cuts;
    }
    this.rows += p.rows.length;
  }

  /** Whether the rows of `p`, appended after those so far, keep them in the Parquet's order. */
  private track(p: PackedRows): void {
    const fileCol = ROW_COLUMNS.indexOf('file');
    const requestCol = ROW_COLUMNS.indexOf('request');
    for (const row of p.rows) {
      const file = Buffer.from(String(row[fileCol]));
      const request = typeof row[requestCol] === 'number' ? row[requestCol] : -1;
      const c = this.lastFile === null ? 1 : Buffer.compare(file, this.lastFile);
      // A null request sorts last (DuckDB's NULLS LAST): an error row is its file's only row.
      if (c < 0 || (c === 0 && (request === -1 || request <= this.lastRequest)))
        this.sorted = false;
      this.lastFile = file;
      this.lastRequest = request;
    }
  }

  /** Rows [from, to) of a file as one data chunk; their cuts start at `cutAt` in its arrays. */
  private appendChunk(
    p: PackedRows,
    from: number,
    to: number,
    cutAt: number,
    cuts: number,
    codes: readonly number[],
  ): void {
    const n = to - from;
    const b = this.bindings;
    const chunk = this.api.DuckDBDataChunk.create(this.types, n);
    const vector = (c: number) => b.data_chunk_get_vector(chunk.chunk, c);
    const copy = (v: DuckDBBindingsModule.Vector, a: ArrayBufferView) =>
      b.copy_data_to_vector(v, 0, a.buffer as ArrayBuffer, a.byteOffset, a.byteLength);
    const validity = (v: DuckDBBindingsModule.Vector, mask: Uint8Array) => {
      b.vector_ensure_validity_writable(v);
      b.copy_data_to_vector_validity(
        v,
        0,
        mask.buffer as ArrayBuffer,
        mask.byteOffset,
        mask.byteLength,
      );
    };
    SCAN_COLUMNS.forEach(([name, type], c) => {
      const v = vector(c);
      if (name === 'cuts') {
        this.fillCuts(v, p, from, to, cutAt, cuts, codes, copy, validity);
        return;
      }
      const col = ROW_COLUMNS.indexOf(name as (typeof ROW_COLUMNS)[number]);
      const mask = allValid(n);
      let nulls = false;
      const value = (i: number) => {
        const x = (p.rows[from + i] as RowValues)[col];
        if (x === null || x === undefined) {
          setNull(mask, i);
          nulls = true;
          return null;
        }
        return x;
      };
      if (type === 'VARCHAR') {
        for (let i = 0; i < n; i++) {
          const x = value(i);
          if (x !== null) b.vector_assign_string_element(v, i, x as string);
        }
      } else if (type === 'INTEGER') {
        const a = new Int32Array(n);
        for (let i = 0; i < n; i++) a[i] = (value(i) as number | null) ?? 0;
        copy(v, a);
      } else if (type === 'BIGINT') {
        const a = new Uint32Array(2 * n);
        for (let i = 0; i < n; i++) {
          const x = (value(i) as number | null) ?? 0;
          a[2 * i] = x % WORD;
          a[2 * i + 1] = Math.floor(x / WORD);
        }
        copy(v, a);
      } else if (type === 'BOOLEAN') {
        const a = new Uint8Array(n);
        for (let i = 0; i < n; i++) a[i] = value(i) === true ? 1 : 0;
        copy(v, a);
      } else if (type === 'INTEGER[]') {
        const entries = new BigUint64Array(2 * n);
        let total = 0;
        for (let i = 0; i < n; i++) {
          const list = (value(i) as number[] | null) ?? [];
          entries[2 * i] = BigInt(total);
          entries[2 * i + 1] = BigInt(list.length);
          total += list.length;
        }
        const child = new Int32Array(total);
        let k = 0;
        for (let i = 0; i < n; i++)
          for (const x of ((p.rows[from + i] as RowValues)[col] as number[] | null) ?? [])
            child[k++] = x;
        b.list_vector_reserve(v, total);
        b.list_vector_set_size(v, total);
        copy(v, entries);
        if (total > 0) copy(b.list_vector_get_child(v), child);
      } else throw new Error(`scan: no way to append a ${type} column`);
      if (nulls) validity(v, mask);
    });
    chunk.rowCount = n;
    this.app.appendDataChunk(chunk);
  }

  /**
   * The cuts' list vector of rows [from, to): each row's entry (offset, length) and the struct's
   * fields copied whole: the policy's and the rule's ENUM codes, the fraction, the budget (a
   * BIGINT as two words), whether it gives a 400, the overshoot; null fraction, overshoot and
   * rule in validity masks.
   */
  private fillCuts(
    v: DuckDBBindingsModule.Vector,
    p: PackedRows,
    from: number,
    to: number,
    cutAt: number,
    cuts: number,
    codes: readonly number[],
    copy: (v: DuckDBBindingsModule.Vector, a: ArrayBufferView) => void,
    validity: (v: DuckDBBindingsModule.Vector, mask: Uint8Array) => void,
  ): void {
    const b = this.bindings;
    const n = to - from;
    const entries = new BigUint64Array(2 * n);
    const kinds = this.kindPolicy.length;
    // An ENUM's codes are one byte up to 255 values, else two (DuckDB's physical types).
    const policy = enumCodes(this.policyCount, cuts);
    const fraction = new Float64Array(cuts);
    const budget = new Uint32Array(2 * cuts);
    const gives400 = new Uint8Array(cuts);
    const overshoot = new Float64Array(cuts);
    const rule = enumCodes(RULE_IDS.length, cuts);
    const fractionValid = allValid(cuts);
    const overshootValid = allValid(cuts);
    const ruleValid = allValid(cuts);
    let fractionNulls = false;
    let k = 0;
    for (let i = 0; i < n; i++) {
      const count = p.cutCount[from + i] as number;
      entries[2 * i] = BigInt(k);
      entries[2 * i + 1] = BigInt(count);
      if (count > kinds) throw new Error(`scan: a row has ${count} cuts, not at most ${kinds}`);
      for (let j = 0; j < count; j++, k++) {
        const at = cutAt + k;
        policy[k] = this.kindPolicy[j] as number;
        const f = this.kindFraction[j] as number;
        if (Number.isNaN(f)) {
          setNull(fractionValid, k);
          fractionNulls = true;
        } else fraction[k] = f;
        const x = p.budget[at] as number;
        budget[2 * k] = x % WORD;
        budget[2 * k + 1] = Math.floor(x / WORD);
        const o = p.overshoot[at] as number;
        if (Number.isNaN(o)) setNull(overshootValid, k);
        else overshoot[k] = o;
        const r = p.rule[at] as number;
        if (r < 0) setNull(ruleValid, k);
        else {
          gives400[k] = 1;
          rule[k] = codes[r] as number;
        }
      }
    }
    b.list_vector_reserve(v, cuts);
    b.list_vector_set_size(v, cuts);
    copy(v, entries);
    if (cuts === 0) return;
    const struct = b.list_vector_get_child(v);
    // The struct's fields in docs/scan.md's order: policy, fraction, budget, gives400, overshoot, rule.
    const field = (i: number) => b.struct_vector_get_child(struct, i);
    copy(field(0), policy);
    copy(field(1), fraction);
    if (fractionNulls) validity(field(1), fractionValid);
    copy(field(2), budget);
    copy(field(3), gives400);
    copy(field(4), overshoot);
    validity(field(4), overshootValid);
    copy(field(5), rule);
    validity(field(5), ruleValid);
  }

  /**
   * Write the rows (and an earlier output's rows for the files not scanned again) to `out` as
   * Parquet, ordered by file and request (snappy: the page's reader needs no codec for it), through a temporary file renamed
   * into place.
   * @param keepOld the files whose earlier rows are kept (from `out` as it was)
   */
  async write(out: string, keepOld: ReadonlySet<string>): Promise<void> {
    this.app.closeSync();
    const con = this.con;
    const names = SCAN_COLUMNS.map(([n]) => n).join(', ');
    const parts = [`SELECT ${names} FROM scan_rows`];
    if (keepOld.size > 0 && existsSync(out)) {
      await con.run('CREATE OR REPLACE TABLE keep_files (file VARCHAR)');
      const app = await con.createAppender('keep_files');
      for (const f of keepOld) {
        app.appendVarchar(f);
        app.endRow();
      }
      app.closeSync();
      // The stored cuts' ENUMs and the old file's strings: the union is of the Parquet's type.
      parts[0] = `SELECT ${SCAN_COLUMNS.map(([n]) => (n === 'cuts' ? `CAST(cuts AS ${CUTS_TYPE}) AS cuts` : n)).join(', ')} FROM scan_rows`;
      parts.push(
        `SELECT ${names} FROM read_parquet(${sqlString(out)}) WHERE file IN (SELECT file FROM keep_files)`,
      );
    }
    const tmp = `${out}.tmp-${process.pid}`;
    // Rows appended in order are written in the table's order (DuckDB keeps it: its
    // preserve_insertion_order); anything else is sorted.
    const rows =
      parts.length === 1 && this.sorted
        ? parts[0]
        : `SELECT * FROM (${parts.join(' UNION ALL ')}) ORDER BY file, request`;
    await con.run(
      `COPY (${rows}) TO ${sqlString(tmp)} (FORMAT parquet, COMPRESSION snappy, KV_METADATA {transcript_inspector_scan_schema: '${SCAN_SCHEMA_VERSION}'})`,
    );
    renameSync(tmp, out);
  }
}
