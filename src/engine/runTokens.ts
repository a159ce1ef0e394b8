/**
 * The worker's token counts and sweeps: the quick chars/4 table sent with an answer, the exact
 * BPE count after it (also for the transcript shown when a later request failed), and the sweeps
 * of every policy over the held eviction parts for each table sent.
 */
import type { Analysis } from '../model/analyze.ts';
import { POLICIES } from '../model/evict/registry.ts';
import { assembleEviction } from '../model/evict/prepare.ts';
import { sweepPolicy, type PolicySweep } from '../model/evict/sweep.ts';
import type { PolicyOptions } from '../model/evict/types.ts';
import { TokenCounting } from '../model/tokenCache.ts';
import { CHARS_PER_4, loadBpeCounter, type TokenTable } from '../model/tokens.ts';
import type { ProviderId, Transcript } from '../model/types.ts';
import type { SweepRequest, WorkerRequest } from './protocol.ts';
import { run, yieldNow, type Post } from './runState.ts';

/** Messages counted per slice before yielding (lets a newer request or a cancel in). */
const TOKEN_SLICE = 4000;

/** chars/4 table (cached per block) — cheap, sent with the result so rows have token bars. */
export function quickTokens(a: Analysis): TokenTable {
  const c = new TokenCounting(a.transcript, a.provider, CHARS_PER_4, run.cache, {
    preferUsage: true,
  });
  c.countSlice(a.transcript.messages.length);
  return c.table();
}

/**
 * After request `msg` failed (its answer, an error, is sent): count the transcript of the last
 * answer with the exact BPE if its table was not sent yet. The page keeps showing that transcript
 * next to the error, and its own count stopped when this request made it stale. The table goes
 * out as a `tokens` message under `msg.id` with that transcript's parseId.
 */
export async function countShown(
  msg: WorkerRequest,
  post: Post,
  stale: () => boolean,
): Promise<void> {
  const s = run.shown;
  if (msg.bpe === false || !s || s.exact) return;
  await countExact(msg.id, s.parseId, s.t, s.provider, post, stale);
}

/** Count `t` with the exact BPE in slices, post the table, then sweep it when held. */
export async function countExact(
  id: number,
  parseId: number,
  t: Transcript,
  provider: ProviderId,
  post: Post,
  stale: () => boolean,
): Promise<void> {
  run.bpe ??= loadBpeCounter('o200k_base').catch(() => null);
  const counter = await run.bpe;
  if (!counter || stale()) return;
  const c = new TokenCounting(t, provider, counter, run.cache, { preferUsage: true });
  const n = t.messages.length;
  while (!c.done) {
    c.countSlice(TOKEN_SLICE);
    if (n > TOKEN_SLICE)
      post({
        id,
        kind: 'progress',
        progress: {
          phase: 'tokens',
          bytes: 0,
          totalBytes: 0,
          messages: c.counted,
          totalMessages: n,
        },
      });
    await yieldNow();
    if (stale()) return;
  }
  const table = c.table();
  const shown = run.shown;
  if (shown && shown.parseId === parseId && shown.provider === provider) shown.exact = true;
  const seq = ++run.tableSeq;
  const held = run.held;
  const h = held && held.parseId === parseId && held.provider === provider ? held : null;
  if (h) h.tables.set(seq, { table: copyTable(table), ctx: null });
  post({ id, kind: 'tokens', parseId, provider, tokens: table, tableSeq: seq }, [
    table.perMessage.buffer,
    table.prefix.buffer,
  ]);
  if (h) postSweep(seq, h.options, post);
}

/** A copy of a token table (its typed arrays too). */
export function copyTable(t: TokenTable): TokenTable {
  return {
    ...t,
    perMessage: t.perMessage.slice(),
    prefix: t.prefix.slice(),
    ...(t.blocks
      ? { blocks: { start: t.blocks.start.slice(), tokens: t.blocks.tokens.slice() } }
      : {}),
  };
}

/**
 * Sweep every policy over the held context of table `seq` with `options` (POLICIES order) and post
 * it: the same `sweepPolicy` calls as the page's `selectSweep`, over the same context as the
 * page's `selectEvictionContext` (`assembleEviction` of the same parts and table). Only on the
 * fast cut path (the page does not sweep the others either). Never throws: a failure posts
 * `sweeps: null`.
 */
export function postSweep(seq: number | undefined, options: PolicyOptions[], post: Post): void {
  const h = run.held;
  const entry = seq === undefined ? undefined : h?.tables.get(seq);
  if (!h || !entry || seq === undefined || !h.parts.cuts.fast) return;
  let sweeps: PolicySweep[] | null = null;
  try {
    entry.ctx ??= assembleEviction(h.parts, h.t, entry.table);
    const ctx = entry.ctx;
    sweeps = POLICIES.map((p, i) => sweepPolicy(ctx, p, options[i] ?? {}));
  } catch {
    sweeps = null;
  }
  // `cuts` is the context's cached plan (copied); the other arrays are the sweep's own (moved),
  // each once (`budgetLo` is `costs`: a buffer listed twice fails the post).
  const transfer = new Set<ArrayBuffer>();
  for (const s of sweeps ?? [])
    for (const a of [s.costs, s.valid, s.budgetLo, s.budgetHi])
      if (a.buffer instanceof ArrayBuffer) transfer.add(a.buffer);
  post(
    { kind: 'sweep', parseId: h.parseId, provider: h.provider, tableSeq: seq, options, sweeps },
    [...transfer],
  );
}

/**
 * Handle a page's `SweepRequest`: sweep the held context of that table with those options (and
 * remember them for the next table). Ignored when the worker holds another parse, provider or
 * table. Never throws.
 */
export function runSweep(msg: SweepRequest, post: Post): void {
  const h = run.held;
  if (!h || h.parseId !== msg.parseId || h.provider !== msg.provider) return;
  h.options = msg.options;
  if (h.tables.has(msg.tableSeq)) postSweep(msg.tableSeq, msg.options, post);
}
