import { writeFileSync } from 'node:fs';
import { callOfCopy, withCallReply } from '../model/callCopy.ts';
import type { ParsedTranscript } from '../model/parse/index.ts';
import { readBackHinted } from '../model/redact/roundTrip.ts';
import type { FormatId } from '../model/types.ts';
import { validateTranscript } from '../model/validate/index.ts';
import { checkedStructureCopy } from '../model/redact/shareCopy.ts';
import { loadBpeCounter } from '../model/tokens.ts';
import { writeTranscript } from '../model/write.ts';
import { onlyFile, parseArgs } from './args.ts';
import { EXIT_UNREADABLE, EXIT_VALID, loadFromFlags, providerFor, type CliIO } from './io.ts';

/**
 * What to share instead of a link too large: the file itself, or for a structure-only copy (the
 * file would give away what the copy hides) that copy, written with `-o`.
 */
function tooLargeAdvice(structureOnly: boolean, out: string | undefined): string {
  if (!structureOnly) return 'Share the file itself.';
  return out !== undefined
    ? `The structure-only copy is in ${out}: share that file (it opens in the page like the link would).`
    : 'Write the structure-only copy with -o OUT and share that file, not the original.';
}

/** Write the transcript a link carries to `out`; false (said on stderr) when it cannot be written. */
function writeCopy(io: ShareIO, out: string, text: string): boolean {
  try {
    (io.write ?? ((f: string, s: string) => writeFileSync(f, s)))(
      out,
      text.endsWith('\n') ? text : `${text}\n`,
    );
    return true;
  } catch (e) {
    io.err(`error: cannot write ${out}: ${(e as Error).message}\n`);
    return false;
  }
}

/** Where `npm start` serves the page: the default base of a link. */
export const DEFAULT_BASE = 'http://localhost:4173/';

export interface ShareIO extends CliIO {
  write?: (file: string, text: string) => void;
}

/**
 * `share`: the page's "Copy link" from the command line. The link carries the transcript (or,
 * with `--structure-only`, its structure-only copy: `model/redact.ts`, placeholders counted with
 * o200k as the page counts once its tokenizer has loaded), so whoever opens it sees the same
 * exchanges, pairs and verdict. A structure-only copy is checked before it is printed: it must
 * read back the same (`shapeDifferences`) and hold nothing of the original (`leakedStrings`).
 * `-o OUT` writes the transcript the link carries, in its format. `--json` prints
 * `{link, file?}`. FILE may be a link: its format and provider ride into the new link, and its
 * faults are applied to the transcript the new link carries (linkView.ts). Exit 0 once the link
 * is printed, whatever the verdict: sharing a request that got a 400 is the usual case, so its
 * verdict is a note on stderr (`check` exits by it); 2 for unreadable input, bad usage, a copy
 * not safe to share or a transcript too large for a link. A session log's call (`--request N`)
 * is carried with its reply's first message and the link names it (`rq`), so the link opens on
 * that call (model/callCopy.ts), as the page's.
 */
export async function runShare(argv: string[], io: ShareIO): Promise<number> {
  const args = parseArgs(
    argv,
    ['format', 'request', 'base'],
    ['json', 'structure-only', 'hide-tool-names'],
  );
  const file = onlyFile(args, 'share');
  const structureOnly = args.flags['structure-only'] === true;
  if (args.flags['hide-tool-names'] === true && !structureOnly)
    throw new Error('--hide-tool-names needs --structure-only');
  const base = typeof args.flags.base === 'string' ? args.flags.base : DEFAULT_BASE;
  const parsed = await loadFromFlags(io, file, args.flags, 'share');
  if (!parsed) return EXIT_UNREADABLE;
  const t = parsed.transcript;
  const provider = providerFor(io, undefined, parsed);
  if (parsed.link && parsed.link.view.faults.length > 0)
    io.err(
      "note: the new link carries the transcript with the link's faults applied (no fx), as the page's structure-only link does\n",
    );
  let { text, request, format } = callText(parsed);
  if (structureOnly) {
    const counter = await loadBpeCounter();
    const toolNames = args.flags['hide-tool-names'] === true ? 'hide' : 'keep';
    const copy = checkedStructureCopy(t, counter, toolNames, parsed.callReply);
    text = copy.text;
    request = copy.request;
    format = copy.format;
    if (copy.problems.length > 0) {
      io.err(
        `error: the structure-only copy is not safe to share:\n  ${copy.problems.join('\n  ')}\n`,
      );
      return EXIT_UNREADABLE;
    }
  }
  // The link's codec and schema (zod), imported only when a link is made (issue 38).
  const { encodePermalinkChecked } = await import('../model/permalink/codec.ts');
  const { defaultPermalinkState } = await import('../model/permalink/schema.ts');
  const state = defaultPermalinkState();
  state.source = { kind: 'inline', text, redacted: structureOnly };
  // A text not detected as its format by itself (a log's call after a compaction) names it.
  if (args.flags.format !== undefined || parsed.link?.view.format || format !== null)
    state.view.format = t.format;
  if (provider !== undefined) state.view.provider = provider;
  if (request !== null) state.view.request = request;
  const encoded = encodePermalinkChecked(state);
  const out = typeof args.flags.o === 'string' ? args.flags.o : undefined;
  // The copy is written first: when the link is too large, the file is what there is to share.
  if (out !== undefined && !writeCopy(io, out, text)) return EXIT_UNREADABLE;
  if (!encoded.ok) {
    io.err(
      `error: too large for a link. ${encoded.reason} ${tooLargeAdvice(structureOnly, out)}\n`,
    );
    return EXIT_UNREADABLE;
  }
  const link = `${base.replace(/#.*$/, '')}#${encoded.fragment}`;
  io.out(
    args.flags.json ? `${JSON.stringify({ link, ...(out ? { file: out } : {}) })}\n` : `${link}\n`,
  );
  const v = validateTranscript(t, provider);
  const first = v.violations.find((x) => x.severity === 'error');
  if (first)
    io.err(
      `note: the link opens on a request that ${v.provider} answers with HTTP 400 (${first.code} ${first.rule}); share exits 0 once the link is printed, check exits by the verdict\n`,
    );
  return EXIT_VALID;
}

/**
 * The transcript a full link carries, written: a session call with its reply's first message when
 * the text then holds that call (`request`: its index there), else the transcript as it is; and
 * the format the link must name when a request taken out of a file of several is not detected
 * as it (`readBackHinted`).
 */
function callText(parsed: ParsedTranscript): {
  text: string;
  request: number | null;
  format: FormatId | null;
} {
  const t = parsed.transcript;
  // A file read whole is written as it was detected; a request taken out of it may not be.
  const hint = (text: string) => {
    if (!parsed.requests) return null;
    const back = readBackHinted(t, text);
    return back.ok ? back.value.hint : null;
  };
  if (parsed.callReply) {
    const text = writeTranscript(withCallReply(t, parsed.callReply));
    const found = callOfCopy(text, t.format, t.messages.length);
    if (found) return { text, request: found.index, format: hint(text) };
  }
  const text = writeTranscript(t);
  return { text, request: null, format: hint(text) };
}
