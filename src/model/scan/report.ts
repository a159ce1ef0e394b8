/**
 * The report of a fleet scan (issue 40): totals, the share of invalid requests, the recurring
 * failure signatures, each policy's share of 400s and mean overshoot, and the rate arithmetic
 * with measured fractions. The CLI computes it by the SQL of docs/scan.md over the Parquet
 * (`cli/scan/report.ts`); the page, which reads the Parquet with hyparquet and has no SQL, by
 * `reportOf` here — the same definitions, held equal by a test.
 */

/** A row as read back from the Parquet (column names as written: docs/scan.md#schema). */
export interface ScanRecord {
  schema_version: number;
  file: string;
  path: string;
  size: number;
  version: string;
  request: number | null;
  requests: number;
  format: string | null;
  provider: string | null;
  messages: number | null;
  tokens: number | null;
  token_basis: string | null;
  valid: boolean | null;
  first_rule: string | null;
  first_code: string | null;
  first_message: number | null;
  compactions: number | null;
  broken_lines: number[];
  cuts: {
    policy: string;
    fraction: number | null;
    budget: number;
    gives400: boolean;
    overshoot: number | null;
    rule: string | null;
  }[];
  error: string | null;
  error_line: number | null;
}

/** A recurring failure: the first error's rule and its catalogue code (the mechanism). */
export interface ScanSignature {
  rule: string;
  mechanism: string;
  /** Requests whose first error this is. */
  count: number;
  /** Up to `EXAMPLES` files, in name order. */
  examples: string[];
}

export interface ScanReport {
  /** Distinct files scanned (readable or not). */
  files: number;
  /** Requests read (rows without an error). */
  requests: number;
  /** Files that could not be read or parsed. */
  unreadable: number;
  /** Requests a provider answers with a 400, and their share of `requests` (0..1). */
  invalid: { count: number; share: number };
  /** By count (descending), then rule and mechanism. */
  signatures: ScanSignature[];
  /** Per policy (by name): share of its cuts (requests × budgets) that give a 400, mean overshoot. */
  policies: { policy: string; share400: number; meanOvershoot: number | null }[];
  /**
   * compactShare: readable files with a compaction in a request; breakShare: share of all cuts
   * (every policy and budget) that give a 400; sessionShare: their product.
   */
  rates: { compactShare: number; breakShare: number; sessionShare: number };
}

/**
 * Why a policy's mean overshoot is below 0, in words (the CLI's report and the page's fleet view
 * say the same), or null for 0 and above: overshoot is tokens freed ÷ tokens over the budget, and
 * a policy that writes a summary can add more than it drops.
 */
export function overshootNote(mean: number | null): string | null {
  return mean !== null && mean < 0
    ? 'below 0: what it adds, a summary, outweighs what it drops'
    : null;
}

/**
 * Shares and overshoots are rounded to 9 decimal places: sums taken in another order (another
 * engine, the shards' files in another order) differ in the last bits of a double, not here.
 */
export function round9(x: number): number {
  return Math.round(x * 1e9) / 1e9;
}

/** Example files per signature. */
export const EXAMPLES = 3;

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The report of some rows (the page's way; the CLI runs the SQL of docs/scan.md). O(rows × cuts). */
export function reportOf(rows: readonly ScanRecord[]): ScanReport {
  const files = new Set<string>();
  const unreadable = new Set<string>();
  const compacted = new Map<string, boolean>();
  const sigs = new Map<
    string,
    { rule: string; mechanism: string; count: number; files: Set<string> }
  >();
  const pol = new Map<string, { n: number; bad: number; over: number; overN: number }>();
  let requests = 0;
  let invalid = 0;
  let cuts = 0;
  let badCuts = 0;
  for (const r of rows) {
    files.add(r.file);
    if (r.error !== null) {
      unreadable.add(r.file);
      continue;
    }
    requests++;
    compacted.set(r.file, (compacted.get(r.file) ?? false) || (r.compactions ?? 0) > 0);
    if (r.valid === false) {
      invalid++;
      const key = `${r.first_rule}\u0000${r.first_code}`;
      let s = sigs.get(key);
      if (!s)
        sigs.set(
          key,
          (s = {
            rule: r.first_rule ?? '',
            mechanism: r.first_code ?? '',
            count: 0,
            files: new Set(),
          }),
        );
      s.count++;
      s.files.add(r.file);
    }
    for (const c of r.cuts) {
      let p = pol.get(c.policy);
      if (!p) pol.set(c.policy, (p = { n: 0, bad: 0, over: 0, overN: 0 }));
      p.n++;
      cuts++;
      if (c.gives400) {
        p.bad++;
        badCuts++;
      }
      if (c.overshoot !== null) {
        p.over += c.overshoot;
        p.overN++;
      }
    }
  }
  const readable = [...compacted.values()];
  const compactShare = readable.length ? readable.filter(Boolean).length / readable.length : 0;
  const breakShare = cuts ? badCuts / cuts : 0;
  return {
    files: files.size,
    requests,
    unreadable: unreadable.size,
    invalid: { count: invalid, share: round9(requests ? invalid / requests : 0) },
    signatures: [...sigs.values()]
      .sort(
        (a, b) => b.count - a.count || byText(a.rule, b.rule) || byText(a.mechanism, b.mechanism),
      )
      .map((s) => ({
        rule: s.rule,
        mechanism: s.mechanism,
        count: s.count,
        examples: [...s.files].sort(byText).slice(0, EXAMPLES),
      })),
    policies: [...pol.entries()]
      .sort(([a], [b]) => byText(a, b))
      .map(([policy, p]) => ({
        policy,
        share400: round9(p.n ? p.bad / p.n : 0),
        meanOvershoot: p.overN ? round9(p.over / p.overN) : null,
      })),
    rates: {
      compactShare: round9(compactShare),
      breakShare: round9(breakShare),
      sessionShare: round9(compactShare * breakShare),
    },
  };
}
