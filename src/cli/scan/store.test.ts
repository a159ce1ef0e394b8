/**
 * The scan's store (store.ts): packed rows appended as data chunks (the cuts' policy and rule as
 * ENUM codes) come out of the Parquet as the rows themselves, in the schema of docs/scan.md
 * (VARCHAR strings, not ENUMs) and in file and request order whether or not they were appended
 * in it; an earlier output's rows are kept beside them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DuckDBConnection } from '@duckdb/node-api';
import { connect, RowStore, SCAN_COLUMNS, sqlString } from './store.ts';
import { cutKinds, packRows } from './packed.ts';
import {
  errorRow,
  recordOf,
  scanText,
  type ScanBudget,
  type ScanRow,
} from '../../model/scan/rows.ts';
import type { PolicyId } from '../../model/evict/types.ts';
import { generate } from '../../../scripts/gen.ts';
import { dropResultLine } from '../../../scripts/genFleet.ts';
import { plainNumbers } from '../testing/scan.ts';

const tmp = mkdtempSync(path.join(tmpdir(), 'scan-store-'));
let con: DuckDBConnection;
beforeAll(async () => {
  con = await connect();
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const policies: PolicyId[] = ['message', 'exchange', 'summary'];
// A budget in tokens (its fraction null) beside fractions.
const budgets: ScanBudget[] = [{ fraction: 0.2 }, { tokens: 40 }, { fraction: 0.7 }];
const kinds = cutKinds(policies, budgets);

/** A file's rows: a generated session's calls (some with a pairing broken), or an error row. */
function fileRows(name: string, seed: number): ScanRow[] {
  const src = { file: `/fleet/${name}`, path: name, size: 100 + seed, version: String(seed) };
  if (seed % 4 === 3) return [errorRow(src, 'bad JSON', 7)];
  let text = generate({ messages: 12, format: 'claude-code-jsonl', seed });
  if (seed % 2 === 1) text = dropResultLine(text, seed);
  const rows = scanText(src, text, name, { policies, budgets });
  if (seed === 2 && rows[0]) rows[0].brokenLines = [3, 9];
  return rows;
}

/** A Parquet's rows as written (no ORDER BY: the file's own order), BIGINTs as numbers. */
async function parquetRows(file: string): Promise<Record<string, unknown>[]> {
  const r = await con.runAndReadAll(`SELECT * FROM read_parquet(${sqlString(file)})`);
  return r.getRowObjectsJS().map((o) => plainNumbers(o) as Record<string, unknown>);
}

/** Write files' rows through a store, appended in the order given. */
async function write(out: string, files: ScanRow[][], keepOld = new Set<string>()) {
  const store = await RowStore.open(con, kinds);
  for (const rows of files) store.add(packRows(rows, kinds));
  await store.write(out, keepOld);
}

// In the Parquet's order: by UTF-8 bytes, é (0xc3 0xa9) after z.
const names = ['a.jsonl', 'b.jsonl', 'c.jsonl', 'd.jsonl', 'z.jsonl', 'é.jsonl'];
const files = names.map((n, i) => fileRows(n, i));
const byOrder = (rows: ScanRow[][]) => rows.flat().map((r) => recordOf(r));

describe('RowStore', () => {
  it('writes the rows as they are, in the schema of docs/scan.md (strings, not ENUMs)', async () => {
    expect(files.flat().some((r) => r.cuts.some((c) => c.rule !== null))).toBe(true);
    const out = path.join(tmp, 'in-order.parquet');
    await write(out, files);
    expect(await parquetRows(out)).toEqual(byOrder(files));
    const d = await con.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${sqlString(out)})`);
    expect(d.getRows().map(([n, t]) => [n, String(t).replace(/"/g, '')])).toEqual(
      SCAN_COLUMNS.map(([n, t]) => [n, t.replace(/\[\]$/, '[]')]),
    );
    const schema = await con.runAndReadAll(
      `SELECT name, converted_type, logical_type FROM parquet_schema(${sqlString(out)}) WHERE name IN ('policy', 'rule')`,
    );
    for (const [, converted, logical] of schema.getRows()) {
      expect(converted).toBe('UTF8');
      expect(logical).toBeNull();
    }
  });

  it('writes them in file and request order when they were appended out of it', async () => {
    const out = path.join(tmp, 'shuffled.parquet');
    const shuffled = [files[4], files[0], files[5], files[2], files[1], files[3]] as ScanRow[][];
    // A file's rows reversed, too.
    shuffled[0] = [...(shuffled[0] as ScanRow[])].reverse();
    await write(out, shuffled);
    expect(await parquetRows(out)).toEqual(byOrder(files));
  });

  it('keeps an earlier output’s rows of the files not scanned again', async () => {
    const out = path.join(tmp, 'resumed.parquet');
    await write(out, files.slice(0, 3));
    const kept = new Set(files.slice(0, 2).map((f) => (f[0] as ScanRow).file));
    await write(out, files.slice(2), kept);
    expect(await parquetRows(out)).toEqual(byOrder(files));
  });

  it('refuses a cut whose rule is not in the rule registry', async () => {
    const row = files[0]?.find((r) => r.cuts.some((c) => c.rule !== null)) as ScanRow;
    const bad: ScanRow = {
      ...row,
      cuts: row.cuts.map((c) => (c.rule !== null ? { ...c, rule: 'no_such_rule' } : c)),
    };
    const store = await RowStore.open(con, kinds);
    expect(() => store.add(packRows([bad], kinds))).toThrow(/no_such_rule.*registry/);
  });
});
