/** The errors a checked fetch rejects with, and how to find one an SDK wrapped. */
import type { ProviderId } from '../model/types.ts';
import type { Violation } from '../model/validate/index.ts';
import type { CheckResult } from './check.ts';

/**
 * The error a checked fetch rejects with in throw mode: the request was not sent.
 * `message` carries the provider's own text, so it reads the same wherever an SDK wraps it
 * (the Anthropic and OpenAI SDKs pass errors from a custom fetch through, or as `cause`).
 */
export class MalformedTranscriptError extends Error {
  /** The violations, first error first (as `check` returns them). */
  readonly violations: Violation[];
  /** The exact JSON body the provider would have answered with. */
  readonly providerError: unknown;
  /** The HTTP status the provider would have answered with (400). */
  readonly status: number;
  readonly provider: ProviderId;
  readonly url: string;
  readonly result: CheckResult;
  constructor(url: string, result: CheckResult) {
    const v = result.firstViolation;
    super(
      `${result.provider} would reject this request with HTTP ${v?.status ?? 400} [${v?.code ?? '?'} ${v?.rule ?? ''}]: ${v?.message ?? ''} (not sent; checked by transcript-inspector)`,
    );
    this.name = 'MalformedTranscriptError';
    this.violations = result.violations;
    this.providerError = result.firstError;
    this.status = v?.status ?? 400;
    this.provider = result.provider;
    this.url = url;
    this.result = result;
  }
}

/**
 * The `MalformedTranscriptError` behind an error, following `cause` (an SDK that wraps a rejected
 * fetch, such as `APIConnectionError`), or null.
 * @example
 * catch (e) { const m = findMalformed(e); if (m) console.error(m.providerError); }
 */
export function findMalformed(e: unknown): MalformedTranscriptError | null {
  for (let x = e, depth = 0; x !== null && typeof x === 'object' && depth < 8; depth++) {
    if (x instanceof MalformedTranscriptError) return x;
    x = (x as { cause?: unknown }).cause;
  }
  return null;
}
