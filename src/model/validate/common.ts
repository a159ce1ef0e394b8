import type { RuleId, Violation } from './types.ts';

/** Input for a violation: everything but the fields filled in by the provider's envelope. */
export interface ViolationInput {
  rule: RuleId;
  code: string;
  /** Raw index (`Message.rawIndex`) of the message holding the cause, for display. */
  messageIndex: number;
  /** Our index (`Message.index`) of that message, for lookups; see `Violation.index`. */
  index: number;
  blockIndex: number | null;
  ids: string[];
  providerPath: string | null;
  message: string;
  title: string;
  why: string;
  confidence: Violation['confidence'];
  severity?: Violation['severity'];
}

/** Build a violation with a provider's error envelope. */
export function violation(
  v: ViolationInput,
  envelope: (message: string, v: ViolationInput) => unknown,
): Violation {
  const severity = v.severity ?? 'error';
  return {
    ...v,
    severity,
    status: severity === 'error' ? 400 : null,
    error: severity === 'error' ? envelope(v.message, v) : null,
  };
}

/** Sort violations by the provider's scan order (message, then block); stable. */
export function byScanOrder<T extends { order: number }>(list: T[]): T[] {
  return list
    .map((v, i) => ({ v, i }))
    .sort((a, b) => a.v.order - b.v.order || a.i - b.i)
    .map((x) => x.v);
}

/** Where a validator's findings go, in the order the provider meets them. */
export type Push = (v: ViolationInput) => void;
