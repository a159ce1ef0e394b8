import { plural } from './words.ts';
import { POLICIES, prepareEviction } from '../model/evict/policies.ts';
import { sweepContext } from '../model/evict/sweep.ts';
import { countTokensCached, TokenCache } from '../model/tokenCache.ts';
import { loadBpeCounter } from '../model/tokens.ts';
import { defaultProviderOf } from '../model/validate/index.ts';
import { intFlag, onlyFile, parseArgs } from './args.ts';
import {
  checkFormat,
  checkModel,
  checkProvider,
  checkRequest,
  EXIT_INVALID,
  EXIT_UNREADABLE,
  EXIT_VALID,
  loadTranscript,
  providerFor,
  type CliIO,
} from './io.ts';
import { compactRanges } from './simulate.ts';
import { inputLabel } from './link.ts';

/**
 * `sweep`: for each policy, the cut points and budgets (tokens) that give a 400, their share of all
 * budgets the policy can reach, and the mean overshoot (freed ÷ deficit).
 * @returns exit code: 0 when no budget of any policy gives a 400, 1 otherwise, 2 unreadable or bad usage
 */
export async function runSweep(argv: string[], io: CliIO): Promise<number> {
  const args = parseArgs(
    argv,
    ['format', 'provider', 'model', 'summary-tokens', 'request'],
    ['json'],
  );
  const file = onlyFile(args, 'sweep');
  const format = checkFormat(args.flags.format);
  const providerFlag = checkProvider(args.flags.provider);
  const summaryTokens = intFlag('summary-tokens', args.flags['summary-tokens']);
  const requestIndex = checkRequest(args.flags.request);
  const model = checkModel(args.flags.model);
  const parsed = await loadTranscript(io, file, {
    command: 'sweep',
    ...(format ? { format } : {}),
    ...(model ? { model } : {}),
    ...(requestIndex !== undefined ? { requestIndex } : {}),
  });
  if (!parsed) return EXIT_UNREADABLE;
  const t = parsed.transcript;
  const provider = providerFor(io, providerFlag, parsed) ?? defaultProviderOf(t);
  // Counted as the page's worker counts (engine/run.ts): o200k, a reply's usage figures when the log has them.
  io.doing = `counting the tokens of ${inputLabel(file)}`;
  const table = countTokensCached(t, provider, await loadBpeCounter(), new TokenCache(), {
    preferUsage: true,
  });
  io.doing = `sweeping every policy over ${inputLabel(file)}`;
  const s = sweepContext(
    prepareEviction(t, table, provider),
    POLICIES,
    summaryTokens !== undefined ? { summaryTokens } : {},
  );
  const raw = (i: number) => t.messages[i]?.rawIndex ?? i;
  const anyBad = s.policies.some((p) => p.invalidBudgets.length > 0);
  if (args.flags.json) {
    const out = {
      provider,
      tokensBefore: s.total,
      tokenBasis: table.basis.label,
      policies: s.policies.map((p) => ({
        policy: p.policy,
        minBudget: p.minBudget,
        share400: p.share400,
        meanOvershoot: p.meanOvershoot,
        // A rewriting policy (clear-tool-results, ai-sdk-prune) cuts nothing: its cuts are step ids.
        invalidCuts: p.invalidCuts.filter((k) => k >= 0).map(raw),
        invalidBudgets: p.invalidBudgets,
      })),
    };
    io.out(JSON.stringify(out, null, 2) + '\n');
  } else {
    io.out(
      `${inputLabel(file)}: ${t.format} → ${provider}; ${plural(t.messages.length, 'message')}, ${s.total} tokens (${table.basis.label})\n`,
    );
    for (const p of s.policies) {
      const pct = (p.share400 * 100).toFixed(1);
      io.out(
        `\n${p.policy}: ${pct}% of budgets ${p.minBudget}–${s.total} give a 400${p.meanOvershoot !== null ? `; mean overshoot ${p.meanOvershoot.toFixed(2)}×` : ''}\n`,
      );
      const cuts = p.invalidCuts.filter((k) => k >= 0);
      if (cuts.length > 0) io.out(`  cuts before raw message: ${compactRanges(cuts.map(raw))}\n`);
      if (p.invalidBudgets.length > 0) {
        const shown = p.invalidBudgets
          .slice(0, 20)
          .map(([lo, hi]) => (lo === hi ? `${lo}` : `${lo}–${hi}`));
        io.out(
          `  budgets: ${shown.join(', ')}${p.invalidBudgets.length > 20 ? `, … (${p.invalidBudgets.length} ranges)` : ''}\n`,
        );
      }
    }
  }
  return anyBad ? EXIT_INVALID : EXIT_VALID;
}
