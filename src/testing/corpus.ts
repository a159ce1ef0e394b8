/**
 * The shared corpus: `../shared` next to the clone, with `cases/` (small transcripts rebuilt from
 * public bug reports, each with its expected verdict) and `real/` (transcripts written by real
 * tools). It is not ours to commit: the corpus suite (`npm run test:corpus`, the
 * `*.corpus.test.ts` files and `e2e/*.corpus.spec.ts`) reads it in place, and the unit suite never
 * does. When CI=true the corpus must be there; elsewhere its absence is said, not failed.
 *
 * Test support only: production code never imports this file. `TI_CORPUS_DIR` points the suite
 * at another copy (or at a missing folder, to see the CI failure).
 */
import { nameTable } from '../model/own.ts';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { FormatId, ProviderId } from '../model/types.ts';

const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

/** The corpus folder: `$TI_CORPUS_DIR`, else `../shared` beside the repository. */
export const CORPUS_DIR = path.resolve(REPO_ROOT, process.env.TI_CORPUS_DIR ?? '../shared');
/** Cases rebuilt from public bug reports (`NN-name.json`). */
export const CASES_DIR = path.join(CORPUS_DIR, 'cases');
/** Real transcripts, one folder per writer (`real/<dir>/<file>`). */
export const REAL_DIR = path.join(CORPUS_DIR, 'real');

/** True when both halves of the corpus are there. */
export function corpusPresent(): boolean {
  return existsSync(CASES_DIR) && existsSync(REAL_DIR);
}

/** The message the corpus suite gives when the corpus is missing (a failure when `ci`). */
export function missingCorpusMessage(ci: boolean): string {
  return ci
    ? `The corpus is missing: ${CASES_DIR} and ${REAL_DIR} must exist when CI=true ` +
        '(CI checks out ../shared next to the clone; TI_CORPUS_DIR points elsewhere). ' +
        'No corpus check ran.'
    : `Corpus suite: ${CORPUS_DIR} is absent, so 0 corpus checks ran (CI=true requires it). ` +
        "The project's own fixtures cover the same behaviours in npm run test:unit.";
}

/** True when the process runs in CI (the corpus is then required). */
export function inCi(): boolean {
  return process.env.CI === 'true' || process.env.CI === '1';
}

/** One file of `cases/`, as written there. */
export interface CorpusCase {
  format: FormatId;
  provider_api: string;
  transcript: unknown;
  error_seen?: string;
  before_trim?: unknown;
  trim?: { policy: string; keep_system?: boolean; keep?: number; drop?: number };
  source_transcript?: unknown;
  source_format?: FormatId;
  expected: {
    valid: boolean;
    violations: { kind: string; message_index: number; ids: string[]; api_path?: string }[];
  };
}

/** The provider a case's `provider_api` names, as our provider id. */
export const PROVIDER_OF_API: ReadonlyMap<string, ProviderId> = nameTable({
  'anthropic-messages': 'anthropic',
  'openai-chat': 'openai-chat',
  'openai-responses': 'openai-responses',
  gemini: 'gemini',
  'bedrock-converse': 'bedrock',
});

/** Every case file (`NN-*.json`, sorted), parsed; empty when the corpus is absent. */
export function corpusCases(): { file: string; c: CorpusCase }[] {
  if (!existsSync(CASES_DIR)) return [];
  return readdirSync(CASES_DIR)
    .filter((f) => /^\d.*\.json$/.test(f))
    .sort()
    .map((file) => ({
      file,
      c: JSON.parse(readFileSync(path.join(CASES_DIR, file), 'utf8')) as CorpusCase,
    }));
}

/**
 * Real files as `<dir>/<file>` paths relative to `real/` (sorted), all of them or those of one
 * writer's folder; empty when the corpus is absent.
 */
export function realFiles(dir?: string): string[] {
  if (!existsSync(REAL_DIR)) return [];
  const dirs = dir
    ? [dir]
    : readdirSync(REAL_DIR).filter((d) => statSync(path.join(REAL_DIR, d)).isDirectory());
  return dirs
    .flatMap((d) =>
      existsSync(path.join(REAL_DIR, d))
        ? readdirSync(path.join(REAL_DIR, d)).map((f) => path.join(d, f))
        : [],
    )
    .sort();
}

/** The text of a real file (a path as `realFiles` gives it). */
export function readReal(rel: string): string {
  return readFileSync(path.join(REAL_DIR, rel), 'utf8');
}
