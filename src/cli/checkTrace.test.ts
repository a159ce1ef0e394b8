/**
 * `check` on an OpenTelemetry trace: `--request N` reads the Nth LLM call (numbered as the
 * page's picker, in time order), the newest without it, each judged by its own provider.
 */
import { describe, expect, it } from 'vitest';
import { oncallSpans, toOtlp } from '../model/testing/otel.fixtures.ts';
import { runCli } from './commands.ts';
import { buildShareFragment } from '../state/permalink/storeLink.ts';
import { createAppStore } from '../state/store.ts';

const TRACE = JSON.stringify(toOtlp(oncallSpans()), null, 2);

async function cli(args: string[]) {
  let out = '';
  let err = '';
  const code = await runCli(args, {
    read: (f) => {
      if (f !== 'trace.json') throw new Error('ENOENT: no such file');
      return { text: TRACE, name: f };
    },
    out: (s) => (out += s),
    err: (s) => (err += s),
  });
  return { code, out, err };
}

describe('cli check trace.json', () => {
  it('--request N reads that LLM call and judges it against the provider its span names', async () => {
    const runs = await Promise.all(
      [1, 2, 3, 4].map((n) => cli(['check', 'trace.json', '--request', String(n), '--json'])),
    );
    expect(
      runs.map((r) => {
        const j = JSON.parse(r.out) as { format: string; provider: string; valid: boolean };
        return [r.code, j.format, j.provider, j.valid];
      }),
    ).toEqual([
      [0, 'openai-chat', 'openai-chat', true],
      [0, 'anthropic-messages', 'anthropic', true],
      [0, 'anthropic-messages', 'anthropic', true],
      [1, 'anthropic-messages', 'anthropic', false],
    ]);
    const lost = JSON.parse(runs[3]?.out ?? '') as {
      violations: { rule: string; ids: string[]; messageIndex: number }[];
      firstError: { error: { message: string } };
    };
    expect(lost.violations[0]).toMatchObject({ ids: ['toolu_03Pool'], messageIndex: 3 });
    expect(lost.firstError.error.message).toBe(
      'messages.3: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_03Pool. Each `tool_use` block must have a corresponding `tool_result` block in the next message.',
    );
  });

  it('without --request: the newest call, and stderr says which and how to choose', async () => {
    const r = await cli(['check', 'trace.json']);
    expect(r.code).toBe(1);
    expect(r.err).toBe(
      'note: trace.json holds 4 requests; read #4 (choose another with --request N)\n',
    );
    expect(r.out).toContain(
      'note: This file holds 4 requests; showing #4 · 14:05:17 UTC · claude-opus-4-7 · chat claude-opus-4-7.',
    );
    expect(r.out).toContain('trace.json: anthropic-messages → anthropic; 5 messages');
    expect(r.out).toContain(
      'note: Tool call toolu_03Pool (pool_status) has no tool_call_response in this input, but span execute_tool pool_status at 14:05:07 UTC (failed: tool timed out after 10 s) ran it: its result was lost before this call.',
    );
    expect(r.out).toContain('INVALID: anthropic answers HTTP 400');
  });

  it('a call past the last is bad usage', async () => {
    const r = await cli(['check', 'trace.json', '--request', '5']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--request 5: trace.json holds 4 requests');
  });

  it('repair --request 4 writes that call as the Anthropic body it should have been', async () => {
    const r = await cli(['repair', 'trace.json', '--request', '4']);
    expect(r.code).toBe(0);
    const body = JSON.parse(r.out) as {
      model: string;
      messages: {
        role: string;
        content: { type: string; tool_use_id?: string; is_error?: boolean }[];
      }[];
    };
    expect(body.model).toBe('claude-opus-4-7');
    const last = body.messages[body.messages.length - 1];
    expect(last?.content.map((b) => [b.type, b.tool_use_id, b.is_error === true])).toEqual([
      ['tool_result', 'toolu_02Deploys', false],
      ['tool_result', 'toolu_03Pool', true],
    ]);
    expect(r.err).toContain('toolu_03Pool');
  });

  it('reads the request a page link chose (rq=, as the strip numbers it), and --request over it', async () => {
    // The link the page's Copy link writes after the user picked the 2nd call on the strip.
    const store = createAppStore({ source: { text: TRACE, name: '', origin: 'paste' } });
    store.getState().setRequestIndex(1);
    const link = `http://ti.example/#${buildShareFragment(store.getState(), 'full')}`;
    expect(link).toContain('rq=2');
    const viaLink = await cli(['check', link, '--json']);
    const viaFlag = await cli(['check', 'trace.json', '--request', '2', '--json']);
    expect(viaLink.code).toBe(0);
    expect(JSON.parse(viaLink.out)).toEqual(JSON.parse(viaFlag.out));
    expect(viaLink.err).toContain('note: request 2, from the link (rq=2)');
    const over = await cli(['check', link, '--request', '4', '--json']);
    expect(over.code).toBe(1);
    expect(over.err).toContain("note: request 4, from --request (it overrides the link's rq=2)");
  });
});
