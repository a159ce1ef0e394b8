/**
 * What the worker remembers between requests: the latest request (older ones abandon at their
 * next yield), the parse ids, the parse whose messages the page has, the last file read, the
 * token cache and the BPE counter, the eviction parts it sweeps for, the transcript shown.
 */
import type { EvictionContext } from '../model/evict/policies.ts';
import type { EvictionParts } from '../model/evict/prepare.ts';
import type { PolicyOptions } from '../model/evict/types.ts';
import type { ParsedTranscript } from '../model/parse/index.ts';
import { TokenCache } from '../model/tokenCache.ts';
import { InspectStages } from './inspect.ts';
import type { TextCounter, TokenTable } from '../model/tokens.ts';
import type { FormatId, ProviderId, Result, Transcript } from '../model/types.ts';
import type { LoadProgress, WorkerRequest, WorkerResponse } from './protocol.ts';
import { yieldTask, type StreamedSource } from './stream.ts';
import type { StreamedSession } from './runRequests.ts';

/** How the worker posts (a fake in Node tests). */
export type Post = (msg: WorkerResponse, transfer?: Transferable[]) => void;

/** One request as it runs: its id, how to post, whether a newer one replaced it. */
export interface Running {
  msg: WorkerRequest;
  post: Post;
  stale: () => boolean;
  progress: (p: LoadProgress) => void;
  /** What the worker is doing, for the error a failure is answered with. */
  step: { doing: string };
}

/**
 * The eviction parts of the last long transcript sent, kept so the worker sweeps for the page:
 * per table sent (by its number) a copy of the table and its context, built on first sweep.
 */
export interface Held {
  parseId: number;
  provider: ProviderId;
  t: Transcript;
  parts: EvictionParts;
  tables: Map<number, { table: TokenTable; ctx: EvictionContext | null }>;
  /** The options the page last asked for (POLICIES order); defaults until it asks. */
  options: PolicyOptions[];
}

/** The worker's memory (one per worker; `resetRun` clears it for tests). */
// eslint-disable-next-line cache/no-module-cache -- the inspect worker's memory, in its own realm (one per worker; the page never imports it: its copy of the answers is the session's)
export const run = {
  /** The inspect stages and their memos (parse, analysis, faults). */
  stages: new InspectStages(),
  /** The worker's number for each parse result (`idOf`). */
  parseIds: new WeakMap<ParsedTranscript, number>(),
  latest: 0,
  parseSeq: 0,
  sentParse: null as ParsedTranscript | null,
  lastFile: null as {
    key: number;
    name: string;
    format: FormatId | null;
    requestIndex: number | undefined;
    model: string | undefined;
    result: Result<ParsedTranscript>;
    source: StreamedSource;
    /** A session log's calls, read before its records were released (runRequests.ts). */
    session: StreamedSession | null;
    /**
     * True while its slimmed records are not released yet (nor its calls read): the first
     * answer goes first (issue 38), then run.ts `settleFile` does both, once.
     */
    unsettled?: boolean;
  } | null,
  cache: new TokenCache(),
  bpe: null as Promise<TextCounter | null> | null,
  held: null as Held | null,
  tableSeq: 0,
  /**
   * The transcript of the last answer sent (the one the page shows while later requests fail):
   * `exact` once its exact BPE table was sent. A request that fails counts it when it was not,
   * so an exact count dropped because that request made it stale is not lost.
   */
  shown: null as { parseId: number; t: Transcript; provider: ProviderId; exact: boolean } | null,
};

/** The worker's number for a parse result (the page reuses the messages of the same parse). */
export function idOf(p: ParsedTranscript): number {
  let id = run.parseIds.get(p);
  if (id === undefined) {
    id = ++run.parseSeq;
    run.parseIds.set(p, id);
  }
  return id;
}

/** Let a newer request or a cancel in. */
export const yieldNow = yieldTask;

/**
 * Mark the end of a load stage on the worker's timeline (`performance` mark `load:<name>`), for
 * `npm run bench`'s stage breakdown (scripts/benchLoad.ts). `clear`: a new request starts.
 */
export function stage(name: string, clear = false): void {
  if (typeof performance === 'undefined' || !performance.mark) return;
  if (clear) performance.clearMarks();
  performance.mark(`load:${name}`);
}
