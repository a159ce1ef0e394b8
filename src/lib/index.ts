/**
 * transcript-inspector as a library: the validator in the request path.
 *
 * - `check(body, { provider?, format?, model? })`: the provider's verdict and exact 400 body;
 *   `checkCounted` the same with the context window judged by an o200k count where needed.
 * - `createCheckedFetch({ mode })`: a `fetch` for the official SDKs that stops (or repairs) a
 *   malformed request before it is sent and can record every provider call; only provider
 *   endpoints are read (`endpointOf`), never a stream; `transcriptCheckMiddleware({ mode })` does
 *   the same for the AI SDK.
 * - `diff(a, b)`: what changed between two requests (labels, broken pairings, cache prefix).
 * - `evict`, `repair`, `groupExchanges`, `turnPairs`: the model's eviction, repair and structure,
 *   in the body's own format.
 *
 * Pure ESM, no DOM, no Node built-ins: runs in Node ≥ 20, browsers, workers and edge runtimes.
 */
export { check, checkCounted, type CheckOptions, type CheckResult } from './check.ts';
export {
  createCheckedFetch,
  findMalformed,
  MalformedTranscriptError,
  type CheckMode,
  type CheckedFetch,
  type CheckedFetchOptions,
  type FetchLike,
  type ViolationReport,
  type RepairReport,
  type SkipInfo,
  type SkipReason,
  type RecordLine,
  type RecordTarget,
  type RecordOutcome,
  type RecordedViolation,
  type ChangeLabel,
  type LabelledChange,
} from './fetch.ts';
export {
  diff,
  type DiffOptions,
  type TranscriptDiff,
  type DiffRow,
  type DiffSide,
  type DiffChange,
  type BrokenPair,
  type NewFinding,
  type CachePrefix,
  type DiffCounts,
} from './diff.ts';
export { DEFAULT_MAX_BODY_BYTES } from './body.ts';
export { RECORD_SCHEMA, RECORD_VERSION } from './record.ts';
export {
  endpointOf,
  recogniseEndpoint,
  type Endpoint,
  type EndpointId,
  type EndpointMatch,
  type NamedEndpoint,
} from './endpoints.ts';
export {
  transcriptCheckMiddleware,
  providerOfModel,
  type CheckMiddlewareOptions,
  type LanguageModelLike,
} from './aiSdk.ts';
export {
  evict,
  repair,
  groupExchanges,
  turnPairs,
  type EvictOptions,
  type EvictResult,
  type RepairOptions,
  type RepairResult,
  type MessageRef,
  type Exchange,
  type TurnPair,
  type PolicyId,
  type RepairChange,
  type Unrepaired,
} from './transform.ts';
export {
  FORMATS,
  PROVIDERS,
  UnreadableTranscriptError,
  type Body,
  type ReadOptions,
} from './read.ts';
export type { FormatId, ProviderId, ParseError } from '../model/types.ts';
export type { Violation, RuleId } from '../model/validate/index.ts';
