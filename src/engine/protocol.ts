/**
 * Typed messages between the page and the inspect worker. The UI never posts to the worker
 * directly: it calls `client.ts`.
 *
 * Two requests: `inspect` (text the page already holds: a paste, a sample) and `load` (a file the
 * worker streams itself, issue 7). Both are answered the same compact way (pack.ts): the
 * transcript's messages in batches with each message's source JSON as a string, or for a streamed
 * log the byte spans of its lines in the file's bytes that come with the answer (parsed on the
 * page only when something reads `message.raw`), then one `result` with everything else and
 * a token table (typed arrays, transferred). A `load` also sends `progress` while it reads and a
 * `preview` of the first messages so the first rows are drawn before the file is read.
 */
import type { Analysis } from '../model/analyze.ts';
import type { AppliedFaults } from '../model/faultedAnalysis.ts';
import type { FaultSpec } from '../model/faults.ts';
import type { PolicySweep } from '../model/evict/sweep.ts';
import type { PairTables } from '../model/pairTables.ts';
import type { PolicyOptions } from '../model/evict/types.ts';
import type { ParsedTranscript } from '../model/parse/index.ts';
import type { TokenTable } from '../model/tokens.ts';
import type { FormatId, Message, ParseError, ProviderId } from '../model/types.ts';
import type { PackedEvictionParts } from './evictionParts.ts';
import type { PackedLists } from './packLists.ts';
import type { RequestsAnswer } from './diffProtocol.ts';

/** What to inspect: the source text and the user's format/provider choices (null = detect). */
export interface InspectRequest {
  text: string;
  /** File name hint (`.jsonl`), or ''. */
  name: string;
  format: FormatId | null;
  provider: ProviderId | null;
  /** A file to stream in the worker instead of `text` (large files; `text` is then ''). */
  file?: Blob;
  /** For a file holding several requests: which one to parse (0-based); absent = the last. */
  requestIndex?: number;
  /** Judge as this model (the Model picker, `ParseOptions.model`); absent = the input's own. */
  model?: string;
  /**
   * Faults to apply to the parsed transcript, in order (the store's `faults`; absent = none):
   * the answer is then the analysis of the faulted transcript (model/faultedAnalysis.ts), with
   * what the faults did in `Inspection.faults`, and its tokens, eviction parts and sweeps.
   */
  faults?: readonly FaultSpec[];
}

/** The parse result for the text, and the analysis when it parsed. */
export type Inspection =
  | {
      ok: true;
      parsed: ParsedTranscript;
      analysis: Analysis;
      /**
       * Set when the request had faults: what they did (`analysis` and `parsed.transcript` are
       * then the faulted transcript, re-indexed for display).
       */
      faults?: AppliedFaults;
    }
  | { ok: false; error: ParseError };

/**
 * `Inspection.faults` as sent (pack.ts `packFaults`): the faulted transcript before re-indexing
 * differs from the shown one only in the `index` of some messages, so it goes as
 * [position, index, …] of those (the page copies them back, `joinFaults`).
 */
export interface PackedFaults {
  descriptions: string[];
  error: string | null;
  asked: readonly FaultSpec[];
  moved: number[];
}

/** Loading progress of a streamed file. */
export interface LoadProgress {
  /** Phase: reading the file, analysing it, sending it to the page, counting tokens. */
  phase: 'read' | 'analyze' | 'transfer' | 'tokens';
  /** Bytes read so far and the file's size, in bytes. */
  bytes: number;
  totalBytes: number;
  /** Records (JSONL lines) or messages handled so far in this phase, and the total when known. */
  messages: number;
  totalMessages: number | null;
}

/**
 * Sweep every policy (issue 4's sweep) over the eviction context of a token table the worker
 * sent, with these per-policy options (POLICIES order). Answered by a `sweep` message; ignored when
 * the worker no longer holds that parse, provider or table (a newer request replaced it).
 */
export interface SweepRequest {
  kind: 'sweep';
  parseId: number;
  provider: ProviderId;
  tableSeq: number;
  options: PolicyOptions[];
}

export interface WorkerRequest {
  kind?: 'inspect';
  id: number;
  req: InspectRequest;
  /** Count tokens with the exact BPE after the answer (default true; false in some tests). */
  bpe?: boolean;
  /**
   * Read a streamed session log's calls for the request strip (default true; false: the
   * `strip_load_overhead_100mb` bench's baseline, scripts/benchStrip.ts).
   */
  strip?: boolean;
  /** The page's id for `req.file` (the same Blob gets the same id), so the worker reuses its parse. */
  fileKey?: number;
}

/** `true` when the keys K are every key of T (a packed form's compile-time check that no field is left out). */
export type Covers<T, K extends keyof T> = [Exclude<keyof T, K>] extends [never] ? true : never;

/**
 * A batch of messages as sent, in columns (issue 20): typed arrays and flat lists of strings
 * clone and rebuild about five times faster than one object per message. Row k is message
 * `index[k]`. `raw` goes as JSON text (`rawJson[k]`; null with spans or for an undefined raw), or
 * as the byte spans [start, end, …] of the records it is in the file's bytes (`textBytes`, sent
 * with the answer): spans[spanAt[k] .. spanAt[k + 1]). `blocks[k]` null (flag `blocksFromRaw`): the
 * page rebuilds them from raw with the format's `blocksOf`. Optional fields: a −1 (`rawLine`), a
 * null string, or the `flags` bits (a meta field holding `undefined` goes as absent); a list of
 * nulls goes empty (engine/packMessages.ts).
 */
export interface PackedMessages {
  count: number;
  index: Int32Array;
  rawIndex: Int32Array;
  rawLine: Int32Array;
  /** Position in ROLE_NAMES (model/types.ts). */
  role: Uint8Array;
  flags: Uint16Array;
  path: string[];
  rawJson: (string | null)[];
  spanAt: Int32Array;
  spans: Float64Array;
  blocks: (Message['blocks'] | null)[];
  sourceId: (string | null)[];
  timestamp: (string | null)[];
  reasoning: (string | null)[];
  usageOutputTokens: Float64Array;
}

export type WorkerResponse =
  | { id: number; kind: 'progress'; progress: LoadProgress }
  /** The first messages of a streamed JSONL file, analysed on their own (not the verdict). */
  | { id: number; kind: 'preview'; result: Inspection; tokens: TokenTable | null }
  /** `format`: the parse's format (whose `blocksOf` rebuilds the messages sent without blocks). */
  | { id: number; kind: 'messages'; from: number; format: FormatId; messages: PackedMessages }
  /**
   * The analysis' pairs and exchanges and the transcript's usage records in batches, in order,
   * before a `result` with `lists`.
   */
  | { id: number; kind: 'lists'; lists: PackedLists }
  | {
      id: number;
      kind: 'result';
      /** With `ok`: the transcript without messages (sent before as `messages`) and raw. */
      result: Inspection;
      /** The parse this answer belongs to; the page reuses its messages when it has them. */
      parseId: number;
      /** True when the messages were sent in this answer (else the page has them already). */
      fresh: boolean;
      /**
       * The source text as UTF-8 bytes (transferred), only for streamed files (the page never
       * read it); decoded on the page only when something reads the transcript's `raw` (export).
       * A string of 100 MB would be one deserialisation of ≈ 100–200 ms on the page.
       */
      textBytes?: Uint8Array;
      /**
       * The messages' spans are byte offsets of the request's file, read from it on the page
       * (issue 38: a large JSON Lines file's bytes are not sent; the page keeps no copy).
       */
      spansInFile?: boolean;
      tokens: TokenTable | null;
      /** A `requests` message follows (a streamed session log's calls): the strip shown stays till then. */
      requestsFollow?: boolean;
      /** True when the pairs and exchanges came before in `lists` messages (pack.ts `stripLists`). */
      lists?: boolean;
      /** What the request's faults did (`Inspection.faults`, packed), when it had faults. */
      faults?: PackedFaults;
      /** The timeline's pair tables (`pairTables`, transferred), for long transcripts. */
      pairTables?: PairTables;
      /** The worker's number for `tokens` (sweeps name their table by it). */
      tableSeq?: number;
      /**
       * True when an `eviction` message for this answer follows at once (long transcripts,
       * `WORKER_EVICTION_MIN`): the page answers at once and shows the simulator as preparing
       * until it arrives (issue 38).
       */
      evictionFollows?: boolean;
    }
  /** The simulator's token-independent stage for the answer's transcript (evictionParts.ts). */
  /** null when preparing them failed: the page prepares the context itself. */
  /** `safe`: the cut markers (`cutMarkers(parts.cuts).safe`, length n + 1), when classified. */
  | {
      id: number;
      kind: 'eviction';
      provider: ProviderId;
      parts: PackedEvictionParts | null;
      safe?: Uint8Array;
    }
  /**
   * A streamed session log's model calls for the request strip (runRequests.ts; the diff
   * worker lists the calls of a file the page holds as text), for answer `parseId`: sent after
   * it, then again once more of them are judged. Null: the log the answer said might hold calls
   * (`requestsFollow`: its calls are read after the answer) holds fewer than two.
   */
  | { id: number; kind: 'requests'; parseId: number; requests: RequestsAnswer | null }
  /** A later, better token table for the last result (the BPE finished counting). */
  | {
      id: number;
      kind: 'tokens';
      parseId: number;
      provider: ProviderId;
      tokens: TokenTable;
      tableSeq: number;
    }
  /**
   * The sweep of every policy for one of the tables sent (`tableSeq`) with `options`: sent
   * unasked after the eviction parts and after the exact token table (with the options last
   * asked for, else defaults), and in answer to a `SweepRequest`. `sweeps` null: the worker
   * could not sweep (the page sweeps itself).
   */
  | {
      kind: 'sweep';
      parseId: number;
      provider: ProviderId;
      tableSeq: number;
      options: PolicyOptions[];
      sweeps: PolicySweep[] | null;
    };
