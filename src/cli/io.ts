import type { FormatId, ProviderId } from '../model/types.ts';
import { PARSERS } from '../model/parse/registry.ts';
import { VALIDATORS } from '../model/validate/index.ts';
import { parseTranscript, type ParsedTranscript } from '../model/parse/index.ts';
import { linkFragment, readLink } from './link.ts';

export interface CliIO {
  read: (file: string) => { text: string; name: string };
  out: (s: string) => void;
  err: (s: string) => void;
}

export const EXIT_VALID = 0;
export const EXIT_INVALID = 1;
export const EXIT_UNREADABLE = 2;

export function checkFormat(v: string | true | undefined): FormatId | undefined {
  if (v === undefined || v === true) return undefined;
  if (!PARSERS.some((p) => p.id === v))
    throw new Error(`unknown format "${v}"; known: ${PARSERS.map((p) => p.id).join(', ')}`);
  return v as FormatId;
}

export function checkProvider(v: string | true | undefined): ProviderId | undefined {
  if (v === undefined || v === true) return undefined;
  if (!VALIDATORS.some((p) => p.id === v))
    throw new Error(`unknown provider "${v}"; known: ${VALIDATORS.map((p) => p.id).join(', ')}`);
  return v as ProviderId;
}

/**
 * `--request N` (1-based, as the page's picker numbers them) → a 0-based request index.
 * @throws Error when N is not a whole number ≥ 1
 */
export function checkRequest(v: string | true | undefined): number | undefined {
  if (v === undefined || v === true) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--request needs a number from 1, got "${v}"`);
  return n - 1;
}

/**
 * Read and parse FILE (or a link: `link.ts`); on failure print where and what was expected, and return null. A file
 * holding several requests (a HAR, a batch, an eval log) opens the one `requestIndex` names
 * (0-based; default as the page: the newest, or an eval log's first sample); without a choice a
 * note on stderr says which one was read and how to choose another. A request index past the
 * end prints an error and returns null (bad usage, exit 2).
 */
export function loadTranscript(
  io: CliIO,
  file: string,
  format: FormatId | undefined,
  requestIndex?: number,
): ParsedTranscript | null {
  let input: { text: string; name: string };
  try {
    const fragment = linkFragment(file);
    input = fragment !== null ? readLink(fragment) : io.read(file);
  } catch (e) {
    io.err(`error: cannot read ${file}: ${(e as Error).message}\n`);
    return null;
  }
  const parsed = parseTranscript(input.text, {
    ...(format ? { format } : {}),
    ...(requestIndex !== undefined ? { requestIndex } : {}),
    name: input.name,
  });
  if (!parsed.ok) {
    const e = parsed.error;
    io.err(`error: ${e.message}\n`);
    if (e.location)
      io.err(
        `  ${e.location.line} | ${e.location.lineText.slice(0, 200)}\n  ${' '.repeat(String(e.location.line).length)} | ${' '.repeat(Math.max(0, Math.min(e.location.column - 1, 200)))}^\n`,
      );
    if (e.tried) for (const t of e.tried) io.err(`  ${t.format}: expected ${t.expected}\n`);
    return null;
  }
  const { requests, requestIndex: chosen } = parsed.value;
  if (requests && requestIndex !== undefined && requestIndex !== chosen) {
    io.err(
      `error: --request ${requestIndex + 1}: ${file} holds ${requests.length} request${requests.length === 1 ? '' : 's'}\n`,
    );
    return null;
  }
  if (!requests && requestIndex !== undefined && requestIndex > 0) {
    io.err(`error: --request ${requestIndex + 1}: ${file} holds one request\n`);
    return null;
  }
  if (requests && requestIndex === undefined)
    io.err(
      `note: ${file} holds ${requests.length} requests; read #${(chosen ?? 0) + 1} (choose another with --request N)\n`,
    );
  return parsed.value;
}
