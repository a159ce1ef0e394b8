/**
 * What a repair reports: each change made (in order), what is still wrong and why, and the
 * repaired transcript with its validation.
 */
import type { ProviderId, Transcript } from '../types.ts';
import type { RuleId, Validation } from '../validate/index.ts';
import type { RepairKind } from './kinds.ts';

export type { RepairKind } from './kinds.ts';

export interface RepairChange {
  kind: RepairKind;
  /** The rule of the violation this change answers (docs/rules.md), or null when none is known. */
  rule: RuleId | null;
  /** Position in the input transcript of the message the change is about (the call's message for an added result, the removed or edited message). */
  messageIndex: number;
  /** Position in the repaired transcript of the message written (new or changed), or null for a pure removal. */
  outputIndex: number | null;
  /** Input positions of the input messages this change replaced (by an edited copy) or removed; every other input message is kept as the same object. */
  replaced: number[];
  /** Tool ids involved. */
  ids: string[];
  /** One sentence: what was done and why. */
  note: string;
}

export interface Unrepaired {
  rule: RuleId;
  /** Provider rule code (`T1`, `R3`, …). */
  code: string;
  /** Raw index of the message (as the validator reports it). */
  messageIndex: number;
  ids: string[];
  /** The provider's error text, verbatim. */
  message: string;
  /** Why the repair did not fix it, and what would (first, when the repair made it: how). */
  note: string;
  /** True when the input had no error of this rule: the repair's own changes made it. */
  madeByRepair?: true;
}

export interface RepairResult {
  transcript: Transcript;
  changes: RepairChange[];
  /** Errors still present after repair, each explained. Empty when `validation.valid`. */
  unrepaired: Unrepaired[];
  /** Validation of the repaired transcript for the provider. */
  validation: Validation;
  provider: ProviderId;
}
