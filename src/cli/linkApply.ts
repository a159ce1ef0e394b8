/**
 * What of a link needs the permalink codec and the faults (both zod): the keys a command leaves
 * unused, said on stderr, and the link's faults applied as the page applies them. Imported by
 * `import()` once a link has been read (io.ts, diff.ts), so that a command run on a FILE never
 * loads zod (issue 38: most of the CLI bundle's weight). The rest of what a link sets is
 * `linkView.ts`.
 */
import { nameTable } from '../model/own.ts';
import { faultTranscript } from '../model/faultedAnalysis.ts';
import type { FaultSpec } from '../model/faults.ts';
import { PAGE_ONLY_KEYS, PERMALINK_KEYS } from '../model/permalink/codec.ts';
import { encodeFaults } from '../model/permalink/faults.ts';
import type { Transcript } from '../model/types.ts';
import type { CliIO } from './io.ts';
import type { LinkInput } from './link.ts';
import { quoted, SIMULATOR_KEYS } from './linkView.ts';

/** What each key a command may leave unused sets, in words. */
const KEY_WHAT: ReadonlyMap<string, string> = nameTable({
  b: 'budget',
  p: 'policy',
  pin: 'pin-first option',
  keep: 'keep-newest option',
  sum: 'summary size',
  p2: 'compared policy',
  pin2: "compared policy's pin-first option",
  keep2: "compared policy's keep-newest option",
  sum2: "compared policy's summary size",
  sel: 'selection',
  at: 'scroll anchor',
  learn: 'Learn mode step',
  sim: 'simulator panel',
  d: 'diff view',
});

/**
 * Say on stderr what of `link` the command does not use: the codec's notices (a value it
 * refused, a newer version), keys that neither the page nor the CLI reads (a typo, a damaged
 * link, a newer page), and keys the command leaves aside (a selection, or `check`'s budget).
 * @param uses the keys the command uses (`VERDICT_KEYS`, plus `SIMULATOR_KEYS` for simulate)
 */
export function reportUnusedKeys(
  io: CliIO,
  link: LinkInput,
  uses: readonly string[],
  command: string,
): void {
  for (const n of link.notes) io.err(`warning: ${n}\n`);
  const known = new Set<string>([...PERMALINK_KEYS, ...PAGE_ONLY_KEYS]);
  const keys = [...new Set(link.params.keys())];
  const unknown = keys.filter((k) => !known.has(k));
  if (unknown.length > 0)
    io.err(
      `warning: the link has ${unknown.length === 1 ? 'a key' : 'keys'} that neither the page nor the CLI reads, ignored: ${unknown.map((k) => quoted(link, k)).join(', ')} (a damaged link, or one from a newer version?)\n`,
    );
  const unused = keys.filter((k) => known.has(k) && !uses.includes(k));
  if (unused.length > 0)
    io.err(
      `note: ${command} does not use the link's ${unused.map((k) => `${KEY_WHAT.get(k) ?? k} (${quoted(link, k)})`).join(', ')}: they do not change what ${command} reports${unused.some((k) => SIMULATOR_KEYS.includes(k)) ? ' (simulate uses the budget and policy)' : ''}\n`,
    );
}

/** One fault as the link writes it (`tp2`, `y13`). */
function faultItem(f: FaultSpec): string {
  return (encodeFaults([f]) ?? '').replace(/^\d+:/, '');
}

/**
 * The transcript with the link's faults applied, as the page shows it: in order, each to the
 * result of the previous one; a fault that does not fit stops the list there, as on the page.
 * Each fault applied, and one that did not fit, is said on stderr.
 * @returns `t` itself when there are no faults
 */
export function applyLinkFaults(
  io: CliIO,
  t: Transcript,
  faults: readonly FaultSpec[],
): Transcript {
  if (faults.length === 0) return t;
  const { shown, applied: r } = faultTranscript(t, faults);
  r.descriptions.forEach((d, i) =>
    io.err(`note: applied the link's fault ${faultItem(faults[i] as FaultSpec)} (fx): ${d}\n`),
  );
  if (r.error !== null) {
    const at = r.descriptions.length;
    const left = faults.length - at;
    io.err(
      `warning: the link's fault ${faultItem(faults[at] as FaultSpec)} does not fit this transcript: ${r.error} ${left === 1 ? 'It was' : `It and the ${left - 1} after it were`} not applied, as on the page.\n`,
    );
  }
  return shown;
}
