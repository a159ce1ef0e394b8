/**
 * A file's rows packed for the way from a scan worker to the main thread (issue 40): the columns
 * of each row but its cuts as a short array of primitives, and the cuts of every row flat, as
 * typed arrays (budget, overshoot, rule). A session log of 260 calls has 260 × 81 cuts at the
 * default policies and budgets: as objects they were most of what a worker serialised and the
 * main thread cloned, appended and parsed back; packed they are three typed arrays.
 */
import { recordOf, type ScanRow } from '../../model/scan/rows.ts';
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
 * Pack rows made by `scanText`.
 * @param kinds the cut kinds in the order every request row lists its cuts (policy-major)
 * @throws when a row's cuts are not `kinds` in order (the store could not label them)
 */
export function packRows(rows: readonly ScanRow[], kinds: readonly CutKind[]): PackedRows {
  let cuts = 0;
  for (const r of rows) cuts += r.cuts.length;
  const cutCount = new Int32Array(rows.length);
  const budget = new Float64Array(cuts);
  const overshoot = new Float64Array(cuts);
  const rule = new Int16Array(cuts);
  const rules: string[] = [];
  const ruleIds = new Map<string, number>();
  const out: RowValues[] = [];
  let at = 0;
  rows.forEach((r, i) => {
    const rec = recordOf(r);
    out.push(ROW_COLUMNS.map((c) => rec[c]));
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

/** The cut kinds of policies × budgets, in the order a request row lists its cuts. */
export function cutKinds(
  policies: readonly string[],
  budgets: readonly ({ fraction: number } | { tokens: number })[],
): CutKind[] {
  return policies.flatMap((policy) =>
    budgets.map((b) => ({ policy, fraction: 'fraction' in b ? b.fraction : null })),
  );
}
