import { quoteIds } from '../../limits.ts';
import type { RuleId, Violation } from '../types.ts';

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

/**
 * Build a violation with a provider's error envelope. Its message (and so its error body) quotes
 * a huge id by its two ends only, and is at most `MAX_MESSAGE_CHARS` long (limits.ts `quoteIds`).
 */
export function violation(
  v: ViolationInput,
  envelope: (message: string, v: ViolationInput) => unknown,
): Violation {
  const severity = v.severity ?? 'error';
  const message = quoteIds(v.message, v.ids);
  return {
    ...v,
    message,
    severity,
    status: severity === 'error' ? 400 : null,
    error: severity === 'error' ? envelope(message, v) : null,
  };
}

/** True when some violation is an error (a loop, not `some`: no closure per check, issue 17). */
export function hasError(violations: readonly Violation[]): boolean {
  for (const v of violations) if (v.severity === 'error') return true;
  return false;
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

/**
 * True for a request schema (type) error, met before every other check (the validators list
 * them first): a refused tool id (A18, B10, O10, R8), an assistant message with null content
 * (O11), an empty `tool_calls` list (O15), a content part without `type` (O13, A20) or of a type
 * Chat does not have (O12). Mistral's M4, met after its order checks, is not one (Mistral takes
 * no fast cut path). A19 (a system message in an Anthropic body's list) is listed first too but
 * is not one yet: the fast cut engine disagrees with validating the kept messages on it either
 * way (to be looked at).
 */
export function isSchemaError(v: Violation): boolean {
  return SCHEMA_RULES.has(v.rule);
}

/** The rule classes of `isSchemaError`. */
const SCHEMA_RULES: ReadonlySet<RuleId> = new Set([
  'malformed_tool_id',
  'null_content',
  'empty_tool_calls',
  'untyped_part',
  'unknown_part_type',
]);

/**
 * A validation lists its schema errors first (`isSchemaError`); this puts them first in a list
 * assembled from parts (the fast cut engine), keeping the order within each group.
 */
export function schemaFirst(violations: Violation[]): Violation[] {
  let any = false;
  for (const v of violations) if (isSchemaError(v)) any = true;
  if (!any) return violations;
  return [
    ...violations.filter((v) => isSchemaError(v)),
    ...violations.filter((v) => !isSchemaError(v)),
  ];
}

/**
 * A validation's violations with its schema errors (listed first) merged back into message
 * order: each before the first other violation of a later message.
 */
export function positionOrder(list: Violation[]): Violation[] {
  const schema = list.filter((v) => isSchemaError(v));
  if (schema.length === 0) return list;
  const out: Violation[] = [];
  let i = 0;
  for (const v of list) {
    if (isSchemaError(v)) continue;
    while (i < schema.length && (schema[i] as Violation).index <= v.index)
      out.push(schema[i++] as Violation);
    out.push(v);
  }
  while (i < schema.length) out.push(schema[i++] as Violation);
  return out;
}
