/**
 * `RepairKind` is derived from `REPAIR_KIND_REGISTRY` (no hand-written union): the type is exactly
 * the registry's keys and a name outside it does not type-check.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { RepairKind as ExportedRepairKind } from '../repair.ts';
import { REPAIR_KIND_REGISTRY, REPAIR_KINDS, type RepairKind } from './kinds.ts';
import type { RepairChange } from './types.ts';

describe('the repair kind registry', () => {
  it('RepairKind is the registry\u2019s keys, everywhere it is exported', () => {
    expectTypeOf<RepairKind>().toEqualTypeOf<keyof typeof REPAIR_KIND_REGISTRY>();
    expectTypeOf<ExportedRepairKind>().toEqualTypeOf<RepairKind>();
    expectTypeOf<RepairChange['kind']>().toEqualTypeOf<RepairKind>();
    // @ts-expect-error a kind not in the registry is not a RepairKind
    const unknown: RepairKind = 'everything_fixed';
    expect(REPAIR_KINDS).not.toContain(unknown);
  });

  it('lists every kind once, with its words', () => {
    expect(new Set(REPAIR_KINDS).size).toBe(REPAIR_KINDS.length);
    for (const k of REPAIR_KINDS) expect(REPAIR_KIND_REGISTRY[k].words.length).toBeGreaterThan(0);
  });
});
