/** evict, repair, groupExchanges, turnPairs: the CLI's results, written in the input's format. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/commands.ts';
import type { CliIO } from '../cli/io.ts';
import { check, evict, groupExchanges, repair, turnPairs } from './index.ts';

const samplesDir = path.resolve(import.meta.dirname, '../../public/samples');
const sampleText = (f: string) => readFileSync(path.join(samplesDir, f), 'utf8');

async function cliJson(...argv: string[]) {
  let out = '';
  const io: CliIO = {
    read: (f) => ({ text: readFileSync(f, 'utf8'), name: path.basename(f) }),
    out: (s) => void (out += s),
    err: () => undefined,
  };
  await runCli(argv, io);
  return JSON.parse(out) as Record<string, unknown>;
}

type Body = { messages: unknown[] } & Record<string, unknown>;

describe('evict', () => {
  it('gives `simulate --json` figures and writes the kept request in its own format', async () => {
    const file = path.join(samplesDir, 'coding-agent.json');
    for (const policy of ['message', 'exchange'] as const) {
      const cli = await cliJson('simulate', file, '--policy', policy, '--budget', '1500', '--json');
      const body = JSON.parse(sampleText('coding-agent.json')) as Body;
      const r = await evict(body, { policy, budget: 1500 });
      expect({
        tokensBefore: r.tokensBefore,
        tokensKept: r.tokensKept,
        fits: r.fits,
        overshoot: r.overshoot,
        kept: r.kept.map((i) => r.messages[i]?.rawIndex),
        valid: r.valid,
        firstError: r.firstError,
      }).toEqual({
        tokensBefore: cli.tokensBefore,
        tokensKept: cli.tokensKept,
        fits: cli.fits,
        overshoot: cli.overshoot,
        kept: cli.kept,
        valid: cli.valid,
        firstError: cli.firstError,
      });
      // The cut body is an Anthropic request again: the same top-level fields, the kept messages.
      const out = r.body;
      expect(Object.keys(out)).toEqual(Object.keys(body));
      expect(out.messages).toEqual(r.kept.map((i) => body.messages[i]));
      expect(check(out).valid).toBe(r.valid);
    }
  });

  it('`message` orphans a tool_result where `exchange` stays valid (the README example)', async () => {
    const body = JSON.parse(sampleText('coding-agent.json')) as Body;
    const naive = await evict(body, { policy: 'message', budget: 1500 });
    const safe = await evict(body, { policy: 'exchange', budget: 1500 });
    expect(naive.valid).toBe(false);
    expect(check(naive.body).firstViolation?.rule).toBe('orphan_tool_result');
    expect(safe.valid).toBe(true);
    expect(safe.tokensKept).toBeLessThanOrEqual(1500);
  });

  it('text in, text out; `count: "estimate"` needs no tokenizer; a JSONL log stays JSONL', async () => {
    const text = sampleText('coding-agent.json');
    const r = await evict(text, { policy: 'exchange', budget: 1500, count: 'estimate' });
    expect(typeof r.body).toBe('string');
    expect(check(r.body).valid).toBe(true);
    const log = sampleText('claude-code-session.jsonl');
    const cut = await evict(log, { policy: 'exchange', budget: 800, count: (s) => s.length });
    expect(cut.body.trim().split('\n').length).toBeLessThan(log.trim().split('\n').length);
    expect(check(cut.body).format).toBe('claude-code-jsonl');
  });

  it('refuses an unknown policy and a negative budget', async () => {
    const body = JSON.parse(sampleText('invoice.json')) as unknown;
    await expect(evict(body, { policy: 'oldest' as never, budget: 10 })).rejects.toThrow(
      RangeError,
    );
    await expect(evict(body, { policy: 'message', budget: -1 })).rejects.toThrow(RangeError);
  });
});

describe('repair', () => {
  it('gives `repair --json` and returns the repaired request as an object for an object', async () => {
    const file = path.join(samplesDir, 'broken-unanswered-after-cancel.json');
    const cli = await cliJson('repair', file, '--json');
    const body = JSON.parse(sampleText('broken-unanswered-after-cancel.json')) as Body;
    const r = repair(body);
    expect(r.changes).toEqual(cli.changes);
    expect(r.valid).toBe(true);
    expect(r.body).toEqual(JSON.parse(cli.output as string));
    expect(check(r.body).valid).toBe(true);
    expect(check(body).valid).toBe(false);
  });

  it('text in, text out', () => {
    const r = repair(sampleText('broken-orphan-after-trim.json'));
    expect(typeof r.body).toBe('string');
    expect(check(r.body).valid).toBe(r.valid);
  });
});

describe('groupExchanges and turnPairs', () => {
  it('list exchanges and turn pairs with the body positions of their messages', async () => {
    const file = path.join(samplesDir, 'coding-agent.json');
    const cli = await cliJson('check', file, '--json');
    const body = JSON.parse(sampleText('coding-agent.json')) as Body;
    const g = groupExchanges(body);
    expect(g.exchanges).toHaveLength(cli.exchanges as number);
    expect(g.messages).toHaveLength(body.messages.length);
    expect(g.exchanges.flatMap((x) => x.messages)).toEqual(body.messages.map((_, i) => i));
    expect(g.messages[0]).toMatchObject({ rawIndex: 0, path: 'messages.0', role: 'user' });
    const t = turnPairs(body);
    for (const p of t.pairs) {
      expect(t.messages[p.assistant]?.role).toBe('assistant');
      for (const r of p.replies) expect(t.messages[r]?.role).not.toBe('assistant');
    }
    expect(t.pairs.length).toBe(
      body.messages.filter((m) => (m as { role: string }).role === 'assistant').length,
    );
  });
});

describe('the README example', () => {
  /** The README's unit test, with two compactions: the newest N messages, or whole exchanges. */
  function firstErrors(compact: (messages: unknown[], keep: number) => unknown[]) {
    const session = JSON.parse(sampleText('coding-agent.json')) as Body;
    const errors: unknown[] = [];
    for (let keep = 1; keep < session.messages.length; keep++) {
      const body = { ...session, messages: compact(session.messages, keep) };
      errors.push(check(body, { provider: 'anthropic' }).firstError);
    }
    return errors;
  }

  it('fails on a compaction that keeps the newest N messages, passes on one that cuts at exchanges', () => {
    const newest = firstErrors((messages, keep) => messages.slice(-keep));
    expect(newest.filter((e) => e !== null).length).toBeGreaterThan(0);
    expect(JSON.stringify(newest.find((e) => e !== null))).toMatch(/tool_use_id/);
    const session = JSON.parse(sampleText('coding-agent.json')) as Body;
    const starts = groupExchanges(session).exchanges.map((x) => x.first);
    const byExchange = firstErrors((messages, keep) => {
      const cut = starts.find((s) => messages.length - s <= keep) ?? messages.length - 1;
      return messages.slice(cut);
    });
    expect(byExchange.every((e) => e === null)).toBe(true);
  });
});
