/**
 * The floors of a load of a JSON Lines file (issue 20): what a worker that streams the file,
 * decodes it and `JSON.parse`s every line (kept), and nothing else, costs in a fresh page — on
 * one thread, and split by whole lines over one worker per core.
 */
import type { Page } from '@playwright/test';

/** In a worker: the blob (posted) streamed, decoded and parsed line by line; posts [ms, lines]. */
const FLOOR_WORKER = `onmessage = async (e) => {
  if (e.data === 'ready?') return postMessage('ready');
  const t = performance.now();
  const reader = e.data.stream().getReader();
  const decoder = new TextDecoder();
  const values = [];
  let carry = '';
  for (;;) {
    const { done, value } = await reader.read();
    const s = carry + (done ? decoder.decode() : decoder.decode(value, { stream: true }));
    let a = 0;
    for (let b = s.indexOf('\\n'); b >= 0; b = s.indexOf('\\n', a)) {
      if (b > a) values.push(JSON.parse(s.slice(a, b)));
      a = b + 1;
    }
    carry = s.slice(a);
    if (done) break;
  }
  if (carry.trim()) values.push(JSON.parse(carry));
  self.kept = values;
  postMessage([performance.now() - t, values.length]);
};`;

/** The page's side of `floors`, with the worker's source as its argument. */
const PAGE_FLOORS = `(async (src) => {
    const f = (document.getElementById('f')).files?.[0];
    const threads = Math.max(2, navigator.hardwareConcurrency || 2);
    if (!f) return { single: [], parallel: [], threads };
    const url = URL.createObjectURL(new Blob([src], { type: 'text/javascript' }));
    const settle = () => new Promise((r) => setTimeout(r, 300));
    const started = async (n) => {
      const ws = Array.from({ length: n }, () => new Worker(url));
      await Promise.all(ws.map((w) => ask(w, 'ready?')));
      return ws;
    };
    const ask = (w, data) =>
      new Promise((r) => {
        w.onmessage = (e) => r(e.data);
        w.postMessage(data);
      });
    const splitAt = async (at) => {
      for (let span = 1 << 20; at < f.size; span *= 4) {
        const bytes = new Uint8Array(await f.slice(at, at + span).arrayBuffer());
        const nl = bytes.indexOf(10);
        if (nl >= 0) return at + nl + 1;
        if (at + span >= f.size) break;
      }
      return f.size;
    };
    const single = [];
    const parallel = [];
    for (let k = 0; k < 3; k++) {
      const [w] = await started(1);
      single.push((await ask(w, f))[0]);
      w?.terminate();
      await settle();
    }
    for (let k = 0; k < 3; k++) {
      const ws = await started(threads);
      const t = performance.now();
      const cuts = [0];
      for (let i = 1; i < threads; i++)
        cuts.push(await splitAt(Math.floor((f.size * i) / threads)));
      cuts.push(f.size);
      await Promise.all(ws.map((w, i) => ask(w, f.slice(cuts[i], cuts[i + 1]))));
      parallel.push(performance.now() - t);
      for (const w of ws) w.terminate();
      await settle();
    }
    return { single, parallel, threads };
})(${JSON.stringify(FLOOR_WORKER)})`;

/**
 * The floors of the file in `page`'s `#f` input, 3 rounds each (ms): `single`, one worker's
 * own clock from the blob posted to every line parsed; `parallel`, the page's clock from the
 * first split point sought to the last of `threads` started workers done, each given the file's
 * lines from one split (a split point is the byte after the first newline past size·k/threads).
 */
export async function floors(
  page: Page,
): Promise<{ single: number[]; parallel: number[]; threads: number }> {
  // A string, not a function: the bundler's name helpers do not exist in the page.
  return page.evaluate(PAGE_FLOORS) as Promise<{
    single: number[];
    parallel: number[];
    threads: number;
  }>;
}
