import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arbAnyTranscript, arbBlock, arbTranscript, msg, transcript } from '../testing/index.ts';
import type { Block, Message, Transcript } from '../types.ts';
import { chainValidation, ENDPOINT_IDS, validateTranscript, VALIDATORS } from './index.ts';

/** Compaction blocks (AC1–AC4) besides arbBlock's: kept, emptied. */
const arbCompaction: fc.Arbitrary<Block> = fc
  .constantFrom('summary of what came before', '')
  .map((content) => ({ type: 'other', label: 'compaction', raw: { type: 'compaction', content } }));

/**
 * A transcript's messages with compaction blocks put in at random places, as a session log or a
 * request body (A12 is skipped on a log), complete or not (A7), asking for compaction or not (AC4).
 */
const arbChainTranscript: fc.Arbitrary<Transcript> = fc
  .record({
    t: fc.oneof(arbAnyTranscript('anthropic-messages', 30), arbTranscript('anthropic-messages')),
    compactions: fc.array(fc.tuple(fc.nat(40), fc.nat(3), arbCompaction), { maxLength: 3 }),
    log: fc.boolean(),
    complete: fc.boolean(),
    compact: fc.boolean(),
  })
  .map(({ t, compactions, log, complete, compact }) => {
    const messages = t.messages.map((m) => ({ ...m, blocks: [...m.blocks] }));
    for (const [at, pos, b] of compactions) {
      const m = messages[at % Math.max(1, messages.length)];
      if (m) m.blocks.splice(pos % (m.blocks.length + 1), 0, b);
    }
    if (messages.length === 0) messages.push(msg('user', [{ type: 'text', text: 'hi' }]));
    return {
      ...t,
      format: log ? ('claude-code-jsonl' as const) : t.format,
      raw: {
        ...(complete ? { model: 'claude-sonnet-4', max_tokens: 1000 } : {}),
        ...(compact ? { context_management: { edits: [{ type: 'compact_20260112' }] } } : {}),
      },
      messages,
    };
  });

/** The requests of a chain: prefixes of the transcript's messages, each as long or longer. */
function prefixes(t: Transcript, cuts: number[]): Transcript[] {
  const n = t.messages.length;
  const ends = [...cuts.map((c) => c % (n + 1)), n].sort((a, b) => a - b);
  return ends.map((k) => ({ ...t, messages: t.messages.slice(0, k) }));
}

/** True when no tool_use id comes twice (what `analyze` tells the validator). */
function uniqueIds(messages: readonly Message[]): boolean {
  const seen = new Set<string>();
  for (const m of messages)
    for (const b of m.blocks)
      if (b.type === 'tool_use' && b.id !== null) {
        if (seen.has(b.id)) return false;
        seen.add(b.id);
      }
  return true;
}

/** Blocks for the hand-written requests below: a call, its result, a text. */
const use = (id: string): Block => ({ type: 'tool_use', id, name: 'tool', input: {} });
const result = (id: string): Block => ({
  type: 'tool_result',
  toolUseId: id,
  isError: false,
  content: [],
});
const say = (text: string): Block => ({ type: 'text', text });

describe('a chain validation equals validateTranscript of each request', () => {
  it('resumes only where a validator says it can (Anthropic and the endpoints on its API)', () => {
    const resuming = VALIDATORS.filter((v) => v.chain !== undefined).map((v) => v.id);
    expect(resuming).toContain('anthropic');
  });

  it('every endpoint: the verdict, violations and notes of every prefix of a growing chain', () => {
    fc.assert(
      fc.property(
        arbChainTranscript,
        fc.array(fc.nat(60), { maxLength: 8 }),
        fc.boolean(),
        (t, cuts, hint) => {
          const requests = prefixes(t, cuts);
          for (const id of ENDPOINT_IDS) {
            const chain = chainValidation();
            for (const r of requests) {
              const opts = hint && uniqueIds(r.messages) ? { uniqueToolUseIds: true } : undefined;
              expect(chain(r, id, opts)).toEqual(validateTranscript(r, id, opts));
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a request that does not extend the last one starts again (a compaction, a rollback, other settings)', () => {
    fc.assert(
      fc.property(
        arbChainTranscript,
        arbChainTranscript,
        fc.array(fc.nat(60), { minLength: 1, maxLength: 6 }),
        fc.array(fc.nat(60), { maxLength: 6 }),
        (a, b, cutsA, cutsB) => {
          // a's prefixes, then a shorter one of a (a rollback), a with other settings, then b's.
          const ra = prefixes(a, cutsA);
          const shorter = { ...a, messages: a.messages.slice(1) };
          const thinking = { ...a, settings: { ...a.settings, thinking: true } };
          const requests = [...ra, shorter, ...ra, thinking, ...prefixes(b, cutsB)];
          for (const id of ['anthropic', 'anthropic-bedrock', 'openai-chat'] as const) {
            const chain = chainValidation();
            for (const r of requests) expect(chain(r, id)).toEqual(validateTranscript(r, id));
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('a long chain of one message at a time (the last turns grow, merge, then settle)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.constantFrom('user', 'assistant', 'tool', 'system') as fc.Arbitrary<
              'user' | 'assistant' | 'tool' | 'system'
            >,
            fc.array(arbBlock, { maxLength: 3 }),
          ),
          { maxLength: 60 },
        ),
        fc.constantFrom<boolean | undefined>(true, false, undefined),
        (spec, thinking) => {
          const t = transcript(
            'anthropic-messages',
            spec.map(([role, blocks]) => msg(role, blocks)),
            { settings: thinking === undefined ? {} : { thinking } },
          );
          const messages = t.messages;
          const chain = chainValidation();
          for (let k = 0; k <= messages.length; k++) {
            const r = { ...t, messages: messages.slice(0, k) };
            expect(chain(r, 'anthropic')).toEqual(validateTranscript(r, 'anthropic'));
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('a server call deferred by the last turns is not kept when the next message undoes it (A4, A16)', () => {
    // With messages 0–2 the server call s1 waits for the next assistant turn (the user turn holds
    // only results); message 3 adds text to that turn, so s1 is unanswered (A4) and its later
    // result an orphan (A16), as a whole validation says.
    const t = transcript('anthropic-messages', [
      msg('user', [{ type: 'text', text: 'search' }]),
      msg('assistant', [
        { type: 'tool_use', id: 's1', name: 'web_search', input: {}, server: true },
        { type: 'tool_use', id: 't1', name: 'tool', input: {} },
      ]),
      msg('user', [{ type: 'tool_result', toolUseId: 't1', isError: false, content: [] }]),
      msg('user', [{ type: 'text', text: 'more' }]),
      msg('assistant', [
        {
          type: 'tool_result',
          toolUseId: 's1',
          isError: false,
          content: [],
          server: 'web_search_tool_result',
        },
        { type: 'text', text: 'found' },
      ]),
    ]);
    const chain = chainValidation();
    for (let k = 0; k <= t.messages.length; k++) {
      const r = { ...t, messages: t.messages.slice(0, k) };
      expect(chain(r, 'anthropic')).toEqual(validateTranscript(r, 'anthropic'));
    }
    expect(validateTranscript(t, 'anthropic').violations.map((v) => v.code)).toContain('A16');
  });

  it('a request whose messages are rewritten (copies that come and go between the same ones) starts from the first message that differs', () => {
    fc.assert(
      fc.property(
        arbChainTranscript,
        fc.array(fc.tuple(fc.nat(60), fc.array(fc.constantFrom(0, 1, 2, 3), { maxLength: 12 })), {
          minLength: 1,
          maxLength: 8,
        }),
        (t, steps) => {
          // Each message as it is (0), one of two copies made once (1: the same blocks, 2:
          // without its last block), or dropped (3), as a policy that prunes a request's history
          // writes them: a request often shares its first and last message with the one before
          // and differs between them.
          const same = t.messages.map((m) => ({ ...m }));
          const pruned = t.messages.map((m) => ({ ...m, blocks: m.blocks.slice(0, -1) }));
          const n = t.messages.length;
          const requests = steps.map(([a, pick]) => {
            const end = a % (n + 1);
            const messages: Message[] = [];
            for (let i = 0; i < end; i++) {
              const f = pick.length > 0 ? pick[i % pick.length] : 0;
              if (f === 0) messages.push(t.messages[i] as Message);
              else if (f === 1) messages.push(same[i] as Message);
              else if (f === 2) messages.push(pruned[i] as Message);
            }
            return { ...t, messages };
          });
          for (const id of ['anthropic', 'anthropic-vertex'] as const) {
            const chain = chainValidation();
            for (const r of requests) expect(chain(r, id)).toEqual(validateTranscript(r, id));
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('a rewritten request re-checks the settled turn before the first message that differs (a partial answer)', () => {
    const t = transcript('anthropic-messages', [
      msg('user', [say('go')]),
      msg('assistant', [use('t1'), use('t2')]),
      msg('user', [result('t1')]),
      msg('user', [result('t2')]),
      msg('assistant', [say('done')]),
      msg('user', [say('thanks')]),
    ]);
    // The second request answers t1 only: turn 1 (settled by the first request) is partial now.
    const second = {
      ...t,
      messages: [...t.messages.slice(0, 3), { ...t.messages[3]!, blocks: [say('no')] }],
    };
    const chain = chainValidation();
    for (const r of [t, second])
      expect(chain(r, 'anthropic')).toEqual(validateTranscript(r, 'anthropic'));
    expect(validateTranscript(second, 'anthropic').valid).toBe(false);
  });

  it('a rewritten request walks back to its open tool loop from the turns it keeps (T1)', () => {
    const think: Block = { type: 'thinking', thinking: 'hmm', signature: 's' };
    const t = transcript(
      'anthropic-messages',
      [
        msg('user', [say('go')]),
        msg('assistant', [think, use('t1')]),
        msg('user', [result('t1')]),
        msg('assistant', [use('t2')]),
        msg('user', [result('t2')]),
        msg('assistant', [say('done')]),
        msg('user', [say('next')]),
        msg('assistant', [say('ok')]),
        msg('user', [say('more')]),
      ],
      { settings: { thinking: true } },
    );
    // The second request keeps the loop of turns 1–4 open with another call: its start is turn 1.
    const second = {
      ...t,
      messages: [
        ...t.messages.slice(0, 5),
        { ...msg('assistant', [use('t3')]), index: 5, rawIndex: 5 },
        { ...msg('user', [result('t3')]), index: 6, rawIndex: 6 },
      ],
    };
    const chain = chainValidation();
    for (const r of [t, second])
      expect(chain(r, 'anthropic')).toEqual(validateTranscript(r, 'anthropic'));
  });
});
