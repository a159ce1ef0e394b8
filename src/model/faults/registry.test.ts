/**
 * The fault registry is the one list of faults: kinds, labels, link codes and schemas come from
 * its entries, and every target a fault offers travels through a link and back unchanged.
 */
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { faultTargets } from '../faults.ts';
import { INVOICE_ANTHROPIC, load } from '../testing/faults.fixtures.ts';
import { decodeFaults, encodeFaults } from '../permalink/faults.ts';
import { FAULT_KINDS, FAULT_LABELS, FAULT_REGISTRY, faultDef } from './registry.ts';

describe('the fault registry', () => {
  it('gives each fault one link code and a label', () => {
    const codes = FAULT_KINDS.map((k) => FAULT_REGISTRY[k].code);
    expect(new Set(codes).size).toBe(FAULT_KINDS.length);
    for (const c of codes) expect(c).toMatch(/^[a-z]$/);
    for (const k of FAULT_KINDS) expect(FAULT_LABELS[k]).toBe(faultDef(k).label);
  });

  it('files each fault under its own kind (the key is the kind its schema reads)', () => {
    for (const k of FAULT_KINDS) {
      const shape = (FAULT_REGISTRY[k].schema as unknown as z.ZodObject).shape;
      expect((shape.kind as z.ZodLiteral).value, k).toBe(k);
    }
  });

  it('every target a fault offers survives a link, alone and all together', () => {
    const t = load(INVOICE_ANTHROPIC);
    const targets = faultTargets(t);
    const kinds = new Set(targets.map((s) => s.kind));
    for (const k of FAULT_KINDS) if (k !== 'drop') expect(kinds.has(k), k).toBe(true);
    for (const s of targets) expect(decodeFaults(encodeFaults([s]) as string)).toEqual([s]);
    const extra = [
      { kind: 'drop' as const, messageIndex: 2 },
      { kind: 'cancel' as const, messageIndex: 1, userText: 'Stop — ça suffit.' },
    ];
    expect(decodeFaults(encodeFaults([...targets, ...extra]) as string)).toEqual([
      ...targets,
      ...extra,
    ]);
  });

  it('each target it offers fits (applies without an error)', () => {
    const t = load(INVOICE_ANTHROPIC);
    for (const s of faultTargets(t)) expect(faultDef(s.kind).apply(t, s).ok, s.kind).toBe(true);
  });

  it('a link item of no registered code, or of a wrong target, is refused whole', () => {
    expect(decodeFaults('1:zp3')).toBeNull();
    expect(decodeFaults('1:t5')).toBeNull();
    expect(decodeFaults('1:c5.***')).toBeNull();
    expect(decodeFaults('1:n0')).toBeNull();
  });
});
