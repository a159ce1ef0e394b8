/**
 * The write floor of the fleet scan (scripts/benchScan.ts, `scan_write_floor_vs_json_parse_fleet`):
 * a scan's rows, already made and packed in memory as the workers hand them over (packed.ts),
 * written to Parquet through the scan's own store (`connect`, `RowStore.open`, `add` per file,
 * `write`) and nothing else: no reading, no rows made, no report. What the scan's append and
 * write would cost if making the rows were free.
 *
 * `node --import tsx scripts/benchScanWrite.ts IN.parquet OUT.parquet` loads IN (a scan's
 * output; not timed) into packed rows, one `PackedRows` per file, then times the store writing
 * them to OUT, and prints `{ ms, openMs, appendMs, writeMs, rows, cuts }` as JSON.
 */
import { rmSync } from 'node:fs';
import { connect, RowStore, sqlString } from '../src/cli/scan/store.ts';
import { cutKinds, ROW_COLUMNS, type PackedRows, type RowValues } from '../src/cli/scan/packed.ts';
import { POLICIES } from '../src/model/evict/registry.ts';
import { DEFAULT_BUDGETS } from '../src/model/scan/rows.ts';

/** A value as the workers pack it: BIGINT as a number, a list as an array of numbers. */
const plain = (v: unknown): string | number | boolean | null | number[] =>
  typeof v === 'bigint'
    ? Number(v)
    : Array.isArray(v)
      ? v.map((x) => Number(x))
      : (v as string | number | boolean | null);

/** Every file's rows of a scan's Parquet, packed as a worker packs them, in file order. */
async function packedOf(file: string): Promise<PackedRows[]> {
  const con = await connect();
  const cols = ROW_COLUMNS.join(', ');
  const r = await con.runAndReadAll(
    `SELECT ${cols}, list_transform(cuts, c -> c.budget) AS b, list_transform(cuts, c -> c.overshoot) AS o,
       list_transform(cuts, c -> c.rule) AS r
     FROM read_parquet(${sqlString(file)}) ORDER BY file, request`,
  );
  const rows = r.getRowsJS();
  const out: PackedRows[] = [];
  const n = ROW_COLUMNS.length;
  let i = 0;
  while (i < rows.length) {
    const f = (rows[i] as unknown[])[1];
    let j = i;
    while (j < rows.length && (rows[j] as unknown[])[1] === f) j++;
    const group = rows.slice(i, j) as unknown[][];
    let cuts = 0;
    for (const g of group) cuts += (g[n] as unknown[]).length;
    const p: PackedRows = {
      rows: [],
      cutCount: new Int32Array(group.length),
      budget: new Float64Array(cuts),
      overshoot: new Float64Array(cuts),
      rule: new Int16Array(cuts),
      rules: [],
    };
    const ids = new Map<string, number>();
    let at = 0;
    group.forEach((g, k) => {
      p.rows.push(g.slice(0, n).map(plain) as RowValues);
      const b = g[n] as bigint[];
      const o = g[n + 1] as (number | null)[];
      const rl = g[n + 2] as (string | null)[];
      p.cutCount[k] = b.length;
      b.forEach((x, c) => {
        p.budget[at] = Number(x);
        p.overshoot[at] = o[c] ?? NaN;
        const rule = rl[c] ?? null;
        let id = -1;
        if (rule !== null) {
          id = ids.get(rule) ?? p.rules.length;
          if (id === p.rules.length) {
            p.rules.push(rule);
            ids.set(rule, id);
          }
        }
        p.rule[at++] = id;
      });
    });
    out.push(p);
    i = j;
  }
  return out;
}

const [input, output] = process.argv.slice(2);
if (!input || !output) throw new Error('usage: benchScanWrite.ts IN.parquet OUT.parquet');
const files = await packedOf(input);
rmSync(output, { force: true });
const t0 = performance.now();
const con = await connect(`${output}.spill`);
const store = await RowStore.open(con, cutKinds(POLICIES, DEFAULT_BUDGETS));
const t1 = performance.now();
for (const p of files) store.add(p);
const t2 = performance.now();
await store.write(output, new Set());
const t3 = performance.now();
let cuts = 0;
for (const p of files) cuts += p.budget.length;
process.stdout.write(
  JSON.stringify({
    ms: Math.round(t3 - t0),
    openMs: Math.round(t1 - t0),
    appendMs: Math.round(t2 - t1),
    writeMs: Math.round(t3 - t2),
    rows: store.rows,
    cuts,
  }) + '\n',
);
