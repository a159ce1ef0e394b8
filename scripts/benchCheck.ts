/**
 * The library's cost in the request path (issue 17): `check` of one request body, and the whole
 * checked fetch (read the body text the SDK wrote, `JSON.parse`, recognise the API, check), each
 * as a ratio to `JSON.stringify` of the same body, which the SDK pays anyway (target ≤ 1×), at
 * 10, 100 and 1,000 messages of the five request APIs the checked fetch recognises: generated
 * Anthropic Messages and OpenAI Chat bodies, and the Anthropic body written as a Responses, Gemini
 * and Bedrock Converse (Claude) request by the model's own writers.
 *
 * Times are CPU time of the process (`process.cpuUsage`), not wall time: on a machine shared with
 * other jobs wall time mostly measures the neighbours (a 40 ms window is preempted several times
 * at a load of 10 on 2 cores). Both sides of each ratio are measured the same way, interleaved,
 * median of 9 rounds of 40 ms after a warm-up (V8 compiles the check's functions as they get
 * hot). GC helper threads count against the side that allocates (`check`).
 * `npm run bench -- --only check` runs this section alone.
 */
import { check } from '../src/lib/check.ts';
import { createCheckedFetch } from '../src/lib/fetch.ts';
import { read } from '../src/lib/read.ts';
import { parseTranscript } from '../src/model/parse/index.ts';
import type { FormatId } from '../src/model/types.ts';
import { writeTranscript } from '../src/model/write.ts';
import { generate, type GenFormat } from './gen.ts';
import { line } from './benchLine.ts';

const SIZES = [10, 100, 1000] as const;
/** The ratio `check` ÷ `JSON.stringify` must stay under (issue 17). */
const TARGET = 1;
/** CPU milliseconds of calls before the measured rounds of each body. */
const WARM_UP_MS = 400;

interface Api {
  label: string;
  url: string;
  /** A valid request body of about `messages` entries. */
  body: (messages: number) => object;
}

const us = (ms: number) => `${(ms * 1000).toFixed(0)} µs`;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

/** Milliseconds of CPU time since some fixed point (all threads of this process). */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** CPU milliseconds per call of `f`, over enough calls to last about `ms`. */
async function perCall(f: () => unknown, ms: number): Promise<number> {
  let n = 1;
  for (;;) {
    const t0 = cpuMs();
    for (let i = 0; i < n; i++) await f();
    const dt = cpuMs() - t0;
    if (dt >= ms) return dt / n;
    n *= 2;
  }
}

/**
 * A generated body of about `messages` entries that the provider accepts (a request that is
 * sent): the first `messages`, less the trailing ones up to where the last call is answered.
 */
function generated(format: GenFormat, messages: number): { messages: unknown[] } {
  const value = JSON.parse(generate({ format, messages, seed: 17, broken: 0 })) as {
    messages: unknown[];
  };
  value.messages = value.messages.slice(0, messages);
  while (value.messages.length > 1 && !check(value).valid) value.messages.pop();
  return value;
}

/**
 * The generated Anthropic body of `messages` entries written in another API's format by that
 * format's writer (every message rebuilt from its blocks), around `raw` (the body's other fields).
 */
function converted(format: FormatId, listKey: string, raw: object, messages: number): object {
  const parsed = parseTranscript(JSON.stringify(generated('anthropic-messages', messages)));
  if (!parsed.ok) throw new Error(parsed.error.message);
  const t = parsed.value.transcript;
  const rebuilt = t.messages.map((m) => ({ ...m, raw: undefined }));
  const text = writeTranscript({ ...t, format, listKey, raw, messages: rebuilt });
  return JSON.parse(text) as object;
}

const CLAUDE_ON_BEDROCK = 'anthropic.claude-sonnet-4-5-20250929-v1:0';

const APIS: readonly Api[] = [
  {
    label: 'anthropic',
    url: 'https://api.anthropic.com/v1/messages',
    body: (n) => generated('anthropic-messages', n),
  },
  {
    label: 'openai_chat',
    url: 'https://api.openai.com/v1/chat/completions',
    body: (n) => generated('openai-chat', n),
  },
  {
    label: 'openai_responses',
    url: 'https://api.openai.com/v1/responses',
    body: (n) => converted('openai-responses', 'input', { model: 'gpt-5' }, n),
  },
  {
    label: 'gemini',
    url: 'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-pro:generateContent',
    body: (n) => converted('gemini', 'contents', {}, n),
  },
  {
    label: 'bedrock',
    url: `https://bedrock-runtime.us-east-1.amazonaws.com/model/${CLAUDE_ON_BEDROCK}/converse`,
    body: (n) => converted('bedrock-converse', 'messages', { modelId: CLAUDE_ON_BEDROCK }, n),
  },
];

/** Print `check_vs_stringify_*` and `checked_fetch_vs_stringify_*` for every API and size. */
export async function benchCheck(): Promise<void> {
  // One response object, so the figure is the checked fetch's own work, not a stub's Response.
  const reply = new Response('{}');
  const ok = () => Promise.resolve(reply);
  const fetch = createCheckedFetch({ fetch: ok, mode: 'throw' });
  // Every body is valid, so the figures are the cost of a request that is sent.
  for (const { label, url, body } of APIS) {
    for (const n of SIZES) {
      const value = body(n);
      const text = JSON.stringify(value);
      const verdict = check(value);
      const init = { method: 'POST', body: text };
      // Warm up first: the check runs through a few hundred functions that V8 compiles as they
      // get hot, over the first few hundred milliseconds; an agent loop pays that once, not per
      // request (without it the median lands on rounds still 3–10× slower).
      await perCall(() => check(value), WARM_UP_MS);
      await perCall(() => fetch(url, init), WARM_UP_MS);
      const rounds = { stringify: [] as number[], check: [] as number[], fetch: [] as number[] };
      for (let r = 0; r < 9; r++) {
        rounds.stringify.push(await perCall(() => JSON.stringify(value), 40));
        rounds.check.push(await perCall(() => check(value), 40));
        rounds.fetch.push(await perCall(() => fetch(url, init), 40));
      }
      const s = median(rounds.stringify);
      const count = read(value).transcript.messages.length;
      const size = `${(text.length / 1024).toFixed(0)} KiB`;
      const note = `${verdict.format}, ${count} messages, ${size}, ${verdict.valid ? 'valid' : 'INVALID'}; stringify ${us(s)}`;
      const c = median(rounds.check);
      const f = median(rounds.fetch);
      line(
        `check_vs_stringify_${label}_${n}`,
        c / s,
        '×',
        `${note}; check ${us(c)} (CPU); target ≤ ${TARGET}`,
      );
      line(
        `checked_fetch_vs_stringify_${label}_${n}`,
        f / s,
        '×',
        `JSON.parse of the body + recognise + check: ${us(f)}`,
      );
    }
  }
}
