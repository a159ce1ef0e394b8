/**
 * A file's rows packed for the way from a scan worker to the main thread (issue 40): the columns
 * of each row but its cuts as a short array of primitives, and the cuts of every row flat, as
 * typed arrays (budget, overshoot, rule). A session log of 260 calls has 260 × 81 cuts at the
 * default policies and budgets: as objects they were most of what a worker serialised and the
 * main thread cloned, appended and parsed back; packed they are three typed arrays.
 */
import { recordOf, type CutSink, type ScanRow } from '../../model/scan/rows.ts';
import type { PolicyId } from '../../model/evict/types.ts';
import type { ScanRecord } from '../../model/scan/report.ts';

/** The Parquet columns a row carries besides its cuts, in the order of `SCAN_COLUMNS`. */
export const ROW_COLUMNS = [
  'schema_version',
  'file',
  'path',
  'size',
  'version',
  'request',
  'requests',
  'format',
  'provider',
  'messages',
  'tokens',
  'token_basis',
  'valid',
  'first_rule',
  'first_code',
  'first_message',
  'compactions',
  'broken_lines',
  'error',
  'error_line',
] as const satisfies readonly (keyof ScanRecord)[];

/** A row's column values (`ROW_COLUMNS` order). */
export type RowValues = (string | number | boolean | null | number[])[];

/** What one cut of a row is, by its position in the row: the policy and the budget's fraction. */
export interface CutKind {
  policy: string;
  fraction: number | null;
}

/** A file's rows, packed. */
export interface PackedRows {
  /** Each row's columns but its cuts. */
  rows: RowValues[];
  /** Cuts of each row (0 for an error row); the cut arrays below hold them row after row. */
  cutCount: Int32Array;
  /** Each cut's budget in tokens. */
  budget: Float64Array;
  /** Each cut's overshoot; NaN for null (an overshoot is a finite ratio when it is not null). */
  overshoot: Float64Array;
  /** Each cut's rule as an index into `rules`; −1 for none (the cut gives no 400). */
  rule: Int16Array;
  /** The rules the cuts name. */
  rules: string[];
}

/**
 * The cuts of a file's rows packed as `scanText` makes them (`ScanOptions.cutSink`): the typed
 * arrays of `PackedRows`, grown as cuts come, with no object per cut.
 */
export class PackedCuts implements CutSink {
  /** Cuts so far. */
  count = 0;
  budget = new Float64Array(1024);
  overshoot = new Float64Array(1024);
  rule = new Int16Array(1024);
  rules: string[] = [];
  private readonly ids = new Map<string, number>();
  private readonly kinds: readonly CutKind[];
  /** @param kinds the cut kinds in the order every request row lists its cuts (policy-major) */
  constructor(kinds: readonly CutKind[]) {
    this.kinds = kinds;
  }

  /** @throws when the cut is not the kind its position in its row is (the store could not label it) */
  cut(
    policy: PolicyId,
    fraction: number | null,
    budget: number,
    rule: string | null,
    overshoot: number | null,
  ): void {
    const at = this.count++;
    const kind = this.kinds[at % this.kinds.length];
    if (!kind || kind.policy !== policy || kind.fraction !== fraction)
      throw new Error(
        `cut ${at} is ${policy} at ${fraction}, not ${kind?.policy} at ${kind?.fraction}`,
      );
    if (at === this.budget.length) {
      const grow = <T extends Float64Array | Int16Array>(a: T, b: T): T => (b.set(a), b);
      this.budget = grow(this.budget, new Float64Array(2 * at));
      this.overshoot = grow(this.overshoot, new Float64Array(2 * at));
      this.rule = grow(this.rule, new Int16Array(2 * at));
    }
    this.budget[at] = budget;
    this.overshoot[at] = overshoot ?? NaN;
    let id = -1;
    if (rule !== null) {
      id = this.ids.get(rule) ?? this.rules.length;
      if (id === this.rules.length) {
        this.rules.push(rule);
        this.ids.set(rule, id);
      }
    }
    this.rule[at] = id;
  }

  /** Forget every cut (the rows they were made for were dropped). */
  reset(): void {
    this.count = 0;
    this.rules = [];
    this.ids.clear();
  }
}

/**
 * Pack rows made by `scanText`.
 * @param cuts the rows' cuts when `scanText` packed them as it made them (`ScanOptions.cutSink`;
 *   each row's `cuts` is then empty, and each request row has one cut per kind)
 * @throws when a row's cuts are not `kinds` in order (the store could not label them), or
 *   `cuts` does not hold one per kind of each request row
 */
export function packRows(
  rows: readonly ScanRow[],
  kinds: readonly CutKind[],
  cuts?: PackedCuts,
): PackedRows {
  if (cuts) return packWith(rows, kinds, cuts);
  let total = 0;
  for (const r of rows) total += r.cuts.length;
  const cutCount = new Int32Array(rows.length);
  const budget = new Float64Array(total);
  const overshoot = new Float64Array(total);
  const rule = new Int16Array(total);
  const rules: string[] = [];
  const ruleIds = new Map<string, number>();
  const out: RowValues[] = [];
  let at = 0;
  rows.forEach((r, i) => {
    out.push(rowValues(r));
    cutCount[i] = r.cuts.length;
    r.cuts.forEach((c, j) => {
      const kind = kinds[j];
      if (!kind || kind.policy !== c.policy || kind.fraction !== c.fraction)
        throw new Error(
          `cut ${j} of ${r.file} is not ${kind?.policy ?? 'any'} at ${kind?.fraction}`,
        );
      if (c.gives400 !== (c.rule !== null))
        throw new Error(`cut ${j} of ${r.file}: gives400 disagrees with its rule`);
      budget[at] = c.budget;
      overshoot[at] = c.overshoot ?? NaN;
      let id = -1;
      if (c.rule !== null) {
        id = ruleIds.get(c.rule) ?? rules.length;
        if (id === rules.length) {
          rules.push(c.rule);
          ruleIds.set(c.rule, id);
        }
      }
      rule[at++] = id;
    });
  });
  return { rows: out, cutCount, budget, overshoot, rule, rules };
}

/** A row's columns but its cuts. */
function rowValues(r: ScanRow): RowValues {
  const rec = recordOf(r);
  return ROW_COLUMNS.map((c) => rec[c]);
}

/** `packRows` of rows whose cuts `PackedCuts` holds (one per kind of each request row). */
function packWith(
  rows: readonly ScanRow[],
  kinds: readonly CutKind[],
  cuts: PackedCuts,
): PackedRows {
  const cutCount = new Int32Array(rows.length);
  let total = 0;
  rows.forEach((r, i) => {
    if (r.cuts.length > 0)
      throw new Error(`${r.file}: a row has its own cuts beside the packed ones`);
    const n = r.error === null ? kinds.length : 0;
    cutCount[i] = n;
    total += n;
  });
  if (total !== cuts.count)
    throw new Error(`${rows[0]?.file}: ${cuts.count} cuts packed for rows of ${total}`);
  return {
    rows: rows.map(rowValues),
    cutCount,
    // Copies of the cuts' length: a view would carry its whole buffer to the main thread.
    budget: cuts.budget.slice(0, total),
    overshoot: cuts.overshoot.slice(0, total),
    rule: cuts.rule.slice(0, total),
    rules: cuts.rules,
  };
}

/** The cut kinds of policies × budgets, in the order a request row lists its cuts. */
export function cutKinds(
  policies: readonly string[],
  budgets: readonly ({ fraction: number } | { tokens: number })[],
): CutKind[] {
  return policies.flatMap((policy) =>
    budgets.map((b) => ({ policy, fraction: 'fraction' in b ? b.fraction : null })),
  );
}
