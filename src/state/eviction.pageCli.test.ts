/**
 * The page and the CLI give the same eviction numbers for the samples: the page along its own path
 * (the worker's answer, faults, the exact o200k table, the selectors), the CLI as `simulate`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/commands.ts';
import type { CliIO } from '../cli/io.ts';
import { loadBpeCounter } from '../model/tokens.ts';
import {
  selectEviction,
  selectEvictionContext,
  selectPolicyChoices,
  selectSweep,
  SWEEP_PENDING,
} from './eviction.ts';
import { selectFaulted } from './faults.ts';
import { selectTokens, primeTokens } from './selectors.ts';
import { joinTranscript } from '../engine/pack.ts';
import { unpackMessages } from '../engine/packMessages.ts';
import type { Inspection, WorkerResponse } from '../engine/protocol.ts';
import { resetRun, runRequest } from '../engine/run.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const samplePath = (f: string) => path.join(repoRoot, 'public/samples', f);

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

let reqId = 0;
const workerCache = new Map<string, Inspection>();

/**
 * What the page's worker sends for a file (engine/run.ts, driven with a fake `post` as
 * client.ts hears it): the messages, the stripped result, and the exact token table, joined and
 * primed as useInspection does.
 */
async function workerInspection(file: string): Promise<Inspection> {
  const hit = workerCache.get(file);
  if (hit) return hit;
  resetRun();
  const text = readFileSync(samplePath(file), 'utf8');
  const posts: WorkerResponse[] = [];
  await runRequest(
    { id: ++reqId, req: { text, name: file, format: null, provider: null } },
    (m) => {
      posts.push(m);
    },
  );
  const messages = posts.flatMap((m) => (m.kind === 'messages' ? unpackMessages(m.messages) : []));
  const res = posts.find((m) => m.kind === 'result');
  if (res?.kind !== 'result') throw new Error(`${file}: the worker sent no result`);
  const insp = joinTranscript(res.result, messages, { text, name: file, format: null }, null);
  if (!insp.ok) throw new Error(`${file} does not parse`);
  const t = insp.analysis.transcript;
  if (res.tokens) primeTokens(t, insp.analysis.provider, res.tokens);
  for (const m of posts) if (m.kind === 'tokens') primeTokens(t, m.provider, m.tokens);
  workerCache.set(file, insp);
  return insp;
}

/** What the page computes for a file, along App's path: worker inspection → faults → tokens. */
async function pageView(file: string, budget: number, policies: [string, string]) {
  const insp = await workerInspection(file);
  if (!insp.ok) throw new Error(`${file} does not parse`);
  const analysis = selectFaulted(insp.analysis, insp.faults ?? null).analysis;
  // The page's counter once loaded: useTextCounter → loadBpeCounter('o200k_base'); selectTokens
  // then answers with the worker's exact table for that encoding.
  const counter = await loadBpeCounter('o200k_base');
  const table = selectTokens(analysis.transcript, analysis.provider, counter);
  expect(table.basis.encoding).toBe('o200k_base');
  const ctx = selectEvictionContext(analysis.transcript, table, analysis.provider);
  const choices = selectPolicyChoices(policies, {});
  return { analysis, ctx, choices, view: selectEviction(ctx, choices, budget) };
}

// Case 01 (langchain trim_messages "last"), rebuilt in Anthropic shape: the answered pair sits in

describe('page and CLI give the same numbers (exact o200k counter)', () => {
  for (const [file, budgets] of [
    ['invoice.json', [272, 240, 220, 200, 150, 100, 10]],
    ['coding-agent.json', [1747, 1700, 1500, 1200, 900, 500, 200, 50]],
    // A session log: some replies are counted from the log's usage figures, on the page and in the CLI.
    ['claude-code-session.jsonl', [700, 600, 400, 300, 150, 60]],
    ['codex-rollout.jsonl', [290, 250, 200, 120]],
  ] as const) {
    it(`${file}: simulate --json equals the page's selector for both default policies`, async () => {
      if (file === 'claude-code-session.jsonl')
        expect((await pageView(file, 0, ['message', 'exchange'])).ctx.table.basis.label).toContain(
          "replies from the log's usage",
        );
      for (const budget of budgets) {
        const page = await pageView(file, budget, ['message', 'exchange']);
        for (const r of page.view.results) {
          const out = await cli(
            'simulate',
            samplePath(file),
            '--policy',
            r.policy,
            '--budget',
            String(budget),
            '--json',
          );
          expect(out.err).toBe('');
          const json = JSON.parse(out.out) as Record<string, unknown>;
          const raw = (i: number) => page.analysis.transcript.messages[i]?.rawIndex;
          expect({
            policy: json.policy,
            budget: json.budget,
            tokensBefore: json.tokensBefore,
            tokensKept: json.tokensKept,
            deficit: json.deficit,
            freed: json.freed,
            overshoot: json.overshoot,
            fits: json.fits,
            kept: json.kept,
            evicted: json.evicted,
            valid: json.valid,
            firstError: json.firstError,
          }).toEqual({
            policy: r.policy,
            budget,
            tokensBefore: r.tokensBefore,
            tokensKept: r.tokensKept,
            deficit: r.deficit,
            freed: r.freed,
            overshoot: r.overshoot,
            fits: r.fits,
            kept: r.kept.map(raw),
            evicted: r.evicted.map(raw),
            valid: r.validation.valid,
            firstError: r.firstError?.error ?? null,
          });
        }
      }
    });
  }

  it('sweep --json equals the page sweep (share of 400s, mean overshoot, invalid budgets)', async () => {
    const page = await pageView('coding-agent.json', 1000, ['message', 'exchange']);
    const out = await cli('sweep', samplePath('coding-agent.json'), '--json');
    const json = JSON.parse(out.out) as {
      tokensBefore: number;
      policies: {
        policy: string;
        share400: number;
        meanOvershoot: number | null;
        invalidBudgets: [number, number][];
      }[];
    };
    const sweep = selectSweep(page.ctx, page.choices);
    if (!sweep || sweep === SWEEP_PENDING)
      throw new Error('the page skipped the sweep of a fast-path sample');
    expect(json.tokensBefore).toBe(page.ctx.table.total);
    expect(
      json.policies.map((p) => [p.policy, p.share400, p.meanOvershoot, p.invalidBudgets]),
    ).toEqual(sweep.map((p) => [p.policy, p.share400, p.meanOvershoot, p.invalidBudgets]));
  });
});
