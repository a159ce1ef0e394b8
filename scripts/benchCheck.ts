/**
 * The library's cost in the request path (issue 17): `check` of one request body, and the whole
 * checked fetch (read the body text the SDK wrote, `JSON.parse`, recognise the API, check), each
 * as a ratio to `JSON.stringify` of the same body, which the SDK pays anyway (target ≤ 1×), at
 * 10, 100 and 1,000 messages of generated Anthropic Messages and OpenAI Chat bodies.
 * `npm run bench -- --only check` runs this section alone.
 */
import { check } from '../src/lib/check.ts';
import { createCheckedFetch } from '../src/lib/fetch.ts';
import { generate, type GenFormat } from './gen.ts';
import { line } from './benchLine.ts';

const SIZES = [10, 100, 1000] as const;
const FORMATS: { format: GenFormat; label: string; url: string }[] = [
  {
    format: 'anthropic-messages',
    label: 'anthropic',
    url: 'https://api.anthropic.com/v1/messages',
  },
  {
    format: 'openai-chat',
    label: 'openai_chat',
    url: 'https://api.openai.com/v1/chat/completions',
  },
];

const us = (ms: number) => `${(ms * 1000).toFixed(0)} µs`;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

/** Milliseconds per call of `f`, over enough calls to last about `ms`. */
async function perCall(f: () => unknown, ms: number): Promise<number> {
  let n = 1;
  for (;;) {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) await f();
    const dt = performance.now() - t0;
    if (dt >= ms) return dt / n;
    n *= 2;
  }
}

/**
 * A generated body of about `messages` entries that the provider accepts (a request that is
 * sent): the first `messages`, less the trailing ones up to where the last call is answered.
 */
function body(format: GenFormat, messages: number): { messages: unknown[] } {
  const value = JSON.parse(generate({ format, messages, seed: 17, broken: 0 })) as {
    messages: unknown[];
  };
  value.messages = value.messages.slice(0, messages);
  while (value.messages.length > 1 && !check(value).valid) value.messages.pop();
  return value;
}

export async function benchCheck(): Promise<void> {
  // One response object, so the figure is the checked fetch's own work, not a stub's Response.
  const reply = new Response('{}');
  const ok = () => Promise.resolve(reply);
  const fetch = createCheckedFetch({ fetch: ok, mode: 'throw' });
  // Every body is valid, so the figures are the cost of a request that is sent.
  for (const { format, label, url } of FORMATS) {
    for (const n of SIZES) {
      const value = body(format, n);
      const text = JSON.stringify(value);
      const verdict = check(value);
      const init = { method: 'POST', body: text };
      const rounds = { stringify: [] as number[], check: [] as number[], fetch: [] as number[] };
      for (let r = 0; r < 9; r++) {
        rounds.stringify.push(await perCall(() => JSON.stringify(value), 40));
        rounds.check.push(await perCall(() => check(value), 40));
        rounds.fetch.push(await perCall(() => fetch(url, init), 40));
      }
      const s = median(rounds.stringify);
      const note = `${value.messages.length} messages, ${(text.length / 1024).toFixed(0)} KiB, ${verdict.valid ? 'valid' : 'invalid'}; stringify ${us(s)}`;
      const c = median(rounds.check);
      const f = median(rounds.fetch);
      line(`check_vs_stringify_${label}_${n}`, c / s, '×', `${note}; check ${us(c)}; target ≤ 1`);
      line(
        `checked_fetch_vs_stringify_${label}_${n}`,
        f / s,
        '×',
        `JSON.parse of the body + recognise + check: ${us(f)}`,
      );
    }
  }
}
