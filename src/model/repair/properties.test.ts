import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isPinned } from '../exchanges.ts';
import { applyFault, faultTargets, type FaultSpec } from '../faults.ts';
import { repairTranscript, UNREPAIRABLE_NOTES } from '../repair.ts';
import { arbTranscript, arbValidGeminiTranscript, arbValidTranscript } from '../testing/index.ts';
import type { ProviderId } from '../types.ts';
import { validateTranscript } from '../validate/index.ts';
import { pairToolCalls } from '../pairing.ts';
import { expectRepaired, expectRoundTrip } from '../testing/repair.ts';

describe('repair properties', () => {
  for (const format of ['anthropic-messages', 'openai-chat'] as const) {
    const provider: ProviderId = format === 'anthropic-messages' ? 'anthropic' : 'openai-chat';

    it(`any fault injected into a valid ${format} transcript repairs to a valid one`, () => {
      fc.assert(
        fc.property(arbValidTranscript(format), fc.nat(), (t, pick) => {
          const targets = faultTargets(t);
          fc.pre(targets.length > 0);
          const spec = targets[pick % targets.length] as FaultSpec;
          const f = applyFault(t, spec);
          if (!f.ok) throw new Error(`faultTargets offered a fault that does not fit: ${f.error}`);
          const r = repairTranscript(f.value.transcript, provider);
          expectRepaired(f.value.transcript, r, provider);
        }),
        { numRuns: 200 },
      );
    }, 30_000);

    it(`two stacked faults on a valid ${format} transcript still repair to a valid one`, () => {
      fc.assert(
        fc.property(arbValidTranscript(format), fc.nat(), fc.nat(), (t, a, b) => {
          const t1 = faultTargets(t);
          fc.pre(t1.length > 0);
          const f1 = applyFault(t, t1[a % t1.length] as FaultSpec);
          if (!f1.ok) throw new Error(f1.error);
          const t2 = faultTargets(f1.value.transcript);
          fc.pre(t2.length > 0);
          const f2 = applyFault(f1.value.transcript, t2[b % t2.length] as FaultSpec);
          if (!f2.ok) throw new Error(f2.error);
          const r = repairTranscript(f2.value.transcript, provider);
          expectRepaired(f2.value.transcript, r, provider);
        }),
        { numRuns: 150 },
      );
    }, 30_000);

    it(`repairing an arbitrarily broken ${format} transcript (no thinking, no prefill rules in play) gives a valid one`, () => {
      fc.assert(
        fc.property(arbTranscript(format), (t) => {
          const r = repairTranscript(t, provider);
          if (t.messages.every(isPinned)) {
            // Nothing sent at all: only the empty request is left, explained (A14, O8).
            expect(r.unrepaired.map((u) => u.rule)).toEqual(
              t.messages.length === 0 || provider === 'anthropic' ? ['empty_request'] : [],
            );
            return;
          }
          if (r.transcript.messages.every(isPinned)) {
            // Nothing valid was left to keep (only orphan results, say): the empty request is
            // the one thing left, explained, not a request passed off as valid (A14, O8).
            expect(r.unrepaired.map((u) => u.rule)).toEqual(
              r.transcript.messages.length === 0 || provider === 'anthropic'
                ? ['empty_request']
                : [],
            );
            return;
          }
          expect(r.unrepaired).toEqual([]);
          expect(r.validation.valid).toBe(true);
          const inputs = new Set(t.messages);
          for (const m of r.transcript.messages) if (!inputs.has(m)) expect(m.raw).toBeUndefined();
          // Repairing again changes nothing.
          const again = repairTranscript(r.transcript, provider);
          expect(again.changes).toEqual([]);
        }),
        { numRuns: 200 },
      );
    }, 30_000);
  }
});

describe('repair properties for the other providers', () => {
  const others: ProviderId[] = ['bedrock', 'gemini', 'openai-responses', 'deepseek', 'qwen'];
  for (const provider of others) {
    it(`a fault injected into a transcript ${provider} accepts repairs to one it accepts`, () => {
      fc.assert(
        fc.property(
          fc
            .constantFrom('anthropic-messages' as const, 'openai-chat' as const)
            .chain((f) => arbValidTranscript(f)),
          fc.nat(),
          (t, pick) => {
            fc.pre(validateTranscript(t, provider).valid);
            const targets = faultTargets(t);
            fc.pre(targets.length > 0);
            const f = applyFault(t, targets[pick % targets.length] as FaultSpec);
            if (!f.ok) throw new Error(f.error);
            expectRepaired(
              f.value.transcript,
              repairTranscript(f.value.transcript, provider),
              provider,
            );
          },
        ),
        { numRuns: 100 },
      );
    }, 30_000);
  }

  it('Mistral: what stays broken is only the role order the repair will not invent a message for', () => {
    fc.assert(
      // Ids of nine letters and digits, as Mistral takes them (M4).
      fc.property(arbValidTranscript('openai-chat', { ids: 'nine' }), fc.nat(), (t, pick) => {
        fc.pre(validateTranscript(t, 'mistral').valid);
        const targets = faultTargets(t);
        fc.pre(targets.length > 0);
        const f = applyFault(t, targets[pick % targets.length] as FaultSpec);
        if (!f.ok) throw new Error(f.error);
        const r = repairTranscript(f.value.transcript, 'mistral');
        const had = new Set(
          validateTranscript(f.value.transcript, 'mistral')
            .violations.filter((v) => v.severity === 'error')
            .map((v) => v.rule),
        );
        for (const u of r.unrepaired) {
          expect(['role_order', 'trailing_assistant']).toContain(u.rule);
          // Explained; and said to be the repair's own doing exactly when the input had none.
          expect(u.note.endsWith(UNREPAIRABLE_NOTES[u.rule] ?? '?')).toBe(true);
          expect(u.madeByRepair === true).toBe(!had.has(u.rule));
          expect(u.note.startsWith('This repair made it')).toBe(!had.has(u.rule));
        }
      }),
      { numRuns: 100 },
    );
  }, 30_000);
});

describe('repair properties for Gemini bodies, calls with and without ids', () => {
  for (const ids of [false, true]) {
    it(`a fault injected into a valid Gemini body (${ids ? 'with' : 'without'} ids) repairs to one with no pairing error`, () => {
      fc.assert(
        fc.property(arbValidGeminiTranscript(ids), fc.nat(), (t, pick) => {
          expect(validateTranscript(t, 'gemini').valid).toBe(true);
          const targets = faultTargets(t);
          fc.pre(targets.length > 0);
          const spec = targets[pick % targets.length] as FaultSpec;
          const f = applyFault(t, spec);
          if (!f.ok) throw new Error(f.error);
          const r = repairTranscript(f.value.transcript, 'gemini');
          expectRepaired(f.value.transcript, r, 'gemini');
          // A replayed turn is removed, not answered with an invented error result.
          if (spec.kind === 'retry')
            expect(r.changes.map((c) => c.kind)).not.toContain('error_result_added');
          if (r.transcript.messages.length === 0) return;
          expectRoundTrip(r, 'gemini');
          // Every call the repair kept is answered right after it (by id, or by count and name).
          const open = pairToolCalls(r.transcript.messages).filter(
            (p) => p.call !== null && p.status !== 'answered',
          );
          const last = r.transcript.messages.length - 1;
          expect(open.filter((p) => p.call?.message !== last)).toEqual([]);
        }),
        { numRuns: 200 },
      );
    }, 30_000);

    it(`a call turn dropped from a valid Gemini body (${ids ? 'with' : 'without'} ids) leaves orphan responses that repair to a valid body`, () => {
      fc.assert(
        fc.property(arbValidGeminiTranscript(ids), fc.nat(), (t, pick) => {
          const turns = t.messages.flatMap((m, i) =>
            m.role === 'assistant' && m.blocks.some((b) => b.type === 'tool_use') ? [i] : [],
          );
          fc.pre(turns.length > 0);
          const messageIndex = turns[pick % turns.length] as number;
          const f = applyFault(t, { kind: 'drop', messageIndex });
          if (!f.ok) throw new Error(f.error);
          const broken = f.value.transcript;
          // The responses of the dropped turn now answer nothing (G1), as a trim leaves them.
          expect(validateTranscript(broken, 'gemini').violations.map((v) => v.rule)).toContain(
            'orphan_tool_result',
          );
          const r = repairTranscript(broken, 'gemini');
          expectRepaired(broken, r, 'gemini');
          expect(r.changes.map((c) => c.kind)).toContain('orphan_removed');
          if (r.transcript.messages.length > 0) expectRoundTrip(r, 'gemini');
        }),
        { numRuns: 200 },
      );
    }, 30_000);
  }
});
