/**
 * What a rewriting policy's edit frees: the token table's per-block counts, not a share of the
 * message's count by characters (a redacted copy keeps each block's count but not its length,
 * so a character share gave the copy other figures than the original).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { assistant, call, result, text, thinking, transcript, user } from '../testing/index.ts';
import { countTokens, loadBpeCounter, MESSAGE_OVERHEAD, type TextCounter } from '../tokens.ts';
import { countTokensCached, TokenCache } from '../tokenCache.ts';
import { prepareEviction, simulatePolicy } from './policies.ts';
import {
  blockTokens,
  CLEARED_PLACEHOLDER,
  CLEARED_PLACEHOLDER_TOKENS,
  editedMessages,
  isClearedResult,
} from './rewrite.ts';

let o200k: TextCounter;
beforeAll(async () => {
  o200k = await loadBpeCounter('o200k_base');
});

// Blocks whose characters and tokens differ in proportion: digits and a long word of prose.
const t = transcript('anthropic-messages', [
  user('Find the invoice.'),
  assistant(
    thinking('1234567890'.repeat(40)),
    text('Searching.'),
    call('A', 'search', { q: 'invoice' }),
  ),
  user(result('A', 'the quick brown fox '.repeat(50))),
  assistant(thinking('ok'), call('B', 'search', { q: 'total' })),
  user(result('B', 'x')),
  assistant('Found it.'),
  user('Now total it.'),
]);

describe('a rewriting policy frees what the count says a block costs', () => {
  it('the placeholder is CLEARED_PLACEHOLDER_TOKENS tokens with o200k', () => {
    expect(o200k.count(CLEARED_PLACEHOLDER)).toBe(CLEARED_PLACEHOLDER_TOKENS);
  });

  it('the table counts every block; a message is its blocks plus the framing', () => {
    for (const table of [
      countTokens(t, 'anthropic', o200k),
      countTokensCached(t, 'anthropic', o200k, new TokenCache()),
    ]) {
      const ctx = prepareEviction(t, table, 'anthropic');
      for (const m of t.messages) {
        let sum = MESSAGE_OVERHEAD;
        for (let i = 0; i < m.blocks.length; i++) sum += blockTokens(ctx, m, i);
        expect(sum, `message ${m.index}`).toBe(table.perMessage[m.index]);
      }
    }
  });

  it('ai-sdk-prune frees the removed blocks’ counts; clear-tool-results the result’s less the placeholder’s', () => {
    const table = countTokens(t, 'anthropic', o200k);
    const ctx = prepareEviction(t, table, 'anthropic');
    const per = table.blocks;
    if (!per) throw new Error('no per-block counts');
    const at = (m: number, b: number) => per.tokens[(per.start[m] as number) + b] as number;
    // pruneMessages removes reasoning and the tool parts outside the last two messages.
    const pruned = simulatePolicy(ctx, 'ai-sdk-prune', 1);
    const removed = pruned.edits ?? [];
    expect(removed.map((e) => [e.index, e.block])).toEqual([
      [1, 0],
      [1, 2],
    ]);
    for (const e of removed) expect(e.tokens).toBe(at(e.index, e.block));
    // The newest tool use keeps its result; A's is cleared.
    const cleared = simulatePolicy(ctx, 'clear-tool-results', 1, { keepToolUses: 1 });
    expect(cleared.edits).toEqual([
      { index: 2, block: 0, kind: 'cleared', tokens: at(2, 0) - CLEARED_PLACEHOLDER_TOKENS },
    ]);
    expect(cleared.tokensKept).toBe(table.total - at(2, 0) + CLEARED_PLACEHOLDER_TOKENS);
  });

  it('a reply counted from its usage figure falls back to its share by characters', () => {
    const withUsage = transcript('anthropic-messages', [
      user('Find the invoice.'),
      {
        ...assistant(thinking('a'.repeat(300)), text('b'.repeat(100))),
        meta: { usageOutputTokens: 43 },
      },
      user('Again.'),
    ]);
    const table = countTokensCached(withUsage, 'anthropic', o200k, new TokenCache(), {
      preferUsage: true,
    });
    expect(table.perMessage[1]).toBe(43 + MESSAGE_OVERHEAD);
    const ctx = prepareEviction(withUsage, table, 'anthropic');
    const reply = withUsage.messages[1] as (typeof withUsage.messages)[number];
    expect([blockTokens(ctx, reply, 0), blockTokens(ctx, reply, 1)]).toEqual([
      Math.round((46 * 300) / 400),
      Math.round((46 * 100) / 400),
    ]);
  });

  it('in a format whose results are objects (Gemini) the placeholder is such an object, and counts as cleared', () => {
    const step = {
      edits: [
        { index: 2, block: 0, kind: 'cleared' as const, tokens: 1 },
        { index: 4, block: 0, kind: 'cleared' as const, tokens: 1 },
      ],
      evicted: [],
    };
    const failed = t.messages.map((m) =>
      m.index === 4 ? { ...m, blocks: [result('B', 'x', true)] } : m,
    );
    const contentOf = (ms: typeof t.messages, i: number) => {
      const b = ms.find((m) => m.index === i)?.blocks[0];
      return b?.type === 'tool_result' ? b.content : null;
    };
    const gemini = editedMessages(failed, step, 'gemini');
    expect(contentOf(gemini, 2)).toEqual([{ type: 'text', text: '{"output":"[cleared]"}' }]);
    expect(contentOf(gemini, 4)).toEqual([{ type: 'text', text: '{"error":"[cleared]"}' }]);
    const anthropic = editedMessages(failed, step, 'anthropic-messages');
    expect(contentOf(anthropic, 2)).toEqual([{ type: 'text', text: CLEARED_PLACEHOLDER }]);
    for (const ms of [gemini, anthropic])
      for (const i of [2, 4])
        expect(isClearedResult(ms.find((m) => m.index === i)?.blocks[0] ?? text(''))).toBe(true);
  });
});
