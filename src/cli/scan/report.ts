/**
 * The report of `scan`, computed by SQL over the Parquet: the queries below are the ones
 * docs/scan.md prints (a test checks each appears there verbatim), run by DuckDB over a view
 * `scan` of one or many Parquet files (every shard's). `reportOf` (model/scan/report.ts) is the
 * same in JavaScript for the page.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { EXAMPLES, round9, type ScanReport } from '../../model/scan/report.ts';
import { sqlString } from './store.ts';

/** Totals: files, requests, unreadable files, invalid requests. */
export const SQL_TOTALS = `SELECT
  count(DISTINCT file) AS files,
  sum(CASE WHEN error IS NULL THEN 1 ELSE 0 END) AS requests,
  count(DISTINCT CASE WHEN error IS NOT NULL THEN file END) AS unreadable,
  sum(CASE WHEN valid = false THEN 1 ELSE 0 END) AS invalid
FROM scan`;

/** Signatures: the first error's rule and code, by count. */
export const SQL_SIGNATURES = `SELECT first_rule AS rule, first_code AS mechanism, count(*) AS count
FROM scan
WHERE valid = false
GROUP BY first_rule, first_code
ORDER BY count DESC, rule, mechanism`;

/** Example files of each signature (the first few by name). */
export const SQL_EXAMPLES = `SELECT rule, mechanism, file FROM (
  SELECT first_rule AS rule, first_code AS mechanism, file,
    row_number() OVER (PARTITION BY first_rule, first_code ORDER BY file) AS k
  FROM (SELECT DISTINCT first_rule, first_code, file FROM scan WHERE valid = false) d
) e
WHERE k <= ${EXAMPLES}
ORDER BY rule, mechanism, file`;

/** Per policy: share of its cuts that give a 400, mean overshoot (DuckDB's UNNEST; docs/scan.md gives Trino's). */
export const SQL_POLICIES = `SELECT c.policy AS policy,
  avg(CASE WHEN c.gives400 THEN 1.0 ELSE 0.0 END) AS share400,
  avg(c.overshoot) AS mean_overshoot
FROM scan CROSS JOIN UNNEST(scan.cuts) AS u(c)
GROUP BY c.policy
ORDER BY policy`;

/** The rate arithmetic: sessions that compact × cuts that break. */
export const SQL_RATES = `SELECT compact_share, break_share, compact_share * break_share AS session_share
FROM (
  SELECT avg(CASE WHEN compacted THEN 1.0 ELSE 0.0 END) AS compact_share
  FROM (SELECT file, max(compactions) > 0 AS compacted FROM scan WHERE error IS NULL GROUP BY file) f
) a CROSS JOIN (
  SELECT avg(CASE WHEN c.gives400 THEN 1.0 ELSE 0.0 END) AS break_share
  FROM scan CROSS JOIN UNNEST(scan.cuts) AS u(c)
) b`;

/** The first unreadable files and why (the words list them under the report; not in its JSON). */
export const SQL_UNREADABLE = `SELECT file, error, error_line FROM scan
WHERE error IS NOT NULL
ORDER BY file
LIMIT 5`;

/** An unreadable file as the words show it: its name, the error, its line when known. */
export interface UnreadableFile {
  file: string;
  error: string;
  line: number | null;
}

/**
 * The first unreadable files of the Parquet files `reportSql` last read (its view `scan`), by name.
 * @param con the connection `reportSql` ran on
 */
export async function unreadableSql(con: DuckDBConnection): Promise<UnreadableFile[]> {
  const rows = (await con.runAndReadAll(SQL_UNREADABLE)).getRowObjectsJS();
  return rows.map((r) => ({
    file: String(r.file),
    error: String(r.error),
    line: r.error_line === null || r.error_line === undefined ? null : Number(r.error_line),
  }));
}

/**
 * The first files of which lines were skipped (JSON Lines that do not parse, skipped as the page
 * skips them), with how many such files in all (the words list them; not in its JSON).
 */
export const SQL_SKIPPED_LINES = `SELECT file, any_value(broken_lines) AS lines, count(*) OVER () AS files
FROM scan
WHERE len(broken_lines) > 0
GROUP BY file
ORDER BY file
LIMIT 5`;

/** Files whose lines were skipped, as the words show them: the first few, and how many in all. */
export interface SkippedLines {
  files: number;
  first: { file: string; lines: number[] }[];
}

/**
 * The files of which the scan skipped lines, over the view `scan` that `reportSql` last made.
 * @param con the connection `reportSql` ran on
 */
export async function skippedLinesSql(con: DuckDBConnection): Promise<SkippedLines> {
  const rows = (await con.runAndReadAll(SQL_SKIPPED_LINES)).getRowObjectsJS();
  return {
    files: num(rows[0]?.files),
    first: rows.map((r) => ({
      file: String(r.file),
      lines: Array.isArray(r.lines) ? r.lines.map(Number) : [],
    })),
  };
}

/** What the words add under the totals (not in the report's JSON). */
export interface ReportWords {
  unreadable: readonly UnreadableFile[];
  skipped: SkippedLines;
}

/** No files listed under the totals (a report in JSON, or none asked). */
export const NO_WORDS: ReportWords = { unreadable: [], skipped: { files: 0, first: [] } };

/** The words' lists over the view `scan` that `reportSql` last made. */
export async function wordsSql(con: DuckDBConnection): Promise<ReportWords> {
  return { unreadable: await unreadableSql(con), skipped: await skippedLinesSql(con) };
}

/** Every query the report runs, by name (docs/scan.md shows each). */
export const REPORT_SQL = {
  totals: SQL_TOTALS,
  signatures: SQL_SIGNATURES,
  examples: SQL_EXAMPLES,
  policies: SQL_POLICIES,
  rates: SQL_RATES,
} as const;

const num = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));
const share = (v: unknown): number => round9(num(v));

/**
 * The report over one or more Parquet files of `scan` (e.g. every shard's).
 * @param con a DuckDB connection (`connect()`)
 */
export async function reportSql(
  con: DuckDBConnection,
  files: readonly string[],
): Promise<ScanReport> {
  await con.run(
    `CREATE OR REPLACE VIEW scan AS SELECT * FROM read_parquet([${files.map(sqlString).join(', ')}])`,
  );
  const rows = async (sql: string) => (await con.runAndReadAll(sql)).getRowObjectsJS();
  const [t] = await rows(SQL_TOTALS);
  const requests = num(t?.requests);
  const invalid = num(t?.invalid);
  const examples = await rows(SQL_EXAMPLES);
  const [r] = await rows(SQL_RATES);
  return {
    files: num(t?.files),
    requests,
    unreadable: num(t?.unreadable),
    invalid: { count: invalid, share: round9(requests ? invalid / requests : 0) },
    signatures: (await rows(SQL_SIGNATURES)).map((s) => ({
      rule: String(s.rule),
      mechanism: String(s.mechanism),
      count: num(s.count),
      examples: examples
        .filter((e) => e.rule === s.rule && e.mechanism === s.mechanism)
        .map((e) => String(e.file)),
    })),
    policies: (await rows(SQL_POLICIES)).map((p) => ({
      policy: String(p.policy),
      share400: share(p.share400),
      meanOvershoot: p.mean_overshoot === null ? null : share(p.mean_overshoot),
    })),
    rates: {
      compactShare: share(r?.compact_share),
      breakShare: share(r?.break_share),
      sessionShare: share(r?.session_share),
    },
  };
}
