/**
 * What the engine hands the page besides an answer, and to whom. The worker client builds these
 * (pair tables, eviction parts and cut markers, sweeps) and gives them to an `AnswerSink`; on the
 * page that sink is the session's (state/session/), the one owner of the engine's answers. The
 * engine itself imports nothing from the state (ui → state → engine → model).
 */
import type { Analysis } from '../model/analyze.ts';
import type { EvictionParts } from '../model/evict/prepare.ts';
import type { PolicySweep } from '../model/evict/sweep.ts';
import type { PolicyOptions } from '../model/evict/types.ts';
import type { PairTables } from '../model/pairTables.ts';
import type { TokenTable } from '../model/tokens.ts';
import type { ProviderId, Transcript } from '../model/types.ts';
import type { RequestsAnswer } from './diffProtocol.ts';
import type { SourceBytes } from './lazyMessage.ts';

/**
 * Who computes sweeps off the page's thread (the worker client): `has` says whether it holds the
 * context of a token table (a table it sent), `request` asks for the sweep of that table with
 * per-policy options; the answer comes back through `AnswerSink.sweep`.
 */
export interface SweepSource {
  has: (table: TokenTable, provider: ProviderId) => boolean;
  request: (table: TokenTable, provider: ProviderId, options: PolicyOptions[]) => void;
}

/** Where the engine's side results go. */
export interface AnswerSink {
  /** The pair tables the worker built for an analysis it sent. */
  pairTables(a: Analysis, tables: PairTables): void;
  /**
   * The eviction parts the worker prepared for a transcript it sent (unpacked for the page's
   * copy), with its classification of every cut (`safe`) when it made one.
   */
  evictionParts(
    t: Transcript,
    provider: ProviderId,
    parts: EvictionParts,
    safe: Uint8Array | null,
  ): void;
  /**
   * The worker is preparing the eviction parts of a transcript it just answered with (`follows`
   * true: they come in an `evictionParts` call shortly after the answer, and until then the page
   * shows the simulator as preparing rather than preparing the parts on its own thread), or they
   * will not come after all (`follows` false: preparing failed, the worker was stopped).
   */
  evictionFollows(t: Transcript, provider: ProviderId, follows: boolean): void;
  /** A sweep of every policy the worker made for a token table it sent. */
  sweep(
    table: TokenTable,
    provider: ProviderId,
    options: readonly PolicyOptions[],
    sweeps: PolicySweep[],
  ): void;
  /** What the worker can sweep changed (a new answer, a failure, a cancel, a sweep it could not make). */
  sweepsChanged(): void;
  /** The client, as the page's source of sweeps (null: none). */
  sweepSource(src: SweepSource | null): void;
  /**
   * The model calls of the streamed session log an answer is of (the request strip), or null
   * with an answer of anything else; again, with more judged, when the worker judged them.
   */
  requests(answer: RequestsAnswer | null): void;
  /**
   * A large file's messages are read from the file on the page (issue 38): `source` is where
   * transcript `t`'s message texts come from (`withFileBytes` reads the whole file through it).
   */
  fileSource(t: Transcript, source: SourceBytes): void;
  /**
   * Message texts read from the file arrived (draw again); `missed`: something other than a row
   * read a message before its text was there (memoised results may hold its empty blocks).
   */
  sourceRead(missed: boolean): void;
}

/** A sink that keeps nothing (tests, and clients whose answers nobody adopts). */
export const NO_SINK: AnswerSink = {
  pairTables: () => {},
  evictionParts: () => {},
  evictionFollows: () => {},
  sweep: () => {},
  sweepsChanged: () => {},
  sweepSource: () => {},
  requests: () => {},
  fileSource: () => {},
  sourceRead: () => {},
};
