import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  arbEvent,
  codexLogOf,
  logOf,
  type Event,
  FIX_THEN_TESTS,
} from '../testing/sessionEvents.ts';
import { arbScanBudgets, scanTextReference } from '../testing/scanRows.reference.ts';
import { POLICIES } from '../evict/registry.ts';
import { scanText } from './rows.ts';

const arbBudgets = arbScanBudgets(4);

const SRC = { file: 'f.jsonl', path: 'f.jsonl', size: 1, version: '1' };
const CODEX = { file: 'r.jsonl', path: 'r.jsonl', size: 1, version: '1' };

describe("a session log's rows, made call by call over its chains", () => {
  it('equal the rows made from scratch per request (every policy, compactions, broken pairs)', () => {
    fc.assert(
      fc.property(
        fc.array(arbEvent, { minLength: 1, maxLength: 45 }),
        arbBudgets,
        (ev, budgets) => {
          const text = logOf(ev);
          const opts = { policies: POLICIES, budgets };
          expect(scanText(SRC, text, 'f.jsonl', opts)).toEqual(
            scanTextReference(SRC, text, 'f.jsonl', opts),
          );
        },
      ),
      { numRuns: 250 },
    );
  }, 300_000);

  it('the same for Codex rollouts (the Responses API: no cut model, its cuts validated whole)', () => {
    fc.assert(
      fc.property(
        fc.array(arbEvent, { minLength: 1, maxLength: 45 }),
        arbBudgets,
        (ev, budgets) => {
          const text = codexLogOf(ev);
          const opts = { policies: POLICIES, budgets };
          const rows = scanText(CODEX, text, 'r.jsonl', opts);
          expect(rows).toEqual(scanTextReference(CODEX, text, 'r.jsonl', opts));
        },
      ),
      { numRuns: 150 },
    );
  }, 300_000);

  it('a Codex rollout is read as several calls of the Responses API', () => {
    const ev: Event[] = [...FIX_THEN_TESTS];
    const rows = scanText(CODEX, codexLogOf(ev), 'r.jsonl');
    expect(rows[0]?.format).toBe('codex-jsonl');
    expect(rows[0]?.provider).toBe('openai-responses');
    expect(rows.length).toBeGreaterThan(1);
  });

  it('a compaction in the middle: the calls after it are rows of their own chain', () => {
    const ev: Event[] = [
      { kind: 'user', text: 'read the file' },
      { kind: 'use', msg: 1, id: 1 },
      { kind: 'result', id: 1, error: false },
      { kind: 'text', msg: 2, text: 'fix' },
      { kind: 'user', text: 'a longer sentence of several words' },
      { kind: 'use', msg: 3, id: 2 },
      { kind: 'compaction', trigger: 'auto' },
      { kind: 'result', id: 2, error: false },
      { kind: 'use', msg: 4, id: 3 },
      { kind: 'result', id: 3, error: true },
      { kind: 'text', msg: 5, text: 'the tests' },
    ];
    const text = logOf(ev);
    const rows = scanText(SRC, text, 'f.jsonl');
    expect(rows.map((r) => r.compactions)).toEqual([0, 0, 0, 1, 1]);
    expect(rows).toEqual(scanTextReference(SRC, text, 'f.jsonl'));
  });
});
