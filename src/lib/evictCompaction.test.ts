/**
 * The package's `evict` with the compaction policies: the CLI's figures, and the written body is
 * what the policy sends — cleared results carry the placeholder, a compaction block opens the
 * kept history — and checks as the policy's verdict says.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/commands.ts';
import type { CliIO } from '../cli/io.ts';
import { check, evict } from './index.ts';

const file = path.resolve(import.meta.dirname, '../../public/samples/coding-agent.json');
type Body = { messages: { role: string; content: unknown }[] } & Record<string, unknown>;
const body = () => JSON.parse(readFileSync(file, 'utf8')) as Body;

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

describe('evict with the compaction policies', () => {
  it.each(['clear-tool-results', 'provider-compaction', 'ai-sdk-prune', 'langchain-trim'] as const)(
    '%s: the CLI’s figures; the written body checks as the verdict says',
    async (policy) => {
      const cli = await cliJson('simulate', file, '--policy', policy, '--budget', '900', '--json');
      const r = await evict(body(), { policy, budget: 900 });
      expect({ tokensKept: r.tokensKept, fits: r.fits, valid: r.valid }).toEqual({
        tokensKept: cli.tokensKept,
        fits: cli.fits,
        valid: cli.valid,
      });
      expect(check(r.body).valid).toBe(r.valid);
    },
  );

  it('clear-tool-results writes the placeholder in the cleared results and keeps every message', async () => {
    const r = await evict(body(), { policy: 'clear-tool-results', budget: 900, keepToolUses: 1 });
    expect(r.body.messages).toHaveLength(body().messages.length);
    expect(JSON.stringify(r.body.messages)).toContain('[cleared]');
    expect(r.edits?.length).toBeGreaterThan(0);
    expect(r.valid).toBe(true);
  });

  it('provider-compaction writes a compaction block at the start of the kept history', async () => {
    const r = await evict(body(), { policy: 'provider-compaction', budget: 900 });
    const first = r.body.messages[0];
    expect(first?.role).toBe('assistant');
    expect(JSON.stringify(first?.content)).toContain('"type":"compaction"');
    expect(r.valid).toBe(true);
  });
});
