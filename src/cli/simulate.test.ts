import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { prepareEviction, simulatePolicy } from '../model/evict/policies.ts';
import { parseTranscript } from '../model/parse/index.ts';
import { countTokens, loadBpeCounter } from '../model/tokens.ts';
import { runCli } from './commands.ts';
import type { CliIO } from './io.ts';
import { parallelWeatherChat } from '../model/testing/parallelWeather.ts';

const sample = path.resolve(import.meta.dirname, '../../public/samples/coding-agent.json');

async function cli(...argv: string[]) {
  let out = '';
  let err = '';
  const io: CliIO = {
    read: (f) => ({
      text: f === 'bad.json' ? '{"messages": [' : readFileSync(f, 'utf8'),
      name: path.basename(f),
    }),
    out: (s) => void (out += s),
    err: (s) => void (err += s),
  };
  const code = await runCli(argv, io);
  return { code, out, err };
}

describe("a 400 body's request index beside the message it names (newcomer: two numbers, no mapping)", () => {
  const samples = path.resolve(import.meta.dirname, '../../public/samples');
  it('simulate: the kept request counts from its own first message', async () => {
    // The first budget (in steps of 100) at which the message policy keeps an orphaned result.
    let out = '';
    for (let b = 100; b < 1700 && !out.includes('[A1]'); b += 100)
      out = (await cli('simulate', sample, '--policy', 'message', '--budget', String(b))).out;
    const at = /\[A1\] orphan_tool_result at message (\d+) /.exec(out);
    expect(at).not.toBeNull();
    expect(at?.[1]).not.toBe('0');
    expect(out).toContain('"messages.0.content.0:');
    expect(out).toContain(
      `  request message 0 = message #${at?.[1]} (the provider counts the messages of the request it received, from 0)`,
    );
  });

  it('check: said where the numbers part (the AI SDK adapter), not where they agree or the path names another message', async () => {
    const vercel = await cli('check', path.join(samples, 'broken-vercel-dropped-result.json'));
    expect(vercel.out).toContain('  request message 1 = message #2 (');
    // B2's path names the turn after the call (its pathIndex), whose number it is: no line.
    const bedrock = await cli('check', path.join(samples, 'broken-bedrock-split-results.json'));
    expect(bedrock.out).toContain('messages.2.content');
    expect(bedrock.out).not.toContain('request message');
    // A paste whose numbers agree: no line.
    const plain = await cli('check', path.join(samples, 'broken-orphan-after-trim.json'));
    expect(plain.out).toContain('messages.[1].role');
    expect(plain.out).not.toContain('request message');
  });
});

describe('a 400 body whose request message is several of ours', () => {
  it('check names them all, as the page does (newcomer: "request message 2 = message #3", the page "rows #3 and #4")', async () => {
    // OpenAI Chat sent to Bedrock: the tool message (#3) and the user's question (#4) are one user turn.
    const body = parallelWeatherChat();
    const dir = mkdtempSync(path.join(tmpdir(), 'reqindex-'));
    try {
      const file = path.join(dir, 'oai-parallel.json');
      writeFileSync(file, JSON.stringify(body));
      const r = await cli('check', file, '--provider', 'bedrock');
      expect(r.out).toContain('"Expected toolResult blocks at messages.2.content');
      expect(r.out).toContain(
        '  request message 2 = messages #3 and #4 (the provider counts the messages of the request it received, from 0, and sends consecutive messages of one role as one: #3 and #4 are its message 2)',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('npm run cli -- simulate / sweep', () => {
  it('counts in words: "kept 1 message", not "kept 1 messages" (newcomer report)', async () => {
    // The smallest budget keeps only the newest message under the message policy.
    const r = await cli('simulate', sample, '--policy', 'message', '--budget', '1');
    expect(r.out).toContain('kept 1 message, ');
    expect(r.out).toContain('; 50 messages, ');
  });

  it('simulate --json returns the same numbers as the model with the o200k counter', async () => {
    const r = await cli('simulate', sample, '--policy', 'message', '--budget', '1500', '--json');
    expect(r.err).toBe('');
    const json = JSON.parse(r.out) as Record<string, unknown>;
    const parsed = parseTranscript(readFileSync(sample, 'utf8'));
    if (!parsed.ok) throw new Error('sample does not parse');
    const t = parsed.value.transcript;
    const model = simulatePolicy(
      prepareEviction(t, countTokens(t, 'anthropic', await loadBpeCounter()), 'anthropic'),
      'message',
      1500,
    );
    expect(Object.keys(json)).toEqual(
      expect.arrayContaining([
        'policy',
        'budget',
        'tokensBefore',
        'tokensKept',
        'deficit',
        'freed',
        'overshoot',
        'fits',
        'kept',
        'evicted',
        'valid',
        'violations',
        'firstError',
      ]),
    );
    expect(json).toMatchObject({
      policy: 'message',
      budget: 1500,
      tokensBefore: model.tokensBefore,
      tokensKept: model.tokensKept,
      deficit: model.deficit,
      freed: model.freed,
      fits: model.fits,
      valid: model.validation.valid,
    });
    expect(json.kept).toEqual(model.kept.map((i) => t.messages[i]?.rawIndex));
    expect(json.firstError).toEqual(model.firstError?.error ?? null);
    expect(r.code).toBe(model.validation.valid ? 0 : 1);
  });

  it('message eviction breaks where exchange eviction does not: exit 1 vs 0, with the exact 400', async () => {
    const m = await cli('simulate', sample, '--policy', 'message', '--budget', '1500');
    expect(m.code).toBe(1);
    expect(m.out).toContain('INVALID: anthropic answers HTTP 400.');
    expect(m.out).toContain('unexpected `tool_use_id` found in `tool_result` blocks');
    const x = await cli('simulate', sample, '--policy', 'exchange', '--budget', '1500');
    expect(x.code).toBe(0);
    expect(x.out).toContain('VALID');
    expect(x.out).toMatch(/overshoot \d+\.\d\d×/);
  });

  it('summary takes --summary-tokens; bad usage and unreadable input exit 2', async () => {
    const s = await cli(
      'simulate',
      sample,
      '--policy',
      'summary',
      '--budget',
      '900',
      '--summary-tokens',
      '50',
      '--json',
    );
    const js = JSON.parse(s.out) as { summary?: { tokens: number }; valid: boolean };
    expect(js.summary?.tokens).toBe(50);
    expect(js.valid).toBe(true);
    expect((await cli('simulate', sample, '--policy', 'nope', '--budget', '5')).code).toBe(2);
    expect((await cli('simulate', sample, '--policy', 'message')).code).toBe(2);
    expect((await cli('simulate', sample, '--policy', 'message', '--budget', '-3')).code).toBe(2);
    expect((await cli('simulate', 'bad.json', '--policy', 'message', '--budget', '5')).code).toBe(
      2,
    );
  });

  it('sweep --json lists per policy the cuts and budgets that give a 400; exchange has none on a valid session', async () => {
    const r = await cli('sweep', sample, '--json');
    expect(r.code).toBe(1);
    const json = JSON.parse(r.out) as {
      policies: {
        policy: string;
        share400: number;
        meanOvershoot: number | null;
        invalidCuts: number[];
        invalidBudgets: [number, number][];
      }[];
    };
    const byPolicy = Object.fromEntries(json.policies.map((p) => [p.policy, p]));
    expect(byPolicy.message?.share400).toBeGreaterThan(0);
    expect(byPolicy.message?.invalidCuts.length).toBeGreaterThan(0);
    expect(byPolicy.exchange?.share400).toBe(0);
    expect(byPolicy.exchange?.meanOvershoot).toBeGreaterThan(1);
    // A budget inside a reported 400 range gives exit 1 in simulate.
    const [lo] = byPolicy.message?.invalidBudgets[0] ?? [0];
    expect(
      (await cli('simulate', sample, '--policy', 'message', '--budget', String(lo))).code,
    ).toBe(1);
    const text = await cli('sweep', sample);
    expect(text.out).toContain('exchange: 0.0% of budgets');
  });
});
