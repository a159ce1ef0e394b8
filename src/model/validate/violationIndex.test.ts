import { isPinned } from '../exchanges.ts';
/**
 * `Violation.index` (ours) points at the message that holds the cause even where raw indices
 * repeat: a Vercel AI UIMessage or a Gemini CLI turn split into several of ours, and a retry
 * fault's copy. `messageIndex` stays the raw index (for `#N` and the CLI's JSON).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyFault, reindexForView } from '../faults.ts';
import { INVOICE_ANTHROPIC, load } from '../testing/faults.fixtures.ts';
import { parseTranscript } from '../parse/index.ts';
import { arbAnyTranscript, arbTranscript, geminiCliWrongIdSession } from '../testing/index.ts';
import type { ProviderId, Transcript } from '../types.ts';
import { validateTranscript, VALIDATORS } from './index.ts';
import type { Violation } from './types.ts';

function parsed(body: unknown): Transcript {
  const r = parseTranscript(JSON.stringify(body));
  if (!r.ok) throw new Error(r.error.message);
  return r.value.transcript;
}

/** Our own AI SDK UIMessages: one assistant UIMessage whose parts hold two steps. */
function vercelSplit(step2: unknown[]): Transcript {
  return parsed([
    { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Search the docs.' }] },
    {
      id: 'a1',
      role: 'assistant',
      parts: [
        { type: 'step-start' },
        {
          type: 'tool-search',
          toolCallId: 'c1',
          state: 'output-available',
          input: { q: 'retry' },
          output: 'found 3 pages',
        },
        ...step2,
      ],
    },
    { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'Thanks.' }] },
  ]);
}

/** Our own Gemini CLI session: the stored functionResponse names another id than its call. */
const GEMINI_CLI_WRONG_ID = geminiCliWrongIdSession({ thanks: true });

function only(vs: Violation[], rule: Violation['rule']): Violation {
  const found = vs.filter((v) => v.rule === rule);
  expect(found).toHaveLength(1);
  return found[0] as Violation;
}

describe('Violation.index with repeated raw indices', () => {
  it('vercel-ai: a doubled result in the second of two messages split from one UIMessage', () => {
    const t = parsed([
      { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Search.' }] },
      {
        id: 'a1',
        role: 'assistant',
        parts: [
          {
            type: 'tool-search',
            toolCallId: 'c1',
            state: 'output-available',
            input: {},
            output: 'r',
          },
          {
            type: 'tool-search',
            toolCallId: 'c1',
            state: 'output-available',
            input: {},
            output: 'r',
          },
        ],
      },
      { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'Thanks.' }] },
    ]);
    expect(t.format).toBe('vercel-ai');
    // UIMessage 1 became two of ours: the calls (1) and the tool message with the results (2).
    expect(t.messages.map((m) => [m.rawIndex, m.role])).toEqual([
      [0, 'user'],
      [1, 'assistant'],
      [1, 'tool'],
      [2, 'user'],
    ]);
    const v = only(validateTranscript(t, 'openai-chat').violations, 'duplicate_tool_result');
    expect(v).toMatchObject({ code: 'O6', messageIndex: 1, index: 2, blockIndex: 1 });
  });

  it('vercel-ai: a replayed call id in the second step of one UIMessage (A6) points at that step', () => {
    const t = vercelSplit([
      { type: 'step-start' },
      {
        type: 'tool-search',
        toolCallId: 'c1',
        state: 'output-available',
        input: { q: 'retry again' },
        output: 'found 3 pages',
      },
    ]);
    expect(t.messages.map((m) => m.rawIndex)).toEqual([0, 1, 1, 1, 1, 2]);
    const v = only(validateTranscript(t).violations, 'duplicate_tool_use_id');
    expect(v).toMatchObject({ code: 'A6', severity: 'error', messageIndex: 1, index: 3 });
    expect(t.messages[v.index]?.blocks[0]).toMatchObject({ type: 'tool_use', id: 'c1' });
  });

  it('gemini-cli: the stored results (second of ours from one turn) hold the orphan', () => {
    const t = parsed(GEMINI_CLI_WRONG_ID);
    expect(t.format).toBe('gemini-cli');
    expect(t.messages.map((m) => [m.rawIndex, m.role])).toEqual([
      [0, 'user'],
      [1, 'assistant'],
      [1, 'user'],
      [2, 'assistant'],
      [3, 'user'],
    ]);
    const a = validateTranscript(t, 'anthropic').violations;
    expect(only(a, 'unanswered_tool_use')).toMatchObject({ messageIndex: 1, index: 1 });
    expect(only(a, 'orphan_tool_result')).toMatchObject({ code: 'A1', messageIndex: 1, index: 2 });
    const g = validateTranscript(t, 'gemini').violations;
    expect(only(g, 'tool_result_wrong_id')).toMatchObject({
      code: 'GW1',
      messageIndex: 1,
      index: 2,
    });
    const o = validateTranscript(t, 'openai-chat').violations;
    expect(only(o, 'tool_result_wrong_id')).toMatchObject({
      code: 'O3',
      messageIndex: 1,
      index: 2,
    });
  });

  it('a retry fault copy: A6 points at the copy, not at the original with the same raw index', () => {
    const t = load(INVOICE_ANTHROPIC);
    const r = applyFault(t, { kind: 'retry', messageIndex: 5 });
    if (!r.ok) throw new Error(r.error);
    const shown = reindexForView(r.value.transcript);
    expect(shown.messages[5]?.rawIndex).toBe(5);
    expect(shown.messages[6]?.rawIndex).toBe(5);
    const v = only(validateTranscript(shown, 'anthropic').violations, 'duplicate_tool_use_id');
    expect(v).toMatchObject({ messageIndex: 5, index: 6, ids: ['toolu_rem1'] });
    expect(shown.messages[v.index]?.path).toBe('retry copy of messages.5');
  });
});

const PROVIDERS: ProviderId[] = VALIDATORS.map((v) => v.id);

/** A comparable form of a violation without the raw index (which the test changes). */
function shape(v: Violation): string {
  return JSON.stringify([v.rule, v.code, v.index, v.blockIndex, v.ids, v.severity]);
}

describe('Violation.index: property over every provider', () => {
  const arbAny = fc.oneof(
    arbTranscript('anthropic-messages'),
    arbTranscript('openai-chat'),
    arbAnyTranscript('anthropic-messages'),
    arbAnyTranscript('openai-chat'),
  );

  it('names the message with its raw index, and does not depend on whether raw indices repeat', () => {
    fc.assert(
      fc.property(arbAny, fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }), (t, same) => {
        let raw = -1;
        const repeated: Transcript = {
          ...t,
          messages: t.messages.map((m, i) => {
            if (i === 0 || !same[i % same.length]) raw++;
            return { ...m, rawIndex: raw };
          }),
        };
        for (const p of PROVIDERS) {
          const a = validateTranscript(t, p).violations;
          const b = validateTranscript(repeated, p).violations;
          expect(b.map(shape).sort()).toEqual(a.map(shape).sort());
          for (const v of b) {
            if (v.index < 0) continue;
            expect(repeated.messages[v.index]?.rawIndex).toBe(v.messageIndex);
          }
        }
      }),
      { numRuns: 150 },
    );
  });

  it('for a validated subset, is the position in the full transcript of a message that was sent', () => {
    fc.assert(
      fc.property(arbAny, fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }), (t, mask) => {
        const sent = t.messages.filter((_, i) => mask[i % mask.length]);
        const sentSet = new Set(sent);
        for (const p of PROVIDERS) {
          for (const v of validateTranscript(t, p, { messages: sent }).violations) {
            if (v.rule === 'empty_request') {
              // No message holds the cause: nothing (or only a system prompt) was sent.
              expect(v.index).toBe(-1);
              expect(sent.every(isPinned)).toBe(true);
              continue;
            }
            const m = t.messages[v.index];
            expect(m !== undefined && sentSet.has(m)).toBe(true);
            expect(m?.rawIndex).toBe(v.messageIndex);
          }
        }
      }),
      { numRuns: 150 },
    );
  });
});
