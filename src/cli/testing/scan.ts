/**
 * Test-only: one file's scan rows compared with `check` on the same file and request numbering
 * (`check --requests --json`, and `check --request N --json` where N names the same request).
 */
import { expect } from 'vitest';

/** A scan row as DuckDB reads it back from the Parquet (snake_case columns). */
export interface ScanRowRead {
  file: unknown;
  request: unknown;
  requests: unknown;
  format: unknown;
  provider: unknown;
  messages: unknown;
  valid: unknown;
  first_rule: unknown;
  first_code: unknown;
  first_message: unknown;
  compactions: unknown;
  error: unknown;
}

/** The CLI run in-process: exit code and stdout. */
export type RunCli = (args: string[]) => Promise<{ code: number; out: string }>;

interface Listed {
  request: number;
  messages: number;
  valid: boolean;
  firstRule: { rule: string; code: string } | null;
  compaction: { kind: string } | null;
  thread?: string;
}

interface Checked {
  format: string;
  provider: string;
  messages: number;
  valid: boolean;
  violations: { rule: string; code: string; severity: string; messageIndex: number }[];
}

/**
 * Assert that `rows` (every row of `file`, in request order) agree with `check`: an error row
 * with `check` exiting 2; otherwise one row per request of `check --requests` (a session log's
 * model calls), each with its messages, verdict and first rule, and its compactions (a session
 * call: the listing's compactions in its thread up to it); where `check --request N` reads the
 * same request (an archive, a single body), also its first error's message index.
 * @returns the number of request rows compared
 */
export async function expectRowsAgreeWithCheck(
  file: string,
  rows: readonly ScanRowRead[],
  run: RunCli,
): Promise<number> {
  if (rows.length === 1 && rows[0]?.error !== null) {
    expect((await run(['check', file, '--json'])).code, file).toBe(2);
    return 0;
  }
  const listing = JSON.parse((await run(['check', file, '--requests', '--json'])).out) as Listed[];
  const whole = JSON.parse((await run(['check', file, '--json'])).out) as Checked;
  const session = listing.some((l) => l.thread !== undefined);
  expect(
    rows.map((r) => [Number(r.request), Number(r.requests), r.error]),
    file,
  ).toEqual(listing.map((_, k) => [k, listing.length, null]));
  const seen = new Map<string, number>();
  for (const [k, r] of rows.entries()) {
    const l = listing[k] as Listed;
    const at = `${file} #${k + 1}`;
    expect(
      {
        messages: Number(r.messages),
        valid: r.valid,
        rule: r.first_rule,
        code: r.first_code,
      },
      at,
    ).toEqual({
      messages: l.messages,
      valid: l.valid,
      rule: l.firstRule?.rule ?? null,
      code: l.firstRule?.code ?? null,
    });
    if (session) {
      const thread = l.thread ?? 'main';
      const n = (seen.get(thread) ?? 0) + (l.compaction?.kind === 'compaction' ? 1 : 0);
      seen.set(thread, n);
      expect(Number(r.compactions), at).toBe(n);
      // A session's calls are in the log's format (an archive's requests may differ: below).
      expect([r.format, r.provider], at).toEqual([whole.format, whole.provider]);
      expect(r.first_message === null, at).toBe(r.valid === true);
      continue;
    }
    const c = JSON.parse(
      (await run(['check', file, '--json', '--request', String(k + 1)])).out,
    ) as Checked;
    const first = c.violations.find((v) => v.severity === 'error');
    expect(
      [
        r.format,
        r.provider,
        Number(r.messages),
        r.valid,
        r.first_rule,
        r.first_code,
        r.first_message,
      ],
      at,
    ).toEqual([
      c.format,
      c.provider,
      c.messages,
      c.valid,
      first?.rule ?? null,
      first?.code ?? null,
      first?.messageIndex ?? null,
    ]);
  }
  return rows.length;
}

/**
 * A value as DuckDB's `getRowObjectsJS` gives it, with BIGINTs (bigint) as numbers, recursively:
 * rows as the page reads them from a Parquet.
 */
export function plainNumbers(v: unknown): unknown {
  return typeof v === 'bigint'
    ? Number(v)
    : Array.isArray(v)
      ? v.map(plainNumbers)
      : v !== null && typeof v === 'object'
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plainNumbers(x)]))
        : v;
}
