/**
 * The violations panel and the timeline find a violation's row by `Violation.index`, not by the
 * first row with its raw index, and name it with the row's own label.
 */
import { describe, expect, it } from 'vitest';
import { faultedViewOf } from './testing/faulted.ts';
import { analyze } from '../model/analyze.ts';
import { INVOICE_ANTHROPIC, load } from '../model/testing/faults.fixtures.ts';
import { CASE_FIXTURES } from '../model/testing/cases.ts';
import { messageLabel } from '../model/messageLabels.ts';
import { parseDocument, parseTranscript } from '../model/parse/index.ts';
import { selectViolationMessages, selectViolationTargets } from './selectors.ts';

/** Our own AI SDK UIMessages: the second step of one assistant UIMessage replays call id c1. */
const VERCEL_REPLAY = [
  { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Search the docs.' }] },
  {
    id: 'a1',
    role: 'assistant',
    parts: [
      { type: 'step-start' },
      { type: 'tool-search', toolCallId: 'c1', state: 'output-available', input: {}, output: 'a' },
      { type: 'step-start' },
      { type: 'tool-search', toolCallId: 'c1', state: 'output-available', input: {}, output: 'b' },
    ],
  },
  { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'Thanks.' }] },
];

describe('selectViolationTargets', () => {
  it('a split Vercel AI UIMessage: the A6 target is the third of ours from raw 1, labelled #1.3', () => {
    const r = parseTranscript(JSON.stringify(VERCEL_REPLAY));
    if (!r.ok) throw new Error(r.error.message);
    const a = analyze(r.value.transcript);
    const target = selectViolationTargets(a).find(
      (x) => x.violation.rule === 'duplicate_tool_use_id',
    );
    expect(target).toMatchObject({ message: 3, label: '#1.3', rank: 'first' });
    expect(target?.violation.messageIndex).toBe(1);
    // The label is the row's label.
    expect(target?.label).toBe(messageLabel(a.transcript.messages, 3));
    expect(selectViolationMessages(a)).toEqual([3]);
  });

  it('a retry fault copy: the target is the copy row (#5.2), not the original (#5.1)', () => {
    const loaded = analyze(load(INVOICE_ANTHROPIC), 'anthropic');
    const view = faultedViewOf(loaded, [{ kind: 'retry', messageIndex: 5 }]);
    const targets = selectViolationTargets(view.analysis);
    const dup = targets.find((x) => x.violation.rule === 'duplicate_tool_use_id');
    expect(dup).toMatchObject({ message: 6, label: '#5.2' });
    expect(view.analysis.transcript.messages[6]?.path).toBe('retry copy of messages.5');
    expect(messageLabel(view.analysis.transcript.messages, 5)).toBe('#5.1');
    // And the description names the same rows.
    expect(view.descriptions[0]).toContain('message #5.1 twice (the copy is #5.2)');
  });

  it('a violation whose index is not a row gets no target row and no label', () => {
    const loaded = analyze(load(INVOICE_ANTHROPIC), 'anthropic');
    const v = loaded.validation;
    const fake = {
      ...loaded,
      validation: {
        ...v,
        valid: false,
        violations: [
          {
            rule: 'orphan_tool_result' as const,
            code: 'A1',
            severity: 'error' as const,
            messageIndex: 0,
            index: -1,
            blockIndex: null,
            ids: [],
            providerPath: null,
            status: 400,
            error: null,
            message: 'm',
            title: 't',
            why: 'w',
            confidence: 'V' as const,
          },
        ],
      },
    };
    expect(selectViolationTargets(fake)).toEqual([
      expect.objectContaining({ message: -1, label: null, rank: 'first' }),
    ]);
  });
});

describe('case fixtures: the first target is the first error of the verdict', () => {
  for (const c of CASE_FIXTURES)
    it(c.name, () => {
      const r = parseDocument({ kind: 'json', value: c.transcript });
      if (!r.ok) throw new Error(r.error.message);
      const first = selectViolationTargets(analyze(r.value.transcript)).find(
        (t) => t.rank === 'first',
      );
      expect(first?.violation.rule).toBe(c.expected[0]?.rule);
      expect(first?.violation.messageIndex).toBe(c.expected[0]?.messageIndex);
    });
});
