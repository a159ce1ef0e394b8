/**
 * `check` judges the context window (validate/contextWindow.ts): a generated gpt-4o body over
 * 128,000 tokens is a 400 with OpenAI's text and the exact o200k count, as the page's worker
 * counts it. On the old code each said "VALID: openai-chat would accept this request".
 */
import { describe, expect, it } from 'vitest';
import { parsed } from '../model/testing/index.ts';
import { countTokens, loadBpeCounter } from '../model/tokens.ts';
import { cli } from './testing/index.ts';

/** A Chat body for gpt-4o: `n` user/assistant turns of about `chars` characters of prose each. */
function body(n: number, chars: number, model = 'gpt-4o'): string {
  const words = 'tool results stream back with JSON payloads while the agent reads the code'.split(
    ' ',
  );
  const messages = [];
  for (let i = 0; i < n; i++) {
    let s = '';
    for (let k = 0; s.length < chars; k++) s += words[(k * 7 + i) % words.length] + ' ';
    messages.push({ role: i % 2 === 0 ? 'user' : 'assistant', content: s });
  }
  if (n % 2 === 0) messages.push({ role: 'user', content: 'go on' });
  return JSON.stringify({ model, messages });
}

async function exactTotal(text: string): Promise<number> {
  const t = parsed(JSON.parse(text)).transcript;
  return countTokens(t, 'openai-chat', await loadBpeCounter()).total;
}

describe('cli check: the context window', () => {
  it('a 4.5 MB gpt-4o body: INVALID at once by its length (no count), O14 with OpenAI’s body', async () => {
    const text = body(90, 50_000);
    const n = await exactTotal(text);
    expect(n).toBeGreaterThan(128_000);
    const r = await cli(['check', 'big.json', '--json'], { 'big.json': text });
    expect(r.code).toBe(1);
    const j = JSON.parse(r.out);
    expect(j.valid).toBe(false);
    const err = j.firstError as { error: { message: string; param: string; code: string } };
    expect(err.error).toMatchObject({ param: 'messages', code: 'context_length_exceeded' });
    // Not counted (cheap first): N is the lower bound, over the window and at most the count.
    const said = Number(/resulted in (\d+) tokens/.exec(err.error.message)?.[1]);
    expect(said).toBeGreaterThan(128_000);
    expect(said).toBeLessThanOrEqual(n);
    expect(err.error.message).toBe(
      `This model's maximum context length is 128000 tokens. However, your messages resulted in ${said} tokens. Please reduce the length of the messages.`,
    );
    const plain = await cli(['check', 'big.json'], { 'big.json': text });
    expect(plain.out).toContain('INVALID: openai-chat answers HTTP 400');
    expect(plain.out).toContain('[O14] context_window_exceeded in the request (its whole input)');
    expect(plain.out).toContain('not counted, so the provider');
  });

  it('a body its length cannot judge is counted: O14 with the exact count in OpenAI’s text', async () => {
    const over = body(16, 50_000);
    const n = await exactTotal(over);
    const r = await cli(['check', 'over.json', '--json'], { 'over.json': over });
    expect(JSON.parse(r.out).firstError.error.message).toContain(`resulted in ${n} tokens.`);
  });

  it('a body its length cannot judge is counted: just over the window is O14, just under is valid', async () => {
    const over = body(16, 50_000);
    const n = await exactTotal(over);
    expect(n).toBeGreaterThan(128_000);
    expect(n).toBeLessThan(200_000);
    const r = await cli(['check', 'over.json', '--json'], { 'over.json': over });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.out).violations[0]).toMatchObject({ code: 'O14', status: 400 });

    const under = body(12, 50_000);
    expect(await exactTotal(under)).toBeLessThan(128_000);
    const u = await cli(['check', 'under.json', '--json'], { 'under.json': under });
    expect(u.code).toBe(0);
    expect(JSON.parse(u.out).violations).toEqual([]);
  });

  it('an unknown model is not judged, however long', async () => {
    const r = await cli(['check', 'x.json', '--json'], { 'x.json': body(16, 50_000, 'my-model') });
    expect(r.code).toBe(0);
  });
});
