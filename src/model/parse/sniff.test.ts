/**
 * Detection across formats: the log and framework parsers (claude-code-jsonl, codex-jsonl,
 * langchain, vercel-ai) claim their own samples unaided and none of the other formats' samples
 * or the shared cases.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FormatId } from '../types.ts';
import { detectFormats, readSource } from './index.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const samplesDir = path.join(repoRoot, 'public/samples');
const casesDir = path.join(path.resolve(repoRoot, '../shared'), 'cases');
const MINE: FormatId[] = ['claude-code-jsonl', 'codex-jsonl', 'langchain', 'vercel-ai'];

interface SampleEntry {
  file: string;
  format: FormatId;
}
const index = JSON.parse(
  readFileSync(path.join(samplesDir, 'index.json'), 'utf8'),
) as SampleEntry[];

function detect(text: string, name?: string) {
  const src = readSource(text, name);
  if (!src.ok) throw new Error(src.error.message);
  return detectFormats(src.value);
}

describe('samples in public/samples', () => {
  it('every listed sample exists', () => {
    for (const s of index) expect(existsSync(path.join(samplesDir, s.file)), s.file).toBe(true);
  });

  for (const s of index) {
    it(`${s.file} (${s.format})`, () => {
      // No file name hint: detection must work on content alone.
      const found = detect(readFileSync(path.join(samplesDir, s.file), 'utf8'));
      if (MINE.includes(s.format)) expect(found[0]?.format).toBe(s.format);
      else expect(found.filter((c) => MINE.includes(c.format))).toEqual([]);
    });
  }
});

describe.skipIf(!existsSync(casesDir))(
  'shared cases (skipped when ../shared/cases is absent)',
  () => {
    const files = existsSync(casesDir)
      ? readdirSync(casesDir).filter((f) => f.endsWith('.json'))
      : [];
    it('there are cases to check', () => expect(files.length).toBeGreaterThan(0));
    for (const f of files) {
      it(`${f}: no log or framework parser claims it`, () => {
        const c = JSON.parse(readFileSync(path.join(casesDir, f), 'utf8')) as Record<
          string,
          unknown
        >;
        for (const key of ['transcript', 'before_trim', 'source_transcript']) {
          if (c[key] === undefined) continue;
          const found = detectFormats({ kind: 'json', value: c[key] });
          expect(
            found.filter((x) => MINE.includes(x.format)),
            `${f} ${key}`,
          ).toEqual([]);
        }
      });
    }
  },
);
