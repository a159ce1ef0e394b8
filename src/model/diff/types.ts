/**
 * The shapes of a diff of two requests (issue 33): what a row is, what a side is, what the
 * whole answer is. The CLI's `diff --json` and the package's `diff()` print `TranscriptDiff`
 * as it is; the page draws it.
 */
import type { ProviderId } from '../types.ts';
import type { RuleId } from '../validate/types.ts';

export type { RuleId };

/**
 * What happened to a message between the left request and the right one.
 * - `kept`: on both sides, same role and content (by identity, tool-call ids, or the LCS).
 * - `dropped`: on the left only (evicted, compacted away, rolled back).
 * - `inserted`: on the right only, new content (a new prompt, a reply, a tool result).
 * - `merged`: a run of left messages of one role that became one right message (same blocks).
 * - `rewritten`: the message is there on both sides but its content changed (a cleared tool
 *   result, a placeholder), or a right-side summary stands for dropped left messages (`left`
 *   null, `replaces` set).
 * - `sealed`: a provider compaction block or item on the right replaced a span of left messages.
 * - `reordered`: the same message on both sides, moved (not on the common subsequence).
 */
export type DiffChange =
  | 'kept'
  | 'dropped'
  | 'inserted'
  | 'merged'
  | 'rewritten'
  | 'sealed'
  | 'reordered';

/** Every change, in the order a legend lists them. */
export const DIFF_CHANGES: readonly DiffChange[] = [
  'kept',
  'dropped',
  'inserted',
  'merged',
  'rewritten',
  'sealed',
  'reordered',
];

/**
 * One row of the diff. `left`/`right` are message indices (0-based positions in that side's
 * `messages`, as `Message.index` numbers them), or null when the message is on one side only.
 * Rows come in a merged order: the right side's order, each dropped left message where it stood.
 * A `merged` or `sealed` span repeats its one right message on every row of the span.
 */
export interface DiffRow {
  change: DiffChange;
  left: number | null;
  right: number | null;
  /** A right-side summary or compaction (`rewritten`/`sealed`): the left messages [from, to) it stands for. */
  replaces?: [number, number];
}

/** One side of a diff, as the CLI's `--json` prints it. */
export interface DiffSide {
  /** Its 1-based request number in its file, or null when the file holds one request. */
  request: number | null;
  /** What the page and the summary call it: `Request 14`, `the left request`, a file name. */
  label: string;
  messages: number;
  /** System prompt plus messages, in tokens (estimate or exact: `basis`). */
  tokens: number;
  valid: boolean;
  /** The provider's error body of the first error (the 400 this side gets), or null when valid. */
  firstError: unknown;
  /** The first error's rule and code (`orphan_tool_result`, `A1`), or null when valid. */
  firstRule: { rule: RuleId; code: string } | null;
}

/** A pairing the change broke: a validator finding on the right side that the left does not have. */
export interface BrokenPair {
  /** The tool id (`toolu_…`, `call_…`). */
  id: string;
  rule: RuleId;
  /** The provider's rule code in the catalogue (`A1`, `O3`, …). */
  code: string;
  /** The right-side message (index, as the rows number it) that holds the cause. */
  messageIndex: number;
  severity: 'error' | 'warning';
}

/** A new finding on the right side without a tool id (role order, first message role, …). */
export interface NewFinding {
  rule: RuleId;
  code: string;
  /** The right-side message index, or −1 for the request as a whole. */
  messageIndex: number;
  severity: 'error' | 'warning';
}

/** Where the prompt-cache prefix stops matching: the common leading messages and their tokens. */
export interface CachePrefix {
  /** How many leading messages the two sides share (0 when the system prompts differ). */
  messages: number;
  /** Their tokens, system prompt included (0 when nothing is shared). */
  tokens: number;
}

/** Counts of each change, and the tokens of the dropped and inserted messages. */
export interface DiffCounts {
  kept: number;
  dropped: number;
  inserted: number;
  merged: number;
  rewritten: number;
  sealed: number;
  reordered: number;
  droppedTokens: number;
  insertedTokens: number;
}

/** The diff of two requests (`diffTranscripts`). */
export interface TranscriptDiff {
  /** One sentence saying what happened (what was dropped, what broke, the 400 it causes). */
  summary: string;
  left: DiffSide;
  right: DiffSide;
  /** The provider both sides were judged by. */
  provider: ProviderId;
  rows: DiffRow[];
  broken: BrokenPair[];
  /** New findings with no tool id, on the right side only. */
  introduced: NewFinding[];
  cachePrefix: CachePrefix;
  counts: DiffCounts;
  /** How the token figures were counted (`≈ chars/4`, `exact o200k_base …`). */
  tokenBasis: string;
  /** Notes: the two sides are of different formats and were compared through the model, … */
  notes: string[];
}
