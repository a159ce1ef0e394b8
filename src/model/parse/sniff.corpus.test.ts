/**
 * Corpus suite: no log, framework or archive parser claims a reported case (its transcript,
 * history before the trim or source transcript), and on the real files the archive parsers claim
 * only their own. Our samples and case fixtures are checked the same way by sniff.test.ts.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusCases, readReal, realFiles } from '../../testing/corpus.ts';
import type { FormatId } from '../types.ts';
import { detectFormats, readSource } from './index.ts';
import { formatsOf } from './registry.ts';

const ARCHIVES = formatsOf('archive');
const MINE = [...formatsOf('log'), ...formatsOf('framework'), ...ARCHIVES];

describe('reported cases: no log, framework or archive parser claims them', () => {
  const cases = corpusCases();
  it('there are cases to check', () => expect(cases.length).toBeGreaterThan(0));
  for (const { file, c } of cases) {
    it(file, () => {
      for (const key of ['transcript', 'before_trim', 'source_transcript'] as const) {
        if (c[key] === undefined) continue;
        const found = detectFormats({ kind: 'json', value: c[key] });
        expect(
          found.filter((x) => MINE.includes(x.format)),
          `${file} ${key}`,
        ).toEqual([]);
      }
    });
  }
});

describe('real files: archive parsers claim only their own', () => {
  const own: Record<string, FormatId> = { 'inspect-log': 'inspect-log', 'swe-agent': 'swe-agent' };
  const files = realFiles();
  it('there are real files', () => expect(files.length).toBeGreaterThan(0));
  for (const f of files) {
    it(f, () => {
      const src = readSource(readReal(f));
      if (!src.ok) throw new Error(src.error.message);
      const found = detectFormats(src.value);
      const dir = f.split(path.sep)[0] ?? '';
      const archive = found.filter((c) => ARCHIVES.includes(c.format)).map((c) => c.format);
      expect(archive).toEqual(own[dir] ? [own[dir]] : []);
      if (own[dir]) expect(found[0]?.format).toBe(own[dir]);
    });
  }
});
