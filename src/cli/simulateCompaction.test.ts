/**
 * `simulate --policy clear-tool-results [--keep N]`, `provider-compaction`, `ai-sdk-prune`,
 * `langchain-trim` with `--json` as for the other policies, and `sweep --json` listing them.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { prepareEviction, simulatePolicy } from '../model/evict/policies.ts';
import type { PolicyId, PolicyOptions } from '../model/evict/types.ts';
import { parseTranscript } from '../model/parse/index.ts';
import { countTokens, loadBpeCounter } from '../model/tokens.ts';
import { runCli } from './commands.ts';
import type { CliIO } from './io.ts';

const sample = path.resolve(import.meta.dirname, '../../public/samples/coding-agent.json');

async function cli(...argv: string[]) {
  let out = '';
  let err = '';
  const io: CliIO = {
    read: (f) => ({ text: readFileSync(f, 'utf8'), name: path.basename(f) }),
    out: (s) => void (out += s),
    err: (s) => void (err += s),
  };
  const code = await runCli(argv, io);
  return { code, out, err };
}

async function model(policy: PolicyId, budget: number, options: PolicyOptions = {}) {
  const parsed = parseTranscript(readFileSync(sample, 'utf8'));
  if (!parsed.ok) throw new Error('sample does not parse');
  const t = parsed.value.transcript;
  const table = countTokens(t, 'anthropic', await loadBpeCounter());
  return { t, r: simulatePolicy(prepareEviction(t, table, 'anthropic'), policy, budget, options) };
}

interface SimJson {
  policy: string;
  tokensKept: number;
  freed: number;
  fits: boolean;
  kept: number[];
  evicted: number[];
  valid: boolean;
  firstError: unknown;
  edits?: { message: number; block: number; kind: string; tokens: number }[];
}

describe('npm run cli -- simulate with the compaction policies', () => {
  it.each(['clear-tool-results', 'provider-compaction', 'ai-sdk-prune', 'langchain-trim'] as const)(
    'simulate --policy %s --json gives the model’s numbers and verdict',
    async (policy) => {
      const budget = 900;
      const r = await cli(
        'simulate',
        sample,
        '--policy',
        policy,
        '--budget',
        String(budget),
        '--json',
      );
      expect(r.err).toBe('');
      const json = JSON.parse(r.out) as SimJson;
      const { t, r: m } = await model(policy, budget);
      expect(json).toMatchObject({
        policy,
        tokensKept: m.tokensKept,
        freed: m.freed,
        fits: m.fits,
        valid: m.validation.valid,
      });
      expect(json.kept).toEqual(m.kept.map((i) => t.messages[i]?.rawIndex));
      expect(json.firstError).toEqual(m.firstError?.error ?? null);
      expect(r.code).toBe(m.validation.valid ? 0 : 1);
    },
  );

  it('clear-tool-results keeps every message, clears old results, takes --keep N', async () => {
    const all = await cli(
      'simulate',
      sample,
      '--policy',
      'clear-tool-results',
      '--budget',
      '900',
      '--json',
    );
    const a = JSON.parse(all.out) as SimJson;
    expect(all.code).toBe(0);
    expect(a.evicted).toEqual([]);
    expect(a.freed).toBeGreaterThan(0);
    expect(a.edits?.every((e) => e.kind === 'cleared')).toBe(true);
    const keep1 = await cli(
      'simulate',
      sample,
      '--policy',
      'clear-tool-results',
      '--budget',
      '900',
      '--keep',
      '1',
      '--json',
    );
    const k = JSON.parse(keep1.out) as SimJson;
    // Keeping fewer tool uses clears more results.
    expect(k.edits?.length).toBeGreaterThan(a.edits?.length ?? 0);
    const { r } = await model('clear-tool-results', 900, { keepToolUses: 1 });
    expect(k.edits?.length).toBe(r.edits?.length);
    const inputs = await cli(
      'simulate',
      sample,
      '--policy',
      'clear-tool-results',
      '--budget',
      '900',
      '--clear-tool-inputs',
      '--json',
    );
    expect((JSON.parse(inputs.out) as SimJson).edits?.some((e) => e.kind === 'cleared-input')).toBe(
      true,
    );
    const text = await cli('simulate', sample, '--policy', 'clear-tool-results', '--budget', '900');
    expect(text.out).toMatch(/cleared \d+ tool results/);
    expect(text.out).toContain('VALID');
    expect(
      (
        await cli(
          'simulate',
          sample,
          '--policy',
          'clear-tool-results',
          '--budget',
          '9',
          '--keep',
          'x',
        )
      ).code,
    ).toBe(2);
  });

  it('clear-at-least larger than what can be cleared: nothing is cleared', async () => {
    const r = await cli(
      'simulate',
      sample,
      '--policy',
      'clear-tool-results',
      '--budget',
      '900',
      '--clear-at-least',
      '1000000',
      '--json',
    );
    const json = JSON.parse(r.out) as SimJson;
    expect(json.freed).toBe(0);
    expect(json.fits).toBe(false);
  });

  it('sweep --json lists the new policies under their ids; clear-tool-results and provider-compaction give no 400 here', async () => {
    const r = await cli('sweep', sample, '--json');
    const json = JSON.parse(r.out) as {
      policies: { policy: string; share400: number; invalidCuts: number[] }[];
    };
    const ids = json.policies.map((p) => p.policy);
    for (const id of [
      'clear-tool-results',
      'provider-compaction',
      'ai-sdk-prune',
      'langchain-trim',
    ])
      expect(ids).toContain(id);
    const by = Object.fromEntries(json.policies.map((p) => [p.policy, p]));
    expect(by['clear-tool-results']?.share400).toBe(0);
    expect(by['provider-compaction']?.share400).toBe(0);
    for (const p of json.policies)
      for (const k of p.invalidCuts) expect(k).toBeGreaterThanOrEqual(0);
  });
});

describe('npm run cli -- simulate what-if rows', () => {
  it('--window and --limit-bytes add a smaller-window row and a 413-retry row with the policy’s verdict there', async () => {
    const r = await cli(
      'simulate',
      sample,
      '--policy',
      'clear-tool-results',
      '--budget',
      '5000',
      '--window',
      '1000',
      '--reserve',
      '100',
      '--limit-bytes',
      '2000',
      '--json',
    );
    expect(r.err).toBe('');
    const json = JSON.parse(r.out) as SimJson & {
      whatIf: {
        label: string;
        budget: number;
        happens: boolean;
        valid: boolean;
        tokensKept: number;
      }[];
    };
    expect(json.whatIf.map((w) => w.label)).toEqual([
      'smaller window (1,000 tokens)',
      expect.stringMatching(/^413 retry/),
    ]);
    expect(json.whatIf[0]?.budget).toBe(900);
    const { r: atWindow } = await model('clear-tool-results', 900);
    expect(json.whatIf[0]).toMatchObject({
      happens: true,
      tokensKept: atWindow.tokensKept,
      valid: atWindow.validation.valid,
    });
    expect(json.whatIf[1]?.happens).toBe(true);
    expect(json.whatIf[1]?.budget).toBeLessThan(json.tokensKept + json.freed);
    const text = await cli(
      'simulate',
      sample,
      '--policy',
      'exchange',
      '--budget',
      '5000',
      '--window',
      '1000',
    );
    expect(text.out).toMatch(/what if: smaller window \(1,000 tokens\): budget 1000, valid\./);
  });
});
