/**
 * A fleet scan's rows made from scratch, request by request (`scanText` before issue 40's
 * chains): each request's transcript is its listing's `transcriptOf` (a fresh copy of every
 * message), analysed, counted and prepared alone, and each policy × budget is one
 * `simulatePolicy` on a fresh context. O(messages) per request, so O(calls × messages) per
 * session log. Used only to property-test `scanText` (rows.chain.property.test.ts).
 */
import fc from 'fast-check';
import { analyze } from '../analyze.ts';
import { listParsedRequests } from '../diff/requests.ts';
import {
  POLICIES,
  prepareEviction,
  simulatePolicy,
  type EvictionContext,
} from '../evict/policies.ts';
import type { PolicyId } from '../evict/types.ts';
import { parseDocument, readSource } from '../parse/index.ts';
import {
  budgetTokens,
  DEFAULT_BUDGETS,
  errorRow,
  type ScanCut,
  type ScanBudget,
  type ScanOptions,
  type ScanRow,
  type ScanSource,
} from '../scan/rows.ts';
import { countTokensCached, TokenCache } from '../tokenCache.ts';
import { CHARS_PER_4 } from '../tokens.ts';

/**
 * One policy × budget of a scan row, the slow way: one `simulatePolicy` on `ctx` at budget `b`
 * of a request of `total` tokens.
 */
export function referenceCut(
  ctx: EvictionContext,
  policy: PolicyId,
  b: ScanBudget,
  total: number,
): ScanCut {
  const budget = budgetTokens(b, total);
  const r = simulatePolicy(ctx, policy, budget);
  return {
    policy,
    fraction: 'fraction' in b ? b.fraction : null,
    budget,
    gives400: r.firstError !== null,
    overshoot: r.overshoot,
    rule: r.firstError?.rule ?? null,
  };
}

/** Budgets as the CLI takes them: the defaults, or 1…`maxLength` fractions and token counts. */
export function arbScanBudgets(maxLength: number): fc.Arbitrary<ScanBudget[]> {
  return fc.oneof(
    fc.constant<ScanBudget[]>([...DEFAULT_BUDGETS]),
    fc.array(
      fc.oneof(
        fc.double({ min: 0.01, max: 1, noNaN: true }).map((fraction) => ({ fraction })),
        fc.nat(400).map((tokens) => ({ tokens })),
      ),
      { minLength: 1, maxLength },
    ),
  );
}

/** `scanText`'s rows, the slow way (see the file comment). */
export function scanTextReference(
  src: ScanSource,
  text: string,
  name: string,
  opts: ScanOptions = {},
): ScanRow[] {
  const read = readSource(text, name);
  if (!read.ok) return [errorRow(src, read.error.message, read.error.location?.line ?? null)];
  const doc = read.value;
  const first = parseDocument(doc, { name });
  if (!first.ok) return [errorRow(src, first.error.message, first.error.location?.line ?? null)];
  const listing = listParsedRequests(doc, first.value, { name });
  const brokenLines = doc.kind === 'jsonl' ? [...doc.brokenLines] : [];
  const counter = opts.counter ?? CHARS_PER_4;
  const cache = new TokenCache();
  const seen = new Map<string, number>();
  const requests = listing.requests.length;
  return listing.requests.map((info, request): ScanRow => {
    const t = listing.transcriptOf(request);
    let compactions = 0;
    if (listing.kind === 'session') {
      const thread = info.thread ?? 'main';
      compactions = (seen.get(thread) ?? 0) + (info.compaction?.kind === 'compaction' ? 1 : 0);
      seen.set(thread, compactions);
    } else for (const m of t.messages) if (m.meta?.compactSummary) compactions++;
    const a = analyze(t);
    const firstError = a.validation.violations.find((v) => v.severity === 'error');
    const table = countTokensCached(t, a.provider, counter, cache, { preferUsage: true });
    const cuts: ScanCut[] = [];
    for (const policy of opts.policies ?? POLICIES)
      for (const b of opts.budgets ?? DEFAULT_BUDGETS) {
        cuts.push(referenceCut(prepareEviction(t, table, a.provider), policy, b, table.total));
      }
    return {
      ...src,
      request,
      requests,
      format: t.format,
      provider: a.provider,
      messages: t.messages.length,
      tokens: table.total,
      tokenBasis: counter.encoding,
      valid: a.validation.valid,
      firstRule: firstError?.rule ?? null,
      firstCode: firstError?.code ?? null,
      firstMessage: firstError?.messageIndex ?? null,
      compactions,
      brokenLines,
      cuts,
      error: null,
      errorLine: null,
    };
  });
}
