/**
 * The cut engine's message tables read from the messages' shapes (issue 38: one walk over the
 * blocks instead of one per table) equal the tables made from the message objects
 * (testing/cutTables.reference.ts), and so do the fast path's choice and the detached server
 * result it rests on; server fields at their edges included (a result whose server kind is the
 * empty string, a call whose `server` is false).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { referenceStartTables, referenceToolTables } from '../testing/cutTables.reference.ts';
import {
  arbAnyTranscript,
  arbTranscript,
  arbValidTranscript,
  assistant,
  msg,
  text,
  transcript,
  user,
} from '../testing/index.ts';
import type { Block, ProviderId, Transcript } from '../types.ts';
import { sentMessages, validateTranscript } from '../validate/index.ts';
import { cutModel, merges, prepareCuts } from './cutTables.ts';
import { messageShapes } from './shapes.ts';
import { hasDetachedServerResultOf } from './spansCuts.ts';
import { hasDetachedServerResult, spansCuts } from '../testing/spansCuts.reference.ts';

const PROVIDERS: ProviderId[] = ['anthropic', 'openai-chat', 'openai-responses', 'gemini'];

/** Some server fields at their edges: `server: ''` on a result, `server: false` on a call. */
function withEdges(t: Transcript, seed: number): Transcript {
  let k = seed;
  const edge = (b: Block): Block => {
    k++;
    if (k % 3 !== 0) return b;
    if (b.type === 'tool_result') return { ...b, server: '' };
    if (b.type === 'tool_use') return { ...b, server: false };
    return b;
  };
  return { ...t, messages: t.messages.map((m) => ({ ...m, blocks: m.blocks.map(edge) })) };
}

const arbAny = fc
  .tuple(
    fc.oneof(
      arbValidTranscript('anthropic-messages'),
      arbTranscript('anthropic-messages'),
      arbAnyTranscript('anthropic-messages'),
      arbAnyTranscript('openai-chat'),
    ),
    fc.nat(5),
    fc.boolean(),
  )
  .map(([t, seed, edges]) => (edges ? withEdges(t, seed) : t));

describe("the cut engine's tables from the messages' shapes", () => {
  it('equal the tables made from the message objects, for every provider', () => {
    fc.assert(
      fc.property(arbAny, fc.constantFrom(...PROVIDERS), (t, provider) => {
        const ms = t.messages;
        const full = validateTranscript(t, provider);
        const ctx = prepareCuts(t, provider, {}, full);
        // The fast path as it was chosen: a cut model, indexed messages, nothing request-wide,
        // the messages sent as they are.
        const indexed = ms.every((m, i) => m.index === i);
        const fast =
          cutModel(provider) !== undefined &&
          indexed &&
          !spansCuts(full, merges(provider), ms) &&
          sentMessages(t, ms, provider) === ms;
        expect(ctx.fast).toBe(fast);
        expect(hasDetachedServerResultOf(messageShapes(ctx))).toBe(hasDetachedServerResult(ms));
        const fx = ctx.fx;
        if (!fx) return;
        const tools = referenceToolTables(ms);
        expect(fx.nextTool).toEqual(tools.nextTool);
        expect(fx.nextToolNP).toEqual(tools.nextToolNP);
        const st = referenceStartTables(ms, provider);
        expect(fx.cache.start).toEqual(st.start);
        expect(fx.cache.emptyBefore).toEqual(st.emptyBefore);
      }),
      { numRuns: 500 },
    );
  });

  it('a user message holding only a server result, or one with the empty server kind, starts a window as the objects say', () => {
    const server = (id: string, kind: string): Block => ({
      type: 'tool_result',
      toolUseId: id,
      isError: false,
      content: [],
      server: kind,
    });
    const t = transcript('anthropic-messages', [
      user('Search.'),
      assistant(text('Searching.'), {
        type: 'tool_use',
        id: 's1',
        name: 'web_search',
        input: {},
        server: true,
      }),
      msg('user', [server('s1', 'web_search_tool_result')]),
      assistant('Found.'),
      msg('user', [server('s2', '')]),
      assistant('Again.'),
      user(text('  '), text('more')),
      assistant('Done.'),
      user('Thanks.'),
    ]);
    for (const provider of PROVIDERS) {
      const ctx = prepareCuts(t, provider);
      const st = referenceStartTables(t.messages, provider);
      if (!ctx.fx) continue;
      expect(Array.from(ctx.fx.cache.start), provider).toEqual(Array.from(st.start));
    }
    expect(prepareCuts(t, 'anthropic').fx).not.toBeNull();
  });
});
