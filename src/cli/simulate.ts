import { plural } from './words.ts';
import { requestIndexLine, violationAt } from './requestIndex.ts';
import { defaultProviderOf } from '../model/validate/index.ts';
import { POLICIES, prepareEviction, simulatePolicy } from '../model/evict/policies.ts';
import { whatIfRows, type Trigger, type WhatIfRow } from '../model/evict/triggers.ts';
import type { BlockEdit, PolicyId, PolicyOptions } from '../model/evict/types.ts';
import type { Message, Transcript } from '../model/types.ts';
import { writeTranscript } from '../model/write.ts';
import { countTokensCached, TokenCache } from '../model/tokenCache.ts';
import { loadBpeCounter } from '../model/tokens.ts';
import type { Violation } from '../model/validate/index.ts';
import { intFlag, onlyFile, parseArgs, UsageError } from './args.ts';
import {
  checkProvider,
  EXIT_INVALID,
  EXIT_UNREADABLE,
  EXIT_VALID,
  loadFromFlags,
  providerFor,
  type CliIO,
} from './io.ts';
import { idsText } from '../model/limits.ts';
import { inputLabel } from './link.ts';
import {
  SIMULATOR_KEYS,
  simulatorSettings,
  VERDICT_KEYS,
  type SimulatorSettings,
} from './linkView.ts';

/** `--policy`'s value, checked; undefined when not given. */
function checkPolicy(v: string | true | undefined): PolicyId | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'string')
    throw new UsageError(`--policy needs a value (one of ${POLICIES.join(', ')})`);
  if (!(POLICIES as readonly string[]).includes(v))
    throw new UsageError(`unknown policy "${v}"; known: ${POLICIES.join(', ')}`);
  return v as PolicyId;
}

/** The violation fields the CLI prints in JSON (same shape as `check --json`). */
export function violationJson(v: Violation) {
  return {
    rule: v.rule,
    code: v.code,
    severity: v.severity,
    messageIndex: v.messageIndex,
    blockIndex: v.blockIndex,
    ids: v.ids,
    providerPath: v.providerPath,
    status: v.status,
    error: v.error,
  };
}

/**
 * Load FILE with the policy, budget and options to run: the flags', else the link's
 * (`simulatorSettings`). For a FILE that is not a link (it is read to know: a file or stdin may
 * hold one) a missing flag is a usage error.
 * @returns null when FILE cannot be loaded (said on stderr)
 * @throws UsageError when no policy or no budget is given by the flags or the link
 */
async function loadSimulation(io: CliIO, file: string, argFlags: Record<string, string | true>) {
  const flags = {
    policy: checkPolicy(argFlags.policy),
    budget: intFlag('budget', argFlags.budget),
    options: policyOptionsOf(argFlags),
  };
  checkProvider(argFlags.provider);
  const parsed = await loadFromFlags(io, file, argFlags, 'simulate', [
    ...VERDICT_KEYS,
    ...SIMULATOR_KEYS,
  ]);
  if (!parsed) return null;
  // FILE may be a link, or hold one (read to know: `cli simulate link.txt`), that sets them.
  if (!parsed.link) requireSettings(flags, '');
  const s = requireSettings(simulatorSettings(io, flags, parsed.link), ' (the link sets none)');
  return { parsed, ...s };
}

/**
 * `simulate`: run one eviction policy at one budget (tokens: exact o200k counts, Claude/Gemini
 * estimates scaled as on the page) and validate what is kept.
 * @returns exit code: 0 kept request valid, 1 invalid, 2 unreadable or bad usage
 */
export async function runSimulate(argv: string[], io: CliIO): Promise<number> {
  const args = parseArgs(
    argv,
    [
      'format',
      'provider',
      'model',
      'policy',
      'budget',
      'summary-tokens',
      'keep-newest',
      'keep',
      'clear-at-least',
      'exclude-tools',
      'window',
      'reserve',
      'limit-bytes',
      'request',
    ],
    ['json', 'pin-first', 'clear-tool-inputs'],
  );
  const file = onlyFile(args, 'simulate');
  const loaded = await loadSimulation(io, file, args.flags);
  if (!loaded) return EXIT_UNREADABLE;
  const { parsed, policy, budget, options } = loaded;
  const providerFlag = checkProvider(args.flags.provider);
  const t = parsed.transcript;
  const provider = providerFor(io, providerFlag, parsed) ?? defaultProviderOf(t);
  // Counted as the page's worker counts (engine/run.ts): o200k, a reply's usage figures when the log has them.
  io.doing = `counting the tokens of ${inputLabel(file)}`;
  const table = countTokensCached(t, provider, await loadBpeCounter(), new TokenCache(), {
    preferUsage: true,
  });
  io.doing = `simulating ${policy} at ${budget} tokens on ${inputLabel(file)}`;
  const ctx = prepareEviction(t, table, provider);
  const r = simulatePolicy(ctx, policy, budget, options);
  const rows = whatIfRows(ctx, triggersOf(args.flags, t), [{ id: policy, options }]);
  io.doing = `writing the result for ${inputLabel(file)}`;
  const raw = (i: number) => t.messages[i]?.rawIndex ?? i;
  const v = r.validation;
  if (args.flags.json) {
    const out = {
      policy: r.policy,
      budget: r.budget,
      tokensBefore: r.tokensBefore,
      tokensKept: r.tokensKept,
      deficit: r.deficit,
      freed: r.freed,
      overshoot: r.overshoot,
      fits: r.fits,
      kept: r.kept.map(raw),
      evicted: r.evicted.map(raw),
      ...(r.summary
        ? { summary: { beforeMessage: raw(r.summary.before), tokens: r.summary.tokens } }
        : {}),
      ...editsJson(r.edits, raw),
      provider,
      tokenBasis: table.basis.label,
      valid: v.valid,
      violations: v.violations.map(violationJson),
      firstError: r.firstError?.error ?? null,
      ...whatIfJson(rows),
    };
    io.out(JSON.stringify(out, null, 2) + '\n');
  } else {
    const n = t.messages.length;
    io.out(
      `${inputLabel(file)}: ${t.format} → ${provider}; ${plural(n, 'message')}, ${r.tokensBefore} tokens (${table.basis.label})\n`,
    );
    io.out(
      `policy ${r.policy} at budget ${r.budget}: kept ${plural(r.kept.length, 'message')}, ${r.tokensKept} tokens; evicted ${r.evicted.length}${r.summary ? ` (replaced by a ${r.summary.tokens}-token summary)` : ''}\n`,
    );
    io.out(
      `deficit ${r.deficit}, freed ${r.freed}${r.overshoot !== null ? `, overshoot ${r.overshoot.toFixed(2)}×` : ''}${r.fits ? '' : ' — does NOT fit: this policy cannot drop more'}\n`,
    );
    if (r.evicted.length > 0) io.out(`evicted raw indices: ${compactRanges(r.evicted.map(raw))}\n`);
    if (r.edits && r.edits.length > 0)
      io.out(
        `${editsLine(r.edits)} (raw indices: ${compactRanges([...new Set(r.edits.map((e) => raw(e.index)))])})\n`,
      );
    for (const w of rows) {
      const x = w.results[0];
      const verdict = !x ? '' : x.validation.valid ? 'valid' : `HTTP 400 [${x.firstError?.code}]`;
      io.out(`what if: ${w.label}: budget ${w.budget}, ${verdict}. ${w.note}\n`);
    }
    if (v.valid) io.out(`VALID: ${provider} would accept the kept request.\n`);
    else {
      const e = r.firstError;
      io.out(`INVALID: ${provider} answers HTTP 400.\n`);
      if (e) {
        io.out(
          `[${e.code}] ${e.rule} at message ${violationAt(t.messages, e)}${e.ids.length ? ` (ids: ${idsText(e.ids)})` : ''}\n  ${e.title}. ${e.why}\n  HTTP ${e.status} ${JSON.stringify(e.error)}\n`,
        );
        const mapped = requestIndexLine(t, provider, e, keptOf(t, r.kept));
        if (mapped !== null) io.out(`  ${mapped}\n`);
      }
    }
  }
  return v.valid ? EXIT_VALID : EXIT_INVALID;
}

/**
 * The settings with both a policy and a budget.
 * @param why appended to the message (a link that sets neither says so)
 * @throws UsageError naming the one missing
 */
function requireSettings(s: SimulatorSettings, why: string) {
  if (s.policy === undefined)
    throw new UsageError(`simulate needs --policy (one of ${POLICIES.join(', ')})${why}`);
  if (s.budget === undefined) throw new UsageError(`simulate needs --budget N (tokens)${why}`);
  return { policy: s.policy, budget: s.budget, options: s.options };
}

/** The kept request's messages (ours), from their indices. */
function keptOf(t: Transcript, kept: readonly number[]): Message[] {
  return kept.map((i) => t.messages[i] as Message);
}

/** A rewriting policy's edits in `--json` (raw message indices); nothing for the others. */
function editsJson(edits: readonly BlockEdit[] | undefined, raw: (i: number) => number) {
  if (!edits) return {};
  return {
    edits: edits.map((e) => ({
      message: raw(e.index),
      block: e.block,
      kind: e.kind,
      tokens: e.tokens,
    })),
  };
}

/** The what-if rows in `--json`: each trigger's budget and the policy's verdict there. */
function whatIfJson(rows: readonly WhatIfRow[]) {
  if (rows.length === 0) return {};
  return {
    whatIf: rows.map((w) => {
      const x = w.results[0] as (typeof w.results)[number];
      return {
        label: w.label,
        budget: w.budget,
        happens: w.happens,
        note: w.note,
        tokensKept: x.tokensKept,
        fits: x.fits,
        valid: x.validation.valid,
        firstError: x.firstError?.error ?? null,
      };
    }),
  };
}

/**
 * The what-if triggers the flags ask for: `--window N` (with `--reserve M` tokens for the reply)
 * and `--limit-bytes N` (a 413 at that request size; the body's bytes as written back).
 */
function triggersOf(flags: Record<string, string | true | undefined>, t: Transcript): Trigger[] {
  const window = intFlag('window', flags.window);
  const reserve = intFlag('reserve', flags.reserve) ?? 0;
  const limitBytes = intFlag('limit-bytes', flags['limit-bytes'], 1);
  const out: Trigger[] = [];
  if (window !== undefined) out.push({ kind: 'smaller-window', window, reserve });
  if (limitBytes !== undefined)
    out.push({
      kind: 'retry-413',
      limitBytes,
      bodyBytes: new TextEncoder().encode(writeTranscript(t)).length,
    });
  return out;
}

/** `cleared 4 tool results, removed 2 blocks` for a rewriting policy's edits. */
function editsLine(edits: readonly BlockEdit[]): string {
  const count = (k: BlockEdit['kind']) => edits.filter((e) => e.kind === k).length;
  const parts: string[] = [];
  const cleared = count('cleared');
  const inputs = count('cleared-input');
  const removed = count('removed');
  if (cleared > 0) parts.push(`cleared ${cleared} tool result${cleared === 1 ? '' : 's'}`);
  if (inputs > 0) parts.push(`cleared ${inputs} tool input${inputs === 1 ? '' : 's'}`);
  if (removed > 0) parts.push(`removed ${removed} block${removed === 1 ? '' : 's'}`);
  return parts.join(', ');
}

/**
 * The policy options the flags set: `--summary-tokens`, `--keep-newest`, `--pin-first`, and for
 * clear-tool-results `--keep` (tool uses kept), `--clear-at-least`, `--exclude-tools` (names,
 * comma-separated) and `--clear-tool-inputs`.
 */
function policyOptionsOf(flags: Record<string, string | true | undefined>): PolicyOptions {
  const summaryTokens = intFlag('summary-tokens', flags['summary-tokens']);
  const keepNewest = intFlag('keep-newest', flags['keep-newest']);
  const keepToolUses = intFlag('keep', flags.keep);
  const clearAtLeast = intFlag('clear-at-least', flags['clear-at-least']);
  const exclude = flags['exclude-tools'];
  if (exclude === true)
    throw new UsageError('--exclude-tools needs a value (tool names, comma-separated)');
  return {
    ...(summaryTokens !== undefined ? { summaryTokens } : {}),
    ...(keepNewest !== undefined ? { keepNewestExchanges: keepNewest } : {}),
    ...(flags['pin-first'] ? { pinFirst: true } : {}),
    ...(keepToolUses !== undefined ? { keepToolUses } : {}),
    ...(clearAtLeast !== undefined ? { clearAtLeast } : {}),
    ...(exclude !== undefined
      ? {
          excludeTools: exclude
            .split(',')
            .map((x) => x.trim())
            .filter((x) => x !== ''),
        }
      : {}),
    ...(flags['clear-tool-inputs'] ? { clearToolInputs: true } : {}),
  };
}

/** `0-4, 7, 9-12` for an ascending list of indices. */
export function compactRanges(xs: readonly number[]): string {
  const parts: string[] = [];
  let i = 0;
  while (i < xs.length) {
    let j = i;
    while (j + 1 < xs.length && (xs[j + 1] as number) === (xs[j] as number) + 1) j++;
    parts.push(j === i ? `${xs[i]}` : `${xs[i]}-${xs[j]}`);
    i = j + 1;
  }
  return parts.join(', ');
}
