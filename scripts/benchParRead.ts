/**
 * The read of a large JSON Lines file on one worker against the same read split over two workers
 * (issue 38; scripts/benchParReadWorker.ts says how). In one blank page of Chromium, fresh workers
 * each round, the modes alternated; each line is one round with the machine's idle share in the
 * 400 ms before it (/proc/stat: other jobs on this shared machine). Prints the median of each.
 *
 *   npx tsx scripts/benchParRead.ts [--file F] [--rounds N] [--split S] [--long L]
 *     [--modes one,floor,two,half,bare,check]  (split: the first worker's share of the bytes; long: the
 *     shortest string that crosses joined, less one; modes: scripts/benchParReadWorker.ts)
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { launchChromium } from './benchPage.ts';

/** The share of the machine's CPU time idle over the next `ms` (Linux; NaN elsewhere). */
function idleShare(ms: number): Promise<number> {
  const read = (): number[] => {
    try {
      const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
      return cpu.split(/\s+/).slice(1).map(Number);
    } catch {
      return [];
    }
  };
  const a = read();
  return new Promise((r) =>
    setTimeout(() => {
      const d = read().map((x, i) => x - (a[i] ?? 0));
      const total = d.reduce((x, y) => x + y, 0);
      r(total > 0 ? ((d[3] ?? 0) + (d[4] ?? 0)) / total : NaN);
    }, ms),
  );
}

/** One round in the page: fresh workers (wired for 'two'), the job, its answer. */
const ROUND = `(async ([src, mode, split, long]) => {
  const f = document.getElementById('f').files[0];
  const url = URL.createObjectURL(new Blob([src], { type: 'text/javascript' }));
  const ask = (w, data, tr) => new Promise((r) => {
    w.onmessage = (e) => r(e.data);
    w.onerror = (e) => r('worker error: ' + e.message);
    w.postMessage(data, tr || []);
  });
  const a = new Worker(url);
  await ask(a, 'ready?');
  let b = null;
  if (mode !== 'one' && mode !== 'half') {
    b = new Worker(url);
    await ask(b, 'ready?');
    const ch = new MessageChannel();
    await ask(a, { port: ch.port1, role: 'A' }, [ch.port1]);
    await ask(b, { port: ch.port2, role: 'B' }, [ch.port2]);
  }
  const job = ask(a, { mode, file: f, split, long });
  const late = new Promise((r) => setTimeout(() => r(null), 45000));
  let out = await Promise.race([job, late]);
  if (out === null) {
    const say = (w) => new Promise((r) => { w.onmessage = (e) => r(e.data); w.postMessage('where?'); setTimeout(() => r('no reply'), 3000); });
    out = 'stalled: ' + (await say(a)) + (b ? ' / ' + (await say(b)) : '');
  }
  a.terminate();
  b?.terminate();
  await new Promise((r) => setTimeout(r, 500));
  return out;
})`;

/** A round unanswered after this long is reported and ends the run (the page is left as is). */
const ROUND_MS = 60_000;

async function main(): Promise<void> {
  const { values: o } = parseArgs({
    options: {
      file: { type: 'string', default: 'bench-data/browser-claude-code-100k.jsonl' },
      rounds: { type: 'string', default: '6' },
      split: { type: 'string', default: '0.5' },
      modes: { type: 'string', default: 'one,two' },
      long: { type: 'string', default: '64' },
    },
  });
  const bundle = await build({
    entryPoints: [new URL('./benchParReadWorker.ts', import.meta.url).pathname],
    bundle: true,
    format: 'iife',
    target: 'es2022',
    write: false,
  });
  const src = bundle.outputFiles[0]?.text ?? '';
  const modes = (o.modes ?? '').split(',');
  const times = new Map<string, number[]>(modes.map((m) => [m, []]));
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    // A worker that ends before the round does (a crash: no error event reaches the page).
    let closed = 0;
    page.on('worker', (w) => w.on('close', () => closed++));
    await page.setContent('<input type="file" id="f">');
    await page.locator('#f').setInputFiles(o.file ?? '');
    rounds: for (let k = 0; k < Number(o.rounds); k++) {
      for (const mode of modes) {
        const idle = await idleShare(400);
        closed = 0;
        const round = page.evaluate(
          `${ROUND}(${JSON.stringify([src, mode, Number(o.split), Number(o.long)])})`,
        ) as Promise<{ ms?: number } | string | null>;
        let timer: NodeJS.Timeout | undefined;
        const r = await Promise.race([
          round,
          new Promise<string>((res) => {
            timer = setTimeout(
              () => res(`no answer in ${ROUND_MS} ms, ${closed} workers ended`),
              ROUND_MS,
            );
          }),
        ]);
        clearTimeout(timer);
        if (typeof r === 'string' && r.startsWith('no answer')) {
          console.log(`${mode} idle ${idle.toFixed(2)} ${r}`);
          break rounds;
        }
        if (typeof r === 'object' && typeof r?.ms === 'number') times.get(mode)?.push(r.ms);
        const shown = JSON.stringify(r, (_k, v: unknown) =>
          typeof v === 'number' ? Math.round(v * 10) / 10 : v,
        );
        console.log(`${mode} idle ${idle.toFixed(2)} ${shown}`);
      }
    }
  } finally {
    await browser.close();
  }
  for (const [mode, ts] of times) {
    const s = [...ts].sort((a, b) => a - b);
    console.log(
      `median ${mode}: ${Math.round(s[s.length >> 1] ?? NaN)} ms of ${s.map(Math.round).join(', ')}`,
    );
  }
}

void main();
