import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { prepareEviction, simulatePolicy } from './evict/policies.ts';
import { applyFaults } from './faults.ts';
import {
  LESSON,
  lessonBudget,
  lessonStepIndex,
  LESSON_SAMPLES,
  type LessonStep,
} from './lesson.ts';
import { pairToolCalls } from './pairing.ts';
import { parseTranscript } from './parse/index.ts';
import { repairTranscript } from './repair.ts';
import { CHARS_PER_4, countTokens, loadBpeCounter, type TextCounter } from './tokens.ts';
import type { Transcript } from './types.ts';
import { validateTranscript } from './validate/index.ts';

const SAMPLES = path.resolve(import.meta.dirname, '../../public/samples');

function sample(id: string): Transcript {
  const index = JSON.parse(readFileSync(path.join(SAMPLES, 'index.json'), 'utf8')) as {
    id: string;
    file: string;
  }[];
  const entry = index.find((e) => e.id === id);
  if (!entry) throw new Error(`sample ${id} is not in public/samples/index.json`);
  const r = parseTranscript(readFileSync(path.join(SAMPLES, entry.file), 'utf8'), {
    name: entry.file,
  });
  if (!r.ok) throw new Error(r.error.message);
  return r.value.transcript;
}

/** The transcript a step shows: its sample with its faults applied. */
function shown(step: LessonStep): Transcript {
  const r = applyFaults(sample(step.state.sample), step.state.faults);
  if (r.error) throw new Error(`${step.id}: ${r.error}`);
  return r.transcript;
}

function step(id: string): LessonStep {
  const s = LESSON[lessonStepIndex(id)];
  if (!s) throw new Error(id);
  return s;
}

function evict(id: string, counter: TextCounter) {
  const s = step(id);
  const t = shown(s);
  const table = countTokens(t, s.state.provider, counter);
  const ctx = prepareEviction(t, table, s.state.provider);
  const budget = lessonBudget(s.state, table.total) as number;
  const [a, b] = s.state.policies;
  return { budget, a: simulatePolicy(ctx, a, budget), b: simulatePolicy(ctx, b, budget) };
}

describe('the lesson', () => {
  it('has unique ids, titles, and two or three sentences per step', () => {
    expect(new Set(LESSON.map((s) => s.id)).size).toBe(LESSON.length);
    for (const s of LESSON) {
      expect(s.title.length).toBeGreaterThan(0);
      const sentences = s.body.split(/(?<=[.!?])\s+(?=[A-Z])/).length;
      expect(sentences, s.id).toBeGreaterThanOrEqual(2);
      expect(sentences, s.id).toBeLessThanOrEqual(3);
    }
    expect(lessonStepIndex('exchange-unit')).toBe(2);
    expect(lessonStepIndex('nope')).toBe(-1);
  });

  it('uses the built-in invoice sample and a longer session', () => {
    expect(new Set(LESSON.map((s) => s.state.sample))).toEqual(
      new Set([LESSON_SAMPLES.invoice, LESSON_SAMPLES.session]),
    );
    expect(sample(LESSON_SAMPLES.invoice).messages).toHaveLength(3);
    expect(sample(LESSON_SAMPLES.session).messages.length).toBeGreaterThan(30);
  });

  it('every step applies cleanly and its selection exists', () => {
    for (const s of LESSON) {
      const t = shown(s);
      const sel = s.state.selection;
      if (sel?.kind === 'pair')
        expect(
          pairToolCalls(t.messages).some((p) => p.key === sel.key),
          s.id,
        ).toBe(true);
      if (sel?.kind === 'message') expect(t.messages[sel.index], s.id).toBeDefined();
    }
  });

  it('step one: the invoice sample is valid and p0 is search_invoices', () => {
    const t = shown(step('one-unit'));
    expect(validateTranscript(t, 'anthropic').valid).toBe(true);
    expect(pairToolCalls(t.messages)[0]).toMatchObject({
      key: 'p0',
      name: 'search_invoices',
      status: 'answered',
    });
  });

  it('step two: dropping message two gives the orphan-result 400 (A1)', () => {
    const v = validateTranscript(shown(step('drop-message-two')), 'anthropic');
    expect(v.violations[0]).toMatchObject({ rule: 'orphan_tool_result', code: 'A1', status: 400 });
  });

  for (const counter of ['chars/4', 'o200k_base'] as const) {
    describe(`eviction claims under ${counter}`, () => {
      const get = async () =>
        counter === 'chars/4' ? CHARS_PER_4 : await loadBpeCounter('o200k_base');

      it('step three: message eviction gets a 400, exchange eviction stays valid', async () => {
        const { a, b } = evict('exchange-unit', await get());
        expect([a.policy, b.policy]).toEqual(['message', 'exchange']);
        expect(a.validation.valid).toBe(false);
        expect(b.validation.valid).toBe(true);
      }, 30_000);

      it('step four: the exchange policy overshoots about twofold', async () => {
        const { b } = evict('overshoot', await get());
        expect(b.validation.valid).toBe(true);
        expect(b.overshoot).toBeGreaterThanOrEqual(1.7);
      });

      it('step five: a larger budget than step three, and message eviction still fails', async () => {
        const c = await get();
        const three = evict('exchange-unit', c);
        const five = evict('trigger-rate', c);
        expect(five.budget).toBeGreaterThan(three.budget);
        expect(five.a.validation.valid).toBe(false);
        expect(five.b.validation.valid).toBe(true);
      });
    });
  }

  it('step six: the timeout leaves get_customer unanswered (A2, partial answer)', () => {
    const t = shown(step('faults'));
    const v = validateTranscript(t, 'anthropic');
    expect(v.violations[0]).toMatchObject({ rule: 'partial_answer', code: 'A2' });
    expect(pairToolCalls(t.messages).find((p) => p.key === 'p1')).toMatchObject({
      name: 'get_customer',
      status: 'unanswered',
    });
  });

  it('step seven: the cancel in the long session leaves both parallel calls unanswered', () => {
    const t = shown(step('cancel'));
    const m = t.messages[15];
    expect(m?.role).toBe('assistant');
    expect(m?.blocks.filter((b) => b.type === 'tool_use')).toHaveLength(2);
    const v = validateTranscript(t, 'anthropic');
    expect(v.violations[0]).toMatchObject({ rule: 'unanswered_tool_use', code: 'A2' });
    expect(v.violations[0]?.ids).toHaveLength(2);
  });

  it('step eight: the repair validates, with error results first in the next message', () => {
    const s = step('repair');
    expect(s.state.repair).toBe(true);
    const r = repairTranscript(shown(s), s.state.provider);
    expect(r.validation.valid).toBe(true);
    expect(r.changes.map((c) => c.kind)).toEqual(['error_result_added', 'error_result_added']);
    const next = r.transcript.messages[16];
    expect(next?.blocks.map((b) => b.type)).toEqual(['tool_result', 'tool_result', 'text']);
  });
});
