import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { diffRequests, listFileRequests } from './diff/index.ts';
import { scanText } from './scan/rows.ts';
import { countTokensCached, TokenCache } from './tokenCache.ts';
import { CHARS_PER_4, loadBpeCounter } from './tokens.ts';
import { diffTokensWords, scanTokensWords, TEXT_TOKENS } from './tokenWords.ts';
import { defaultProviderOf } from './validate/index.ts';

// A Claude Code log whose replies carry usage: the three figures of its last call differ, and
// each one's words say what it counts (newcomer: 70,099 / 52,024 / 58,474, all "tokens").
const text = readFileSync(
  new URL('../../public/samples/claude-code-session.jsonl', import.meta.url),
  'utf8',
);

describe('the token figures of one call, and the words that say what each counts', () => {
  it('header: text by the tokenizer, replies by the log’s usage; diff: text only; scan: the header’s way by chars/4', async () => {
    const bpe = await loadBpeCounter();
    const listing = listFileRequests(text, { name: 's.jsonl', counter: bpe });
    if (!listing.ok) throw new Error(listing.error.message);
    const last = listing.value.requests.length - 1;
    const t = listing.value.transcriptOf(last);
    const provider = defaultProviderOf(t);
    const count = (counter: typeof bpe, preferUsage: boolean) =>
      countTokensCached(t, provider, counter, new TokenCache(), { preferUsage });

    const header = count(bpe, true);
    expect(header.basis.label).toMatch(/; \d+ replies from the log's usage$/);
    const diff = diffRequests(listing.value, last, undefined, { counter: bpe });
    if (!diff.ok) throw new Error(diff.error);
    // The diff counts the text: the same figure as check --requests, not the header's.
    expect(diff.value.right.tokens).toBe(count(bpe, false).total);
    expect(diff.value.right.tokens).toBe(listing.value.requests[last]?.tokens);
    expect(diff.value.right.tokens).not.toBe(header.total);
    const scan = scanText({ file: 's', path: 's', size: 0, version: '' }, text, 's.jsonl', {
      policies: [],
      budgets: [],
    });
    const row = scan.find((r) => r.request === last);
    expect(row?.tokenBasis).toBe('chars/4');
    expect(row?.tokens).toBe(count(CHARS_PER_4, true).total);

    // The words.
    expect(TEXT_TOKENS).toBe('text tokens');
    expect(diffTokensWords(diff.value.tokenBasis)).toBe(
      `Text tokens: ${diff.value.tokenBasis}, as the command line counts them; a reply is counted by its text, not by the usage the log records for it (the header's count takes that usage, so it can differ).`,
    );
    expect(diffTokensWords('≈ estimate, chars/4 (tokenizer loading)')).toMatch(
      /^Text tokens estimated \(chars\/4\) until the exact tokenizer is loaded; a reply is counted by its text, not by the usage/,
    );
    expect(scanTokensWords(row?.tokenBasis ?? '')).toMatch(
      /^The request's tokens as the eviction simulator counts them: its text estimated by chars\/4, and each reply the log records usage for by that usage\./,
    );
    expect(scanTokensWords('o200k_base')).toMatch(/its text counted with o200k_base,/);
  });
});
