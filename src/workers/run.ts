/**
 * The worker's request loop, kept free of worker globals so Node tests can drive it with a fake
 * `post`. Stages are memoised (parse per text or file, analysis per provider, token counts per
 * block and encoding), so a provider switch re-validates and re-scales counts without
 * re-parsing, and the page is sent the messages of a parse only once.
 */
import type { Analysis } from '../model/analyze.ts';
import { parseDocument, type ParsedTranscript } from '../model/parse/index.ts';
import { pairTableBuffers, pairTables } from '../model/pairTables.ts';
import type { SourceDoc } from '../model/parse/json.ts';
import { TokenCache, TokenCounting } from '../model/tokenCache.ts';
import { CHARS_PER_4, loadBpeCounter, type TextCounter, type TokenTable } from '../model/tokens.ts';
import type { FormatId, ProviderId, Result, Transcript } from '../model/types.ts';
import { clip } from '../model/limits.ts';
import { cutMarkers } from '../model/evict/cuts.ts';
import { POLICIES, type EvictionContext } from '../model/evict/policies.ts';
import { sweepPolicy, type PolicySweep } from '../model/evict/sweep.ts';
import type { PolicyOptions } from '../model/evict/types.ts';
import {
  assembleEviction,
  prepareEvictionParts,
  type EvictionParts,
} from '../model/evict/prepare.ts';
import { packEvictionParts, WORKER_EVICTION_MIN } from './evictionParts.ts';
import { analyzeStage, parseStage } from './inspect.ts';
import {
  LIST_BATCH,
  MESSAGE_BATCH,
  MESSAGE_BATCH_CHARS,
  packMessages,
  stripLists,
  stripTranscript,
} from './pack.ts';
import type {
  Inspection,
  LoadProgress,
  SweepRequest,
  WorkerRequest,
  WorkerResponse,
} from './protocol.ts';
import { readBlobSource } from './stream.ts';

type Post = (msg: WorkerResponse, transfer?: Transferable[]) => void;

/** Messages counted per slice before yielding (lets a newer request or a cancel in). */
const TOKEN_SLICE = 4000;

let latest = 0;
let parseSeq = 0;
const parseIds = new WeakMap<ParsedTranscript, number>();
let sentParse: ParsedTranscript | null = null;
let lastFile: {
  key: number;
  name: string;
  format: FormatId | null;
  requestIndex: number | undefined;
  result: Result<ParsedTranscript>;
  text: string;
} | null = null;
const cache = new TokenCache();
let bpe: Promise<TextCounter | null> | null = null;

/**
 * The eviction parts of the last long transcript sent, kept so the worker sweeps for the page:
 * per table sent (by its number) a copy of the table and its context, built on first sweep.
 */
let held: {
  parseId: number;
  provider: ProviderId;
  t: Transcript;
  parts: EvictionParts;
  tables: Map<number, { table: TokenTable; ctx: EvictionContext | null }>;
  /** The options the page last asked for (POLICIES order); defaults until it asks. */
  options: PolicyOptions[];
} | null = null;
let tableSeq = 0;
/**
 * The transcript of the last answer sent (the one the page shows while later requests fail):
 * `exact` once its exact BPE table was sent. A request that fails counts it when it was not, so
 * an exact count dropped because that request made it stale is not lost.
 */
let shown: { parseId: number; t: Transcript; provider: ProviderId; exact: boolean } | null = null;

const yieldNow = () => new Promise((r) => setTimeout(r, 0));

function idOf(p: ParsedTranscript): number {
  let id = parseIds.get(p);
  if (id === undefined) {
    id = ++parseSeq;
    parseIds.set(p, id);
  }
  return id;
}

function safeParseDoc(
  doc: SourceDoc,
  name: string,
  format: FormatId | null,
  requestIndex?: number,
): Result<ParsedTranscript> {
  try {
    return parseDocument(doc, {
      ...(format ? { format } : {}),
      ...(name ? { name } : {}),
      ...(requestIndex !== undefined ? { requestIndex } : {}),
    });
  } catch (e) {
    return {
      ok: false,
      error: {
        kind: 'shape',
        message: `The parser failed on this input: ${e instanceof Error ? e.message : String(e)}`,
      },
    };
  }
}

function safeAnalyze(parsed: ParsedTranscript, provider: ProviderId | null): Inspection {
  try {
    return { ok: true, parsed, analysis: analyzeStage(parsed, provider) };
  } catch (e) {
    return {
      ok: false,
      error: {
        kind: 'shape',
        message: `Analysis failed on this input: ${e instanceof Error ? e.message : String(e)}`,
      },
    };
  }
}

/** chars/4 table (cached per block) — cheap, sent with the result so rows have token bars. */
function quickTokens(a: Analysis): TokenTable {
  const c = new TokenCounting(a.transcript, a.provider, CHARS_PER_4, cache, { preferUsage: true });
  c.countSlice(a.transcript.messages.length);
  return c.table();
}

/**
 * Handle one request: parse (streaming a file), analyse, send the compact answer (for long
 * transcripts followed at once by the simulator's eviction parts), then count tokens with the
 * exact BPE (loaded lazily on the first transcript) and send that table.
 * A newer request abandons this one at its next yield. Never throws: a failure anywhere (a
 * postMessage that cannot clone, a bug) is answered with an error `result`, so the page never
 * waits forever (issue 14) and keeps what it shows.
 */
export async function runRequest(msg: WorkerRequest, post: Post): Promise<void> {
  const step = { doing: 'reading the input' };
  try {
    await runRequestSteps(msg, post, step);
  } catch (e) {
    if (latest !== msg.id) return;
    try {
      post({
        id: msg.id,
        kind: 'result',
        result: {
          ok: false,
          error: {
            kind: 'shape',
            message: `The worker failed while ${step.doing}: ${clip(e instanceof Error ? e.message : String(e), 300)}. Nothing of this input was loaded.`,
          },
        },
        parseId: -1,
        fresh: false,
        tokens: null,
      });
    } catch {
      // Nothing more can be sent; the page's worker error handler takes over.
    }
  }
}

async function runRequestSteps(
  msg: WorkerRequest,
  post: Post,
  step: { doing: string },
): Promise<void> {
  const { id, req } = msg;
  latest = id;
  const stale = () => latest !== id;
  let parsed: Result<ParsedTranscript>;
  let text: string | undefined;
  const progress = (p: LoadProgress) => post({ id, kind: 'progress', progress: p });
  if (req.file) {
    const file = req.file;
    const key = msg.fileKey ?? -1;
    if (
      lastFile &&
      lastFile.key === key &&
      key >= 0 &&
      lastFile.name === req.name &&
      lastFile.format === req.format &&
      lastFile.requestIndex === req.requestIndex
    ) {
      parsed = lastFile.result;
      text = lastFile.text;
    } else {
      const total = file.size;
      let lastPost = 0;
      const src = await readBlobSource(
        file,
        req.name,
        (bytes, records) => {
          const now = Date.now();
          if (now - lastPost < 50 && bytes < total) return;
          lastPost = now;
          progress({
            phase: 'read',
            bytes,
            totalBytes: total,
            messages: records,
            totalMessages: null,
          });
        },
        (doc) => {
          if (stale()) return;
          const p = safeParseDoc(doc, req.name, req.format, req.requestIndex);
          if (!p.ok) return;
          const r = safeAnalyze(p.value, req.provider);
          post({ id, kind: 'preview', result: r, tokens: r.ok ? quickTokens(r.analysis) : null });
        },
      );
      if (stale()) return;
      if (!src.ok) {
        post({
          id,
          kind: 'result',
          result: { ok: false, error: src.error },
          parseId: -1,
          fresh: false,
          tokens: null,
        });
        await countShown(msg, post, stale);
        return;
      }
      progress({
        phase: 'analyze',
        bytes: total,
        totalBytes: total,
        messages: 0,
        totalMessages: null,
      });
      await yieldNow();
      parsed = safeParseDoc(src.value.doc, req.name, req.format, req.requestIndex);
      text = src.value.text;
      const requestIndex = req.requestIndex;
      lastFile = { key, name: req.name, format: req.format, requestIndex, result: parsed, text };
    }
  } else {
    step.doing = 'parsing the input';
    parsed = parseStage(req.text, req.name, req.format, req.requestIndex);
  }
  if (stale()) return;
  if (!parsed.ok) {
    post({
      id,
      kind: 'result',
      result: { ok: false, error: parsed.error },
      parseId: -1,
      fresh: false,
      tokens: null,
    });
    await countShown(msg, post, stale);
    return;
  }
  step.doing = 'analysing the transcript';
  const inspection = safeAnalyze(parsed.value, req.provider);
  if (!inspection.ok) {
    post({ id, kind: 'result', result: inspection, parseId: -1, fresh: false, tokens: null });
    await countShown(msg, post, stale);
    return;
  }
  const { analysis } = inspection;
  const t = analysis.transcript;
  const n = t.messages.length;
  const parseId = idOf(parsed.value);
  const fresh = sentParse !== parsed.value;
  const totalBytes = req.file?.size ?? req.text.length;
  step.doing = 'sending the transcript to the page';
  if (fresh) {
    for (let from = 0; from < n; ) {
      if (stale()) return;
      // Up to MESSAGE_BATCH messages or MESSAGE_BATCH_CHARS of source JSON, whichever comes first.
      const messages = packMessages(t.messages, from, from + MESSAGE_BATCH, MESSAGE_BATCH_CHARS);
      post({ id, kind: 'messages', from, messages });
      from += messages.length;
      if (req.file)
        progress({
          phase: 'transfer',
          bytes: totalBytes,
          totalBytes,
          messages: from,
          totalMessages: n,
        });
      await yieldNow();
    }
    sentParse = parsed.value;
  }
  if (stale()) return;
  // Long lists go in batches too (each a short task on the page), then the rest in `result`.
  const pairs = analysis.pairs;
  const exchanges = analysis.grouping.exchanges;
  const lists = n >= WORKER_EVICTION_MIN;
  if (lists)
    for (
      let from = 0;
      from < Math.max(pairs.length, exchanges.length, t.usage.length);
      from += LIST_BATCH
    ) {
      if (stale()) return;
      post({
        id,
        kind: 'lists',
        pairs: pairs.slice(from, from + LIST_BATCH),
        exchanges: exchanges.slice(from, from + LIST_BATCH),
        usage: t.usage.slice(from, from + LIST_BATCH),
      });
      await yieldNow();
    }
  if (stale()) return;
  const quick = quickTokens(analysis);
  const quickSeq = ++tableSeq;
  const evictionFollows = n >= WORKER_EVICTION_MIN;
  // The worker keeps a copy of each table it sends for a long transcript (the sent one moves).
  const quickCopy = evictionFollows ? copyTable(quick) : null;
  const textBytes =
    fresh && req.file && text !== undefined ? new TextEncoder().encode(text) : undefined;
  // The timeline's per-block pairs and arc lanes, so the page's first render does not build them.
  const tables = lists ? pairTables(t.messages, pairs) : null;
  shown = { parseId, t, provider: analysis.provider, exact: false };
  post(
    {
      id,
      kind: 'result',
      result: lists ? stripLists(stripTranscript(inspection)) : stripTranscript(inspection),
      ...(lists ? { lists } : {}),
      ...(tables ? { pairTables: tables } : {}),
      parseId,
      fresh,
      ...(textBytes ? { textBytes } : {}),
      tokens: quick,
      tableSeq: quickSeq,
      ...(evictionFollows ? { evictionFollows } : {}),
    },
    [
      quick.perMessage.buffer,
      quick.prefix.buffer,
      ...(textBytes?.buffer instanceof ArrayBuffer ? [textBytes.buffer] : []),
      ...(tables ? pairTableBuffers(tables) : []),
    ],
  );
  if (evictionFollows) {
    // No yield between the answer and this: the page waits for it (client.ts).
    // If it fails, the page is told so (parts null) and prepares the context itself.
    // Posted without a transfer list (the buffers are copied): the worker keeps the parts to
    // sweep for the page.
    let parts: EvictionParts | null = null;
    let safe: Uint8Array | null = null;
    try {
      parts = prepareEvictionParts(t, analysis.provider);
      // The markers on the fast path (the page classifies the others on demand).
      if (parts.cuts.fast) safe = cutMarkers(parts.cuts).safe;
    } catch {
      parts = null;
    }
    post(
      {
        id,
        kind: 'eviction',
        provider: analysis.provider,
        parts: parts ? packEvictionParts(parts, true).packed : null,
        ...(parts && safe ? { safe } : {}),
      },
      safe ? [safe.buffer] : [],
    );
    held =
      parts && quickCopy
        ? {
            parseId,
            provider: analysis.provider,
            t,
            parts,
            tables: new Map([[quickSeq, { table: quickCopy, ctx: null }]]),
            options: held?.options ?? POLICIES.map(() => ({})),
          }
        : null;
    if (held) postSweep(quickSeq, held.options, post);
  } else held = null;
  if (msg.bpe === false) return;
  step.doing = 'counting tokens';
  await countExact(id, parseId, t, analysis.provider, post, stale);
}

/**
 * After request `msg` failed (its answer, an error, is sent): count the transcript of the last
 * answer with the exact BPE if its table was not sent yet. The page keeps showing that transcript
 * next to the error, and its own count stopped when this request made it stale. The table goes
 * out as a `tokens` message under `msg.id` with that transcript's parseId.
 */
async function countShown(msg: WorkerRequest, post: Post, stale: () => boolean): Promise<void> {
  const s = shown;
  if (msg.bpe === false || !s || s.exact) return;
  await countExact(msg.id, s.parseId, s.t, s.provider, post, stale);
}

async function countExact(
  id: number,
  parseId: number,
  t: Transcript,
  provider: ProviderId,
  post: Post,
  stale: () => boolean,
): Promise<void> {
  bpe ??= loadBpeCounter('o200k_base').catch(() => null);
  const counter = await bpe;
  if (!counter || stale()) return;
  const c = new TokenCounting(t, provider, counter, cache, { preferUsage: true });
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
  if (shown && shown.parseId === parseId && shown.provider === provider) shown.exact = true;
  const seq = ++tableSeq;
  const h = held && held.parseId === parseId && held.provider === provider ? held : null;
  if (h) h.tables.set(seq, { table: copyTable(table), ctx: null });
  post({ id, kind: 'tokens', parseId, provider, tokens: table, tableSeq: seq }, [
    table.perMessage.buffer,
    table.prefix.buffer,
  ]);
  if (h) postSweep(seq, h.options, post);
}

/** A copy of a token table (its typed arrays too). */
function copyTable(t: TokenTable): TokenTable {
  return { ...t, perMessage: t.perMessage.slice(), prefix: t.prefix.slice() };
}

/**
 * Sweep every policy over the held context of table `seq` with `options` (POLICIES order) and post
 * it: the same `sweepPolicy` calls as the page's `selectSweep`, over the same context as the
 * page's `selectEvictionContext` (`assembleEviction` of the same parts and table). Only on the
 * fast cut path (the page does not sweep the others either). Never throws: a failure posts
 * `sweeps: null`.
 */
function postSweep(seq: number | undefined, options: PolicyOptions[], post: Post): void {
  const h = held;
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
  // `cuts` is the context's cached plan (copied); the other arrays are the sweep's own (moved).
  const transfer: ArrayBuffer[] = [];
  for (const s of sweeps ?? [])
    for (const a of [s.costs, s.valid, s.budgetLo, s.budgetHi])
      if (a.buffer instanceof ArrayBuffer) transfer.push(a.buffer);
  post(
    { kind: 'sweep', parseId: h.parseId, provider: h.provider, tableSeq: seq, options, sweeps },
    transfer,
  );
}

/**
 * Handle a page's `SweepRequest`: sweep the held context of that table with those options (and
 * remember them for the next table). Ignored when the worker holds another parse, provider or
 * table. Never throws.
 */
export function runSweep(msg: SweepRequest, post: Post): void {
  const h = held;
  if (!h || h.parseId !== msg.parseId || h.provider !== msg.provider) return;
  h.options = msg.options;
  if (h.tables.has(msg.tableSeq)) postSweep(msg.tableSeq, msg.options, post);
}

/** Forget the worker's memo (tests). */
export function resetRun(): void {
  latest = 0;
  sentParse = null;
  lastFile = null;
  held = null;
  shown = null;
}
