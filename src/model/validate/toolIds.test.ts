/**
 * Tool ids a provider's schema refuses (A18, B10, M4, O10, R8; rules/toolIds.ts): where each is
 * met, what the fast cut engine and the repair make of them, and the id a repair picks.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { prepareCuts } from '../evict/cutTables.ts';
import { expectCutAgrees } from '../testing/evict.ts';
import { repairTranscript } from '../repair.ts';
import {
  arbValidTranscript,
  assistant,
  call,
  result,
  text,
  tool,
  transcript,
  user,
} from '../testing/index.ts';
import type { Block, Message, ProviderId, Transcript } from '../types.ts';
import { validateTranscript } from './index.ts';
import { ID_SHAPES, fittingId, idFault, idShapeOf, isWordId } from './rules/toolIds.ts';

const LONG = 'fc_0f0e50a1476a6c35006912c58dc9f8819192c25864eb16f07f'; // 53: Responses → Chat
const codes = (t: Transcript, p: ProviderId) =>
  validateTranscript(t, p).violations.map((v) => v.code);

/** Rename tool ids (calls and results) of a transcript by a map. */
function renameIds(t: Transcript, to: (id: string) => string): Transcript {
  const block = (b: Block): Block =>
    b.type === 'tool_use' && b.id !== null
      ? { ...b, id: to(b.id) }
      : b.type === 'tool_result' && b.toolUseId !== null
        ? { ...b, toolUseId: to(b.toolUseId) }
        : b;
  return {
    ...t,
    messages: t.messages.map((m): Message => ({ ...m, blocks: m.blocks.map(block) })),
  };
}

describe('where a refused id is met', () => {
  it('Anthropic A18 comes before every other check (a schema error), call and result alike', () => {
    // An unanswered call early (A2) and a foreign id later: the foreign id is the 400.
    const t = transcript('anthropic-messages', [
      user('q'),
      assistant(call('toolu_1')),
      user('never mind'),
      assistant(call('functions.Bash:0')),
      user(result('functions.Bash:0')),
    ]);
    const v = validateTranscript(t, 'anthropic').violations;
    expect(v.map((x) => x.code)).toEqual(['A18', 'A18', 'A2']);
    expect(v[0]).toMatchObject({ index: 3, providerPath: 'messages.3.content.0.tool_use.id' });
    expect(v[1]).toMatchObject({
      index: 4,
      message:
        "messages.4.content.0.tool_result.tool_use_id: String should match pattern '^[a-zA-Z0-9_-]+$'",
    });
  });

  it('ids that fit are not reported; an empty id is (the pattern needs one character)', () => {
    const ok = transcript('anthropic-messages', [
      user('q'),
      assistant(call('toolu_01A-b_9')),
      user(result('toolu_01A-b_9')),
    ]);
    expect(validateTranscript(ok, 'anthropic').valid).toBe(true);
    expect(idFault(idShapeOf('anthropic'), '')).toEqual({ pattern: true, long: false });
  });

  it('OpenAI O10 names the call and the length; DeepSeek and Qwen (no known limit) do not', () => {
    const t = transcript('openai-chat', [user('q'), assistant(call(LONG)), tool(LONG)]);
    const v = validateTranscript(t, 'openai-chat').violations;
    expect(v).toHaveLength(1);
    expect(v[0]).toMatchObject({
      code: 'O10',
      providerPath: 'messages[1].tool_calls[0].id',
      error: { error: { param: 'messages[1].tool_calls[0].id', code: 'string_above_max_length' } },
    });
    expect(validateTranscript(t, 'deepseek').valid).toBe(true);
    expect(validateTranscript(t, 'qwen').valid).toBe(true);
    // Exactly 40 characters is accepted.
    const forty = 'x'.repeat(40);
    expect(
      validateTranscript(
        transcript('openai-chat', [user('q'), assistant(call(forty)), tool(forty)]),
        'openai-chat',
      ).valid,
    ).toBe(true);
  });

  it('Responses R8 is met before the pairing checks, on calls and outputs', () => {
    const id = 'x'.repeat(65);
    const t = transcript('openai-chat', [user('q'), assistant(call(id)), tool(id), tool('stray')]);
    const v = validateTranscript(t, 'openai-responses').violations;
    expect(v.map((x) => x.code)).toEqual(['R8', 'R8', 'R1']);
    expect(v[0]?.providerPath).toBe('input[1].call_id');
  });

  it('Bedrock B10: pattern, length or both; for Claude, no second report of the same id as A18', () => {
    const both = 'a.'.repeat(40);
    const t = transcript('anthropic-messages', [
      user('q'),
      assistant(call(both)),
      user(result(both)),
    ]);
    const v = validateTranscript(t, 'bedrock').violations;
    expect(v.map((x) => x.code)).toEqual(['B10', 'B10']);
    expect(v[0]?.message).toMatch(
      /^2 validation errors detected: .*pattern.*; .*less than or equal to 64$/,
    );
    const claude = { ...t, settings: { ...t.settings, model: 'anthropic.claude-sonnet-4-5' } };
    expect(codes(claude, 'bedrock').filter((c) => c === 'A18')).toEqual([]);
  });
});

describe('the fast cut engine and the repair', () => {
  for (const [format, provider] of [
    ['anthropic-messages', 'anthropic'],
    ['openai-chat', 'openai-chat'],
  ] as const) {
    it(`${provider}: every cut of a transcript with refused ids agrees with validating the kept messages`, () => {
      fc.assert(
        fc.property(
          arbValidTranscript(format),
          fc.array(fc.constantFrom('keep', 'dots', 'long'), { minLength: 1, maxLength: 5 }),
          (valid, styles) => {
            let n = 0;
            const t = renameIds(valid, (id) => {
              const style = styles[n++ % styles.length];
              return style === 'dots'
                ? `mcp.${id}:0`
                : style === 'long'
                  ? `${id}_${'y'.repeat(40)}`
                  : id;
            });
            const ctx = prepareCuts(t, provider);
            for (let k = 0; k <= t.messages.length; k++) expectCutAgrees(ctx, t, provider, k);
          },
        ),
        { numRuns: 150 },
      );
    }, 60_000);
  }

  it('the repair renames a refused id in the call and its results, for every provider with a shape', () => {
    const ids = ['functions.Bash:0', LONG, 'call_0fypS1hVX', 'x'.repeat(70)];
    for (const provider of Object.keys(ID_SHAPES) as ProviderId[]) {
      const t = transcript('anthropic-messages', [
        user('q'),
        assistant(text('Running them.'), ...ids.map((id) => call(id))),
        user(...ids.map((id) => result(id, 'ok'))),
        assistant('Done.'),
        user('Thanks.'),
      ]);
      const r = repairTranscript(t, provider);
      expect(codes(r.transcript, provider), provider).not.toContain(
        {
          anthropic: 'A18',
          bedrock: 'B10',
          'openai-chat': 'O10',
          'openai-responses': 'R8',
          mistral: 'M4',
        }[provider as string],
      );
      expect(
        r.changes.every((c) => c.kind === 'tool_id_renamed'),
        provider,
      ).toBe(true);
      // Said once per message: the call's message renames, the results' message follows.
      expect(r.changes.filter((c) => c.note.includes('in the call')).length, provider).toBe(
        r.changes.filter((c) => c.note.startsWith('The result of')).length,
      );
      // Calls and results renamed together: every pair still pairs.
      const calls = r.transcript.messages.flatMap((m) =>
        m.blocks.flatMap((b) => (b.type === 'tool_use' ? [b.id] : [])),
      );
      const answers = r.transcript.messages.flatMap((m) =>
        m.blocks.flatMap((b) => (b.type === 'tool_result' ? [b.toolUseId] : [])),
      );
      expect(answers, provider).toEqual(calls);
    }
  });
});

describe('fittingId', () => {
  it('fits the shape, keeps an id that fits, and never takes an id in use', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...(Object.keys(ID_SHAPES) as ProviderId[])),
        fc.string({ minLength: 0, maxLength: 90 }),
        fc.array(fc.string({ maxLength: 12 }), { maxLength: 5 }),
        (provider, id, used) => {
          const shape = idShapeOf(provider);
          const taken = new Set(used);
          const x = fittingId(shape, id, (s) => taken.has(s));
          expect(idFault(shape, x)).toBeNull();
          if (idFault(shape, id) === null) expect(x).toBe(id);
          else expect(taken.has(x)).toBe(false);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('two long ids with one start get different ids', () => {
    const shape = idShapeOf('openai-chat');
    const a = fittingId(shape, `${'p'.repeat(45)}1`, () => false);
    const b = fittingId(shape, `${'p'.repeat(45)}2`, () => false);
    expect(a).not.toBe(b);
    expect(a).toHaveLength(40);
  });
});

describe('isWordId', () => {
  it('answers as /^[a-zA-Z0-9_-]+$/ does, for any string', () => {
    const word = /^[a-zA-Z0-9_-]+$/;
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary' }),
          fc.stringMatching(/^[a-zA-Z0-9_-]{0,12}$/),
          fc.stringMatching(/^[a-zA-Z0-9_.:/-]{0,12}$/),
        ),
        (id) => {
          expect(isWordId(id)).toBe(word.test(id));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
