import { describe, expect, it } from 'vitest';
import { claudeFactor, COUNT_PIECE_CHARS, MESSAGE_OVERHEAD } from '../model/tokens.ts';
import { runCli } from './commands.ts';
import type { CliIO } from './io.ts';

/** Run the CLI on in-memory files (name → text). */
async function cli(files: Record<string, string>, ...argv: string[]) {
  let out = '';
  let err = '';
  const io: CliIO = {
    read: (f) => ({ text: files[f] ?? '', name: f }),
    out: (s) => void (out += s),
    err: (s) => void (err += s),
  };
  const code = await runCli(argv, io);
  return { code, out, err };
}

describe('npm run cli -- simulate on one huge message without split points', () => {
  it('finishes on a 1 MB one-message file of `x` and counts it piecewise', async () => {
    const n = 1_000_000;
    const body = JSON.stringify({
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'x'.repeat(n) }],
    });
    const r = await cli(
      { 'x.json': body },
      'simulate',
      'x.json',
      '--policy',
      'message',
      '--budget',
      '100',
      '--json',
    );
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const json = JSON.parse(r.out) as { tokensBefore: number; fits: boolean; deficit: number };
    // Every piece is the same run of COUNT_PIECE_CHARS `x` (all hard cuts).
    const raw = await import('gpt-tokenizer/encoding/o200k_base');
    const perPiece = raw.countTokens('x'.repeat(COUNT_PIECE_CHARS));
    const o200k = perPiece * (n / COUNT_PIECE_CHARS);
    expect(json.tokensBefore).toBe(
      Math.round(o200k * claudeFactor('prose', 'claude-sonnet-4-5')) + MESSAGE_OVERHEAD,
    );
    expect(json.fits).toBe(false);
    expect(json.deficit).toBe(json.tokensBefore - 100);
  });
});
