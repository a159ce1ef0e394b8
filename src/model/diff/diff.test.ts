import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseTranscript } from '../parse/index.ts';
import { assistant, call, renumber, result, transcript, user, text } from '../testing/index.ts';
import type { Message, Transcript } from '../types.ts';
import { diffTranscripts } from './diff.ts';
import { messageRanges } from './summary.ts';
import { countTokens } from '../tokens.ts';
import { prepareEviction, simulatePolicy } from '../evict/policies.ts';
import { keptTranscript } from '../exportSummary.ts';

/** user → assistant(call) → user(result) → assistant, `n` times. */
function conversation(n: number): Transcript {
  const out: Message[] = [];
  for (let x = 0; x < n; x++) {
    out.push(user(`Question ${x}`));
    out.push(assistant(text('Let me look.'), call(`toolu_${x}`, 'read', { x })));
    out.push(user(result(`toolu_${x}`, `result ${x}`)));
    out.push(assistant(`Answer ${x}`));
  }
  return transcript('anthropic-messages', out);
}

const changes = (t: ReturnType<typeof diffTranscripts>) => t.rows.map((r) => r.change);

describe('diffTranscripts', () => {
  it('labels a transcript against itself all kept, cache prefix whole', () => {
    const t = conversation(3);
    const d = diffTranscripts(t, t);
    expect(changes(d).every((c) => c === 'kept')).toBe(true);
    expect(d.rows).toHaveLength(12);
    expect(d.cachePrefix.messages).toBe(12);
    expect(d.broken).toEqual([]);
    expect(d.summary).toMatch(/is the same as/);
  });

  it('labels a cut: dropped messages, the orphaned result broken with A1', () => {
    const t = conversation(3);
    // Drop messages 0–5: the exchange of toolu_1 loses its call, its result is orphaned.
    const cut = renumber(t, t.messages.slice(6));
    const d = diffTranscripts(t, cut, { rightRequest: 14 });
    expect(d.rows.filter((r) => r.change === 'dropped').map((r) => r.left)).toEqual([
      0, 1, 2, 3, 4, 5,
    ]);
    expect(d.rows.filter((r) => r.change === 'kept')).toHaveLength(6);
    expect(d.right.valid).toBe(false);
    expect(d.broken.map((b) => [b.id, b.rule, b.code, b.messageIndex])).toEqual([
      ['toolu_1', 'orphan_tool_result', 'A1', 0],
    ]);
    expect(d.cachePrefix).toEqual({ messages: 0, tokens: 0 });
    expect(d.summary).toMatch(/^Request 14 dropped messages 0–5 \(1 exchange, [\d,]+ tokens\)/);
    expect(d.summary).toMatch(
      /split the exchange at #6: its tool_result is orphaned → .* 400 \(A1\)/,
    );
  });

  it('labels an append as inserted, with the cache prefix the whole left side', () => {
    const t = conversation(2);
    const more = conversation(3);
    const d = diffTranscripts(t, more);
    expect(changes(d).filter((c) => c === 'inserted')).toHaveLength(4);
    expect(d.cachePrefix.messages).toBe(8);
    expect(d.cachePrefix.tokens).toBeGreaterThan(0);
  });

  it('labels a cleared tool result rewritten (same tool id, other content)', () => {
    const t = conversation(2);
    const cleared = t.messages.map((m, i) =>
      i === 2 ? { ...m, blocks: [result('toolu_0', '[cleared]')] } : m,
    );
    const d = diffTranscripts(t, renumber(t, cleared));
    expect(d.rows.find((r) => r.left === 2)?.change).toBe('rewritten');
    expect(d.cachePrefix.messages).toBe(2);
  });

  it('labels two user messages joined into one as merged', () => {
    const left = transcript('anthropic-messages', [user('a'), user('b'), assistant('c')]);
    const right = transcript('anthropic-messages', [
      { ...user('a'), blocks: [text('a'), text('b')] },
      assistant('c'),
    ]);
    const d = diffTranscripts(left, right);
    expect(d.rows.map((r) => [r.change, r.left, r.right])).toEqual([
      ['merged', 0, 0],
      ['merged', 1, 0],
      ['kept', 2, 1],
    ]);
  });

  it('labels a summary standing for dropped messages rewritten, with what it replaces', () => {
    const t = conversation(2);
    const summary: Message = {
      ...user('[Summary of the earlier conversation, 40 tokens]'),
      rawIndex: -1,
    };
    const right = renumber(t, [summary, ...t.messages.slice(4)]);
    right.messages[0] = { ...(right.messages[0] as Message), rawIndex: -1 };
    const d = diffTranscripts(t, right);
    const row = d.rows.find((r) => r.right === 0);
    expect(row).toMatchObject({ change: 'rewritten', left: null, replaces: [0, 4] });
    expect(d.summary).toMatch(/replaced messages 0–3 .* with a summary/);
  });

  it('labels a moved message reordered', () => {
    const a = transcript('anthropic-messages', [user('x'), assistant('y'), user('z')]);
    const b = transcript('anthropic-messages', [user('z'), user('x'), assistant('y')]);
    const d = diffTranscripts(a, b);
    expect(d.rows.map((r) => [r.change, r.left, r.right])).toEqual([
      ['reordered', 2, 0],
      ['kept', 0, 1],
      ['kept', 1, 2],
    ]);
    expect(d.summary).toMatch(/moved 1 message/);
  });

  it('says when two formats are compared through the model', () => {
    const t = conversation(1);
    const other = { ...t, format: 'openai-chat' as const };
    const d = diffTranscripts(t, other, { provider: 'anthropic' });
    expect(d.notes[0]).toMatch(/compared through the model/);
    expect(d.summary).toMatch(/compared through the model/);
  });
});

describe("the summary's verdict against the left's", () => {
  // Newcomer: a repaired right side said "it is still valid" beside an invalid left.
  it('says still valid, now valid, now invalid or invalid as before', () => {
    const ok = conversation(2);
    const open = renumber(ok, [...ok.messages.slice(0, 6), user('And now?')]);
    const openMore = renumber(ok, [...open.messages, assistant('Checking.'), user('Well?')]);
    const okMore = renumber(ok, [...ok.messages, user('Thanks.')]);
    expect(diffTranscripts(ok, okMore).summary).toMatch(/; it is still valid\.$/);
    expect(diffTranscripts(open, okMore).summary).toMatch(
      /; it is now valid \(the left was invalid: A2\)\.$/,
    );
    expect(diffTranscripts(open, okMore).summary).not.toMatch(/still valid/);
    expect(diffTranscripts(open, openMore).summary).toMatch(/; it is invalid as before \(A2\)\.$/);
    expect(diffTranscripts(open, open).summary).toMatch(/; both are invalid \(A2\)\.$/);
  });
});

describe('large gaps', () => {
  it('labels a gap of 200,000 messages (rows are not spread as arguments)', () => {
    const many = Array.from({ length: 200_000 }, (_, i) =>
      i % 2 === 0 ? user(`q${i}`) : assistant(`a${i}`),
    );
    const d = diffTranscripts(
      transcript('anthropic-messages', [user('start')]),
      transcript('anthropic-messages', many),
    );
    expect(d.rows).toHaveLength(200_001);
    expect(d.counts.inserted + d.counts.rewritten).toBe(200_000);
  });
});

describe("two policies' cuts at one budget", () => {
  it('diffs the kept requests of two policies (one source: matched by identity)', () => {
    const t = { ...conversation(6), raw: { messages: [] } };
    const table = countTokens(t, 'anthropic');
    const ctx = prepareEviction(t, table, 'anthropic');
    const budget = Math.floor(table.total * 0.5);
    const message = keptTranscript(t, simulatePolicy(ctx, 'message', budget));
    const summary = keptTranscript(t, simulatePolicy(ctx, 'summary', budget));
    const full = diffTranscripts(t, summary);
    const row = full.rows.find((r) => r.left === null && r.change === 'rewritten');
    const dropped = full.rows.filter((r) => r.change === 'dropped').map((r) => r.left as number);
    expect(dropped.length).toBeGreaterThan(0);
    expect(row?.replaces).toEqual([dropped[0], dropped[dropped.length - 1]! + 1]);
    expect(full.summary).toMatch(/ with a summary/);
    const d = diffTranscripts(message, summary);
    expect(d.rows.filter((r) => r.change === 'kept').length).toBeGreaterThan(0);
    expect(d.rows.every((r) => r.change !== 'reordered')).toBe(true);
  });

  it("names the messages a cut dropped as the rows label them (the timeline's numbers), not by their place in the left cut", () => {
    // The page's coding-agent sample at 1,000 tokens (newcomer: "dropped messages 0–3" above
    // rows #10–#13).
    const parsed = parseTranscript(readFileSync('public/samples/coding-agent.json', 'utf8'));
    if (!parsed.ok) throw new Error(parsed.error.message);
    const t = parsed.value.transcript;
    const table = countTokens(t, 'anthropic');
    const ctx = prepareEviction(t, table, 'anthropic');
    const budget = 1000;
    const message = keptTranscript(t, simulatePolicy(ctx, 'message', budget));
    const exchange = keptTranscript(t, simulatePolicy(ctx, 'exchange', budget));
    const d = diffTranscripts(message, exchange, { sameSource: true });
    const dropped = d.rows.filter((r) => r.change === 'dropped').map((r) => r.left as number);
    expect(dropped.length).toBeGreaterThan(0);
    // The left cut starts past the evicted head: its first rows are not messages 0, 1, …
    const first = message.messages[dropped[0] as number]?.rawIndex as number;
    expect(first).toBeGreaterThan(dropped[0] as number);
    const labels = dropped.map((i) => message.messages[i]?.rawIndex as number);
    const named = messageRanges(labels);
    expect(d.summary).toContain(named.replace(/^messages? /, ''));
    expect(d.summary).not.toContain(messageRanges(dropped));
  });
});
