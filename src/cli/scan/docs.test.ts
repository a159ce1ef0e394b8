/** docs/scan.md prints the report's queries as the code runs them, and every column of the schema. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPORT_SQL, SQL_SKIPPED_LINES, SQL_UNREADABLE } from './report.ts';
import { SCAN_COLUMNS } from './store.ts';
import { SCAN_SCHEMA_VERSION } from '../../model/scan/rows.ts';

const doc = readFileSync(path.resolve(import.meta.dirname, '../../../docs/scan.md'), 'utf8');

describe('docs/scan.md', () => {
  it.each(Object.entries(REPORT_SQL))('prints the %s query verbatim', (_, sql) => {
    expect(doc).toContain('```sql\n' + sql + '\n```');
  });

  it("prints the words' query of the unreadable files verbatim", () => {
    expect(doc).toContain('```sql\n' + SQL_UNREADABLE + '\n```');
  });

  it("prints the words' query of the files with skipped lines verbatim", () => {
    expect(doc).toContain('```sql\n' + SQL_SKIPPED_LINES + '\n```');
  });

  it('describes every column with its type, and the schema version', () => {
    for (const [name, type] of SCAN_COLUMNS)
      expect(doc).toContain(`| \`${name}\` | \`${type.replace(/\|/g, '\\|')}\` |`);
    expect(doc).toContain(`Version ${SCAN_SCHEMA_VERSION} (`);
  });
});
