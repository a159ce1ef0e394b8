/** What the repair tests share: faults applied strictly, and the repair contract as assertions. */
import { expect } from 'vitest';
import { applyFault, type FaultSpec } from '../faults.ts';
import { parseTranscript } from '../parse/index.ts';
import { pairToolCalls } from '../pairing.ts';
import type { RepairResult } from '../repair.ts';
import type { ProviderId, Transcript } from '../types.ts';
import { validateTranscript } from '../validate/index.ts';
import { writeTranscript } from '../write.ts';

/** Apply a fault that must fit (a test that picks one knows it does). */
export function fault(t: Transcript, spec: FaultSpec): Transcript {
  const r = applyFault(t, spec);
  if (!r.ok) throw new Error(r.error);
  return r.value.transcript;
}

/** The pair key of the call with this id. */
export function keyOf(t: Transcript, id: string): string {
  const p = pairToolCalls(t.messages).find((q) => q.id === id && q.call !== null);
  if (!p) throw new Error(`no pair ${id}`);
  return p.key;
}

/**
 * The repair contract: the result validates, every output message is either an input message
 * (same object) or a new one (raw undefined), and every input message the changes do not name
 * is still there, as the same object.
 */
export function expectRepaired(input: Transcript, r: RepairResult, provider: ProviderId): void {
  if (validateTranscript(input, provider).violations.some((v) => v.rule === 'empty_request')) {
    // A fault that truncated every message leaves an empty request (A14, O8, G8): nothing to
    // repair without inventing a message, and the repair says so.
    expect(r.unrepaired.map((u) => u.rule)).toEqual(['empty_request']);
    expect(r.unrepaired[0]?.note).toMatch(/does not invent/);
    expect(r.transcript.messages).toEqual(input.messages);
    return;
  }
  expect(r.unrepaired).toEqual([]);
  expect(validateTranscript(r.transcript, provider).valid).toBe(true);
  const inputs = new Set(input.messages);
  for (const m of r.transcript.messages) if (!inputs.has(m)) expect(m.raw).toBeUndefined();
  const touched = new Set(r.changes.flatMap((c) => c.replaced));
  const out = new Set(r.transcript.messages);
  input.messages.forEach((m, i) => {
    if (!touched.has(i))
      expect(out.has(m), `message ${i} untouched by the repair must stay`).toBe(true);
  });
}

/** Write the repaired transcript back in its format, parse it again, and validate. */
export function expectRoundTrip(r: RepairResult, provider: ProviderId): void {
  const text = writeTranscript(r.transcript);
  const back = parseTranscript(text, { format: r.transcript.format });
  expect(back.ok).toBe(true);
  if (back.ok) expect(validateTranscript(back.value.transcript, provider).valid).toBe(true);
}
