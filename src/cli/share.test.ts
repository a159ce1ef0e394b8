import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lastCallFailsLog, queuedCompactedLog } from '../model/testing/claudeCodeLog.ts';
import { cli } from './testing/index.ts';

const SAMPLES = path.resolve(import.meta.dirname, '../../public/samples');
const sample = (f: string) => readFileSync(path.join(SAMPLES, f), 'utf8');

/** The `check --json` summary of a FILE or link: what must survive sharing. */
async function verdict(arg: string, files: Record<string, string>, more: string[] = []) {
  const r = await cli(['check', arg, ...more, '--json'], files);
  const j = JSON.parse(r.out) as Record<string, unknown>;
  return {
    code: r.code,
    format: j.format,
    counts: [j.messages, j.exchanges, j.toolCalls],
    valid: j.valid,
    rules: (j.violations as { rule: string; messageIndex: number }[]).map(
      (v) => `${v.rule}@${v.messageIndex}`,
    ),
  };
}

describe('cli share (issue 15)', () => {
  for (const f of [
    'claude-code-session.jsonl',
    'codex-rollout.jsonl',
    'broken-partial-answer.json',
  ]) {
    it(`the structure-only link of ${f} reopens in every command with the same verdict`, async () => {
      const files = { [f]: sample(f) };
      const r = await cli(['share', f, '--structure-only', '--base', 'https://ti.example/'], files);
      const link = r.out.trim();
      expect(link).toMatch(/^https:\/\/ti\.example\/#v=1&t=.+&r=1$/);
      const want = await verdict(f, files);
      expect(await verdict(link, files)).toEqual(want);
      // The fragment alone is a link too.
      expect(await verdict(link.slice(link.indexOf('#')), files)).toEqual(want);
      // The link was made: exit 0, the verdict said on stderr when it is a 400 (newcomer: exit 1
      // with nothing said broke `link=$(cli share f) || …` for the usual incident).
      expect(r.code).toBe(0);
      if (want.valid) expect(r.err).toBe('');
      else
        expect(r.err).toMatch(
          new RegExp(
            `^note: the link opens on a request that \\S+ answers with HTTP 400 \\(\\S+ ${want.rules[0]?.split('@')[0]}\\); share exits 0 once the link is printed, check exits by the verdict\\n$`,
          ),
        );
    });
  }

  it('--json prints {link, file}; -o writes the transcript the link carries, in its format', async () => {
    const files: Record<string, string> = { s: sample('claude-code-session.jsonl') };
    const r = await cli(
      ['share', 's', '--structure-only', '--hide-tool-names', '-o', 'copy.jsonl', '--json'],
      files,
    );
    const j = JSON.parse(r.out) as { link: string; file: string };
    expect(j.file).toBe('copy.jsonl');
    expect(j.link.startsWith('http://localhost:4173/#v=1&t=')).toBe(true);
    const copy = files['copy.jsonl'] ?? '';
    expect(copy).toContain('"sessionId"');
    expect(copy).not.toContain('Invoice export');
    expect(await verdict('copy.jsonl', files)).toEqual(await verdict('s', files));
  });

  it('a structure-only copy too large for a link is written with -o and named as what to share, never the original (newcomer: "Share the file itself")', async () => {
    const words = 'The invoice export for ACME failed again. '.repeat(2500);
    const messages = Array.from({ length: 30 }, (_, k) => ({
      role: k % 2 ? 'assistant' : 'user',
      content: `${k}: ${words}`,
    }));
    const files: Record<string, string> = { 'big.json': JSON.stringify({ messages }) };
    const bare = await cli(['share', 'big.json', '--structure-only'], files);
    expect(bare.code).toBe(2);
    expect(bare.out).toBe('');
    expect(bare.err).toMatch(
      /^error: too large for a link\. .* Write the structure-only copy with -o OUT and share that file, not the original\.\n$/,
    );
    const r = await cli(['share', 'big.json', '--structure-only', '-o', 'copy.json'], files);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/The structure-only copy is in copy\.json: share that file/);
    const copy = files['copy.json'] ?? '';
    expect(copy.length).toBeGreaterThan(0);
    expect(copy).not.toContain('ACME');
    expect(await verdict('copy.json', files)).toEqual(await verdict('big.json', files));
    // The whole file: sharing it is the user's to decide, as before.
    const whole = await cli(['share', 'big.json'], files);
    expect(whole.err).toMatch(/Share the file itself\.\n$/);
  }, 60_000);

  it('a link that carries a transcript is named by its start and length, not printed whole', async () => {
    const files = { 'a.json': sample('coding-agent.json') };
    const link = (await cli(['share', 'a.json'], files)).out.trim();
    expect(link.length).toBeGreaterThan(500);
    const r = await cli(['check', link], files);
    const head = r.out.split('\n')[0] ?? '';
    expect(head.startsWith(`link ${link.slice(0, 40)}… (`)).toBe(true);
    expect(head).toMatch(/… \([\d,]+ characters\): /);
    expect(head.length).toBeLessThan(200);
    expect(r.out + r.err).not.toContain(link);
  });

  it('a full link carries the transcript and reopens the same', async () => {
    const files = { 'a.json': sample('coding-agent.json') };
    const r = await cli(['share', 'a.json'], files);
    expect(r.code).toBe(0);
    expect(r.out).not.toContain('r=1');
    expect(await verdict(r.out.trim(), files)).toEqual(await verdict('a.json', files));
  });

  it('a link that cannot be honoured says why (exit 2)', async () => {
    const viewOnly = await cli(['check', 'v=1&n=session.jsonl'], {});
    expect(viewOnly.code).toBe(2);
    expect(viewOnly.err).toContain('holds the view only');
    expect(viewOnly.err).toContain('session.jsonl');
    const empty = await cli(['check', '#v=1&t='], {});
    expect(empty.code).toBe(2);
    const unknown = await cli(['check', 'https://x.example/#v=1&src=no-such-sample'], {});
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('no-such-sample');
    const names = await cli(['share', 'x', '--hide-tool-names'], { x: '[]' });
    expect(names.code).toBe(2);
    expect(names.err).toContain('--structure-only');
  });

  it('a sample link reads the sample', async () => {
    expect((await verdict('#v=1&src=invoice', {})).format).toBe('anthropic-messages');
  });
});

describe('share --structure-only of a structure-only link (issue 37)', () => {
  it.each([
    'invoice.json',
    'coding-agent.json',
    'claude-code-session.jsonl',
    'codex-rollout.jsonl',
    'gemini-oncall-cert.json',
    'broken-orphan-after-trim.json',
  ])('%s: works, and gives the same link (idempotent)', async (file) => {
    const text = sample(file);
    const once = await cli(['share', file, '--structure-only'], { [file]: text });
    expect(once.err).not.toMatch(/^(error|warning)/m);
    const link = once.out.trim();
    const twice = await cli(['share', link, '--structure-only'], {});
    expect(twice.err).toBe(once.err);
    expect([once.code, twice.code]).toEqual([0, 0]);
    expect(twice.out.trim()).toBe(link);
  });
});

describe('share --request N of a session log: the link opens on that call', () => {
  for (const flags of [['--structure-only'], []])
    it(`share --request 4 ${flags.join(' ') || '(a full link)'}: the call with its reply, \`rq\` naming it; check of the link shows that call and its 400`, async () => {
      const files = { 's.jsonl': lastCallFailsLog() };
      const r = await cli(['share', 's.jsonl', '--request', '4', ...flags], files);
      // The link is made (exit 0); the call's 400 is said on stderr.
      expect(r.err).toMatch(
        /^note: the link opens on a request that anthropic answers with HTTP 400 \(A2 unanswered_tool_use\)/,
      );
      expect(r.code).toBe(0);
      const link = r.out.trim();
      expect(link).toMatch(/&rq=4(&|$)/);
      const want = await verdict('s.jsonl', files, ['--request', '4']);
      expect(want.valid).toBe(false);
      expect(await verdict(link, files)).toEqual(want);
      const shown = await cli(['check', link], files);
      expect(shown.out).toContain('This log holds 4 model calls; showing call 4');
      // The requests the link's log holds: the three before it pass, the call shared fails.
      const listed = await cli(['check', link, '--requests', '--json'], files);
      const requests = JSON.parse(listed.out) as { valid: boolean }[];
      expect(requests.map((x) => x.valid)).toEqual([true, true, true, false]);
    });

  it('a call whose copy is not detected by itself (the log’s own lines first): the link names its format', async () => {
    for (const flags of [['--structure-only'], []]) {
      const files = { 's.jsonl': queuedCompactedLog() };
      const r = await cli(['share', 's.jsonl', '--request', '3', ...flags], files);
      expect(r.err).not.toMatch(/^(error|warning)/m);
      expect(r.code).toBe(0);
      const link = r.out.trim();
      expect(link).toContain('f=claude-code-jsonl');
      expect(link).toMatch(/&rq=2(&|$)/);
      // Rules by name: `messageIndex` is the message's place in its file, and the copy holds no
      // message from before the compaction (the call's context starts at its summary).
      const rules = (v: Awaited<ReturnType<typeof verdict>>) => ({
        ...v,
        rules: v.rules.map((x) => x.replace(/@\d+$/, '')),
      });
      const want = rules(await verdict('s.jsonl', files, ['--request', '3']));
      expect(want.valid).toBe(false);
      expect(rules(await verdict(link, files))).toEqual(want);
    }
  });
});
