/**
 * What a link sets beyond its transcript, applied as the page applies it, so that the page and
 * the CLI give one verdict for one link: the forced format (`f`), the provider (`pr`), the request
 * of a file holding several (`rq`, as `--request N`) and the
 * applied faults (`fx`: model/faultedAnalysis.ts `faultTranscript`, which the page's engine
 * runs for a request with faults), and for `simulate` the budget and the chosen policy
 * with its options (`b`, `p`, `pin`, `keep`, `sum`). The link is decoded by the page's codec
 * (model/permalink). A flag wins over the link, and a note on stderr says which was used; a key
 * a command does not use, or that nothing reads, is said on stderr too, never silently dropped
 * (`linkApply.ts`, with the faults).
 *
 * This module imports neither the codec nor the faults (zod): a command loads it for a FILE too
 * (issue 38). What needs them is in `linkApply.ts`, imported once a link is read.
 */
import { clip } from '../model/limits.ts';
import type { PolicyId, PolicyOptions } from '../model/evict/types.ts';
import type { CliIO } from './io.ts';
import type { LinkInput } from './link.ts';

/**
 * Keys every command uses: the transcript's and what changes its verdict (format, provider, the
 * model judged as, the request shown of a file holding several, faults).
 */
export const VERDICT_KEYS: readonly string[] = [
  'v',
  't',
  'r',
  'src',
  'n',
  'f',
  'pr',
  'm',
  'rq',
  'fx',
];

/** The simulator's keys: the budget and the chosen policy with its options (`simulate` uses them). */
export const SIMULATOR_KEYS: readonly string[] = ['b', 'p', 'pin', 'keep', 'sum'];

/** `key=value` as a note quotes it (the value cut to 40 characters). */
export function quoted(link: LinkInput, key: string): string {
  return `${key}=${clip(link.params.get(key) ?? '', 40)}`;
}

/** A setting a flag and a link may both give. */
interface Setting<T> {
  /** What it is, in words (`provider`). */
  what: string;
  /** The flag (`--provider`) and the link's key (`pr`). */
  flag: string;
  key: string;
  /** The flag's value (undefined: not given) and the link's (undefined: not set by it). */
  fromFlag: T | undefined;
  fromLink: T | undefined;
  /** How the note names the link's value (default `key=value`). */
  linkText?: string;
}

/**
 * The flag's value when given, else the link's; a note on stderr says when the link's is used,
 * or when a flag overrides a different value of the link's.
 */
export function pickSetting<T>(io: CliIO, s: Setting<T>): T | undefined {
  if (s.fromLink === undefined) return s.fromFlag;
  const link = s.linkText ?? `${s.key}=${String(s.fromLink)}`;
  if (s.fromFlag === undefined) {
    io.err(`note: ${s.what} ${String(s.fromLink)}, from the link (${link})\n`);
    return s.fromLink;
  }
  if (s.fromFlag !== s.fromLink)
    io.err(
      `note: ${s.what} ${String(s.fromFlag)}, from ${s.flag} (it overrides the link's ${link})\n`,
    );
  return s.fromFlag;
}

/** What `simulate` runs: the policy, the budget (tokens) and the policy's options. */
export interface SimulatorSettings {
  policy: PolicyId | undefined;
  budget: number | undefined;
  options: PolicyOptions;
}

/** The link's policy options, those it sets (`pin`, `keep`, `sum`); the others are left out. */
function linkOptions(link: LinkInput): PolicyOptions {
  const o = link.view.policy.options;
  const has = (k: string) => link.params.has(k);
  return {
    ...(has('pin') ? { pinFirst: o.pinFirst } : {}),
    ...(has('keep') ? { keepNewestExchanges: o.keepNewestExchanges } : {}),
    ...(has('sum') && o.summaryTokens !== null ? { summaryTokens: o.summaryTokens } : {}),
    ...(has('kt') && o.keepToolUses !== null ? { keepToolUses: o.keepToolUses } : {}),
  };
}

/** The flags' options, each over the link's; a note for each taken from the link or overridden. */
function pickOptions(
  io: CliIO,
  flags: PolicyOptions,
  link: PolicyOptions,
  source: LinkInput,
): PolicyOptions {
  const pin = pickSetting(io, {
    what: 'pin-first',
    flag: '--pin-first',
    key: 'pin',
    linkText: quoted(source, 'pin'),
    fromFlag: flags.pinFirst,
    fromLink: link.pinFirst,
  });
  const keep = pickSetting(io, {
    what: 'keep-newest',
    flag: '--keep-newest',
    key: 'keep',
    linkText: quoted(source, 'keep'),
    fromFlag: flags.keepNewestExchanges,
    fromLink: link.keepNewestExchanges,
  });
  const sum = pickSetting(io, {
    what: 'summary size',
    flag: '--summary-tokens',
    key: 'sum',
    linkText: quoted(source, 'sum'),
    fromFlag: flags.summaryTokens,
    fromLink: link.summaryTokens,
  });
  const kt = pickSetting(io, {
    what: 'tool uses kept',
    flag: '--keep',
    key: 'kt',
    linkText: quoted(source, 'kt'),
    fromFlag: flags.keepToolUses,
    fromLink: link.keepToolUses,
  });
  // The other clear-tool-results options have no link key: the flags' alone.
  const { clearAtLeast, excludeTools, clearToolInputs } = flags;
  return {
    ...(pin ? { pinFirst: true } : {}),
    ...(keep !== undefined ? { keepNewestExchanges: keep } : {}),
    ...(sum !== undefined ? { summaryTokens: sum } : {}),
    ...(kt !== undefined ? { keepToolUses: kt } : {}),
    ...(clearAtLeast !== undefined ? { clearAtLeast } : {}),
    ...(excludeTools !== undefined ? { excludeTools } : {}),
    ...(clearToolInputs ? { clearToolInputs } : {}),
  };
}

/**
 * `simulate`'s settings: each flag given, else the link's value, as the page's simulator shows it
 * (a link with a budget but no `p` shows the page's default policy). The link's options belong
 * to its policy: another `--policy` does not take them. A note on stderr says where each came
 * from when the link is involved.
 * @param flags the settings the flags give (undefined: not given)
 * @param link the link read, or null for a FILE (then the flags are the settings)
 */
export function simulatorSettings(
  io: CliIO,
  flags: SimulatorSettings,
  link: LinkInput | null,
): SimulatorSettings {
  if (!link) return flags;
  const sets = link.params.has('p') || link.params.has('b');
  const policy = pickSetting(io, {
    what: 'policy',
    flag: '--policy',
    key: 'p',
    fromFlag: flags.policy,
    fromLink: sets ? link.view.policy.id : undefined,
    ...(link.params.has('p') ? {} : { linkText: "no p: the page's default policy at b" }),
  });
  const budget = pickSetting(io, {
    what: 'budget',
    flag: '--budget',
    key: 'b',
    fromFlag: flags.budget,
    fromLink: link.view.budget ?? undefined,
  });
  const own = policy === link.view.policy.id;
  const fromLink = own ? linkOptions(link) : {};
  if (!own && Object.keys(linkOptions(link)).length > 0)
    io.err(
      `note: the link's options (pin, keep, sum) are its policy's (${link.view.policy.id}), not ${String(policy)}'s: not used\n`,
    );
  return { policy, budget, options: pickOptions(io, flags.options, fromLink, link) };
}
