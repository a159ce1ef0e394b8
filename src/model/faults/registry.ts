/**
 * The fault registry: one `FaultDef` per fault, one file each in this folder. `FaultKind`,
 * `FaultSpec`, the labels, the link's item codes and schema (`permalink/faults.ts`,
 * `permalink/schema.ts`) and the menu's targets (`faultTargets`) are derived from it. The order
 * is the menus' order.
 */
import type { z } from 'zod';
import { cancelFault } from './cancel.ts';
import { dropFault } from './drop.ts';
import { retryFault } from './retry.ts';
import { timeoutFault } from './timeout.ts';
import { toolRaisedFault } from './toolRaised.ts';
import { truncateFault } from './truncate.ts';
import type { FaultDef } from './types.ts';

export const FAULT_REGISTRY = {
  tool_raised: toolRaisedFault,
  timeout: timeoutFault,
  cancel: cancelFault,
  retry: retryFault,
  truncate: truncateFault,
  drop: dropFault,
} as const;

/** A fault's id: a key of the registry. */
export type FaultKind = keyof typeof FAULT_REGISTRY;

type SpecOf<D> = D extends FaultDef<infer S> ? S : never;

/** A fault and its target, as its own file's schema says (`{ kind, pairKey | messageIndex | count }`). */
export type FaultSpec = { [K in FaultKind]: SpecOf<(typeof FAULT_REGISTRY)[K]> }[FaultKind];

/** Every fault id, in registry order (the menus' order). */
export const FAULT_KINDS = Object.keys(FAULT_REGISTRY) as readonly FaultKind[];

/** The definition of a fault kind (typed over any spec: callers pass the spec of that kind). */
export function faultDef(kind: FaultKind): FaultDef<FaultSpec> {
  return FAULT_REGISTRY[kind] as unknown as FaultDef<FaultSpec>;
}

/** How menus and the CLI name each fault. */
export const FAULT_LABELS = Object.fromEntries(
  FAULT_KINDS.map((k) => [k, FAULT_REGISTRY[k].label]),
) as Readonly<Record<FaultKind, string>>;

/** Every fault's link schema (for `permalink/schema.ts`'s discriminated union). */
export const FAULT_SCHEMAS = FAULT_KINDS.map((k) => FAULT_REGISTRY[k].schema) as unknown as [
  z.ZodType<FaultSpec>,
  ...z.ZodType<FaultSpec>[],
];
