/**
 * What the page calls (`InspectClient`) and hears (`InspectListener`), whichever client answers:
 * the worker client (client.ts) or the synchronous one (syncClient.ts).
 */
import type { TokenTable } from '../model/tokens.ts';
import type { ProviderId, Transcript } from '../model/types.ts';
import type { InspectRequest, Inspection, LoadProgress } from './protocol.ts';

/** What a caller hears while a request runs (all optional). */
export interface InspectListener {
  progress?: (p: LoadProgress) => void;
  /** The first messages of a streamed log, analysed on their own, with chars/4 tokens. */
  preview?: (r: Inspection, tokens: TokenTable | null) => void;
  /** A token table for a transcript the answer carries (chars/4 at once, the BPE's later). */
  tokens?: (t: Transcript, provider: ProviderId, table: TokenTable) => void;
}

export interface InspectClient {
  /** Parse and analyse off the main thread. Never rejects: failures are `{ok: false}`. */
  inspect: (req: InspectRequest, listener?: InspectListener) => Promise<Inspection>;
  /** Stop the running request now; it resolves as cancelled (`CANCELLED`). */
  cancel: () => void;
  /**
   * Make sure the exact token table of `t`, a transcript the page shows, comes: after a request
   * failed or was cancelled, the count that was running for `t` may have been dropped (a newer
   * request made it stale; a cancel stopped the worker). `req` is the request whose answer `t`
   * is (same provider). When the worker still holds `t` as its last answer it counts it on its
   * own after a failure (run.ts); otherwise `req` is parsed again in the worker, only for its
   * counts, and the exact table reaches `listener.tokens` with `t`. Nothing is resolved; a newer
   * request supersedes it. A no-op on the synchronous client (the page counts there).
   * `provider` is the provider of the page's analysis of `t` (the one `req` resolved to).
   */
  recount: (
    req: InspectRequest,
    t: Transcript,
    provider: ProviderId,
    listener: InspectListener,
  ) => void;
  /** Stop the worker. */
  dispose: () => void;
}

/** The answer of a cancelled request. */
export const CANCELLED: Inspection = {
  ok: false,
  error: { kind: 'empty', message: 'Loading was cancelled.' },
};

/** True for the answer of a cancelled request. */
export function isCancelled(r: Inspection): boolean {
  return r === CANCELLED;
}
