/**
 * What the checked fetch costs where it has nothing to say (issue 36): a 300 MB stream and a 50 MB
 * Blob POSTed to a URL that is no provider endpoint (a storage upload), through the checked fetch
 * (throw mode) and through the bare inner fetch. The inner fetch is a stub that takes the body as a
 * network would (reads it to the end, keeping nothing), so the figures are the checked fetch's own.
 *
 * - time: from the call to the inner fetch having the whole body (the upload done), ÷ the same for
 *   the bare fetch, in one warm process, 25 runs per side in turn; the time to the inner fetch's
 *   call itself is in the note (µs: the checked fetch calls it before returning), also for a
 *   first call in a fresh process.
 * - memory: the process's peak RSS ÷ the bare fetch's, each run in a fresh process (node, tsx and
 *   the library loaded in both), 3 per side.
 *
 * `checked_fetch_passthrough_overhead` is the worst of the four ratios (target ≤ 1.05). Each side
 * is the least of its runs (other jobs on a shared machine only add to either). `npm run bench -- --only fetch` runs this section alone.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createCheckedFetch, type FetchLike } from '../src/lib/fetch.ts';
import { line } from './benchLine.ts';

const MB = 1024 * 1024;
const CHUNK = 64 * 1024;
/** Timed runs per side in one process; fresh processes per side for peak memory. */
const RUNS = 25;
const MEMORY_RUNS = 3;
const TARGET = 1.05;
const URL_ = 'https://storage.example/upload/session.bin';

type Kind = 'stream' | 'blob';
interface Sample {
  /** ms from the call to the inner fetch's call. */
  toCall: number;
  /** ms from the call to the inner fetch having read the whole body. */
  toDrained: number;
  /** Peak RSS of the process, bytes. */
  maxRss: number;
}

/** A stream of `bytes` in 64 KiB chunks (one buffer reused: nothing of it is kept). */
function stream(bytes: number): ReadableStream<Uint8Array> {
  const chunk = new Uint8Array(CHUNK).fill(120);
  let left = bytes;
  return new ReadableStream<Uint8Array>({
    pull(c) {
      if (left <= 0) return c.close();
      const n = Math.min(CHUNK, left);
      left -= n;
      c.enqueue(n === CHUNK ? chunk : chunk.subarray(0, n));
    },
  });
}

async function drain(body: BodyInit | null | undefined): Promise<number> {
  const s = body instanceof ReadableStream ? body : body instanceof Blob ? body.stream() : null;
  if (!s) return 0;
  const r = (s as ReadableStream<Uint8Array>).getReader();
  let n = 0;
  for (;;) {
    const { done, value } = await r.read();
    if (done) return n;
    n += value.byteLength;
  }
}

/**
 * Times in one warm process: bare and checked in turn, `RUNS` times each, the same body kind;
 * prints the least time of each side (to the inner call, to the upload done) as JSON.
 */
async function timesChild(kind: Kind): Promise<void> {
  const best = {
    bare: { toCall: Infinity, toDrained: Infinity },
    checked: { toCall: Infinity, toDrained: Infinity },
  };
  let called = 0;
  let drained = 0;
  const inner: FetchLike = async (_input, init) => {
    called = performance.now();
    await drain(init?.body);
    drained = performance.now();
    return new Response(null, { status: 201 });
  };
  const checked = createCheckedFetch({ fetch: inner, mode: 'throw' });
  const blob = new Blob([new Uint8Array(50 * MB).fill(120)]);
  for (let i = 0; i < RUNS; i++)
    // Each side first in every other round: neither gets the warmer slot.
    for (const side of i % 2 === 0
      ? (['bare', 'checked'] as const)
      : (['checked', 'bare'] as const)) {
      const body = kind === 'stream' ? stream(300 * MB) : blob;
      const f = side === 'checked' ? checked : inner;
      const t0 = performance.now();
      await f(URL_, { method: 'POST', body, duplex: 'half' } as RequestInit);
      const b = best[side];
      b.toCall = Math.min(b.toCall, called - t0);
      b.toDrained = Math.min(b.toDrained, drained - t0);
    }
  process.stdout.write(JSON.stringify(best));
}

/** One run in this process: `checked` or bare, a stream or a Blob; prints a Sample as JSON. */
async function child(variant: 'checked' | 'bare', kind: Kind): Promise<void> {
  const body = kind === 'stream' ? stream(300 * MB) : new Blob([new Uint8Array(50 * MB).fill(120)]);
  // The Blob's source array is garbage now: collect it, so both sides start from the same heap.
  (globalThis as { gc?: () => void }).gc?.();
  let called = 0;
  let drained = 0;
  const inner: FetchLike = async (_input, init) => {
    called = performance.now();
    await drain(init?.body);
    drained = performance.now();
    return new Response(null, { status: 201 });
  };
  const checked = createCheckedFetch({ fetch: inner, mode: 'throw' });
  const f = variant === 'checked' ? checked : inner;
  const t0 = performance.now();
  const res = await f(URL_, { method: 'POST', body, duplex: 'half' } as RequestInit);
  if (res.status !== 201) throw new Error('the stub did not answer');
  const sample: Sample = {
    toCall: called - t0,
    toDrained: drained - t0,
    maxRss: process.resourceUsage().maxRSS * 1024,
  };
  process.stdout.write(JSON.stringify(sample));
}

/** The least of the runs: on a shared machine, other jobs only ever add time and memory. */
function least(xs: number[]): number {
  return Math.min(...xs);
}

function node(root: string, args: string[]): string {
  const script = fileURLToPath(import.meta.url);
  return execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', script, ...args], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
}

function run(root: string, variant: 'checked' | 'bare', kind: Kind): Sample {
  return JSON.parse(node(root, ['--fetch-child', variant, kind])) as Sample;
}

type Times = Record<'bare' | 'checked', Pick<Sample, 'toCall' | 'toDrained'>>;

/** Print `checked_fetch_passthrough_overhead` and its four ratios. */
export function benchFetch(root: string): void {
  const ratios: number[] = [];
  for (const [kind, label] of [
    ['stream', 'stream_300mb'],
    ['blob', 'blob_50mb'],
  ] as const) {
    const bare: Sample[] = [];
    const checked: Sample[] = [];
    for (let i = 0; i < MEMORY_RUNS; i++) {
      bare.push(run(root, 'bare', kind));
      checked.push(run(root, 'checked', kind));
    }
    const m = (xs: Sample[], k: keyof Sample) => least(xs.map((x) => x[k]));
    const t = JSON.parse(node(root, ['--fetch-times', kind])) as Times;
    const time = t.checked.toDrained / t.bare.toDrained;
    const memory = m(checked, 'maxRss') / m(bare, 'maxRss');
    ratios.push(time, memory);
    const us = (ms: number) => `${(ms * 1000).toFixed(0)} µs`;
    line(
      `checked_fetch_passthrough_${label}_time`,
      time,
      '×',
      `to the upload done: ${t.checked.toDrained.toFixed(1)} ms vs bare ${t.bare.toDrained.toFixed(1)} ms; to the inner call: ${us(t.checked.toCall)} vs ${us(t.bare.toCall)} (warm); first call in a fresh process: ${us(m(checked, 'toCall'))} vs ${us(m(bare, 'toCall'))}`,
    );
    line(
      `checked_fetch_passthrough_${label}_memory`,
      memory,
      '×',
      `peak RSS ${(m(checked, 'maxRss') / MB).toFixed(0)} MB vs bare ${(m(bare, 'maxRss') / MB).toFixed(0)} MB`,
    );
  }
  line(
    'checked_fetch_passthrough_overhead',
    Math.max(...ratios),
    '×',
    `worst of time and peak memory ÷ the bare fetch, a 300 MB stream and a 50 MB Blob to a non-provider URL; target ≤ ${TARGET}`,
  );
}

const at = process.argv.indexOf('--fetch-child');
if (at >= 0) await child(process.argv[at + 1] as 'checked' | 'bare', process.argv[at + 2] as Kind);
const timesAt = process.argv.indexOf('--fetch-times');
if (timesAt >= 0) await timesChild(process.argv[timesAt + 1] as Kind);
