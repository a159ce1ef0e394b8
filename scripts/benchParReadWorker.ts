/**
 * The worker of scripts/benchParRead.ts (bundled by it with esbuild; a classic worker in a blank
 * page): the read of a JSON Lines file by the app's own reader (engine/stream.ts
 * `readBlobSource`, slimmed for a Claude Code log as the app does) on one worker, against the same
 * read split at a newline over two. In the split, worker B reads, parses and slims the second part,
 * then sends its records as what crosses cheaply: every string longer than `LONG` characters
 * joined into one string (offsets in a Float64Array, taken in walk order) and the rest of the
 * records as JSON text with each such string replaced by a marker; worker A reads the first part
 * meanwhile, then parses that text and puts the strings back (`big.slice`).
 *
 * Messages: 'ready?' → 'ready'; {port, role: 'A'|'B'} wires the two; {mode, file, split, long}
 * to A: 'one' (the whole file here), 'half' (only the first part here, nothing else running),
 * 'two', 'bare' (both parts read at once, nothing crossing: the bound of any join), 'check' (the
 * records of 'one' and 'two' compared). A answers the times (ms, its own clock) of each step.
 */
import { readBlobSource } from '../src/engine/stream.ts';
import { claudeCodeSlimmer } from '../src/model/parse/claudeCode/claudeCodeSlim.ts';
import type { JsonlLine } from '../src/model/parse/json.ts';
import type { StreamedSource } from '../src/engine/stream.ts';

/** Strings longer than this cross joined (block texts); shorter ones stay in the JSON text. */
let LONG = 64;
/** The marker of a joined string; a short string starting with it is escaped by another. */
const MARK = '\u0001';

type Node = Record<string, unknown> | unknown[];

/** Replace long strings in `v` (in place) by MARK, pushing them to `big`; escape short MARK ones. */
function cut(v: Node, big: string[]): void {
  const one = (x: unknown): unknown => {
    if (typeof x === 'string') {
      if (x.length > LONG) {
        big.push(x);
        return MARK;
      }
      return x.charCodeAt(0) === 1 ? MARK + x : x;
    }
    if (typeof x === 'object' && x !== null) cut(x as Node, big);
    return x;
  };
  if (Array.isArray(v)) for (let i = 0; i < v.length; i++) v[i] = one(v[i]);
  else for (const k in v) v[k] = one(v[k]);
}

/** Undo `cut` on values parsed from its JSON text: strings from `big` at `ends`, in walk order. */
function paste(v: Node, big: string, ends: Float64Array, at: { k: number }): void {
  const one = (x: unknown): unknown => {
    if (typeof x === 'string') {
      if (x.charCodeAt(0) !== 1) return x;
      if (x.length > 1) return x.slice(1);
      const k = at.k++;
      return big.slice(k === 0 ? 0 : (ends[k - 1] as number), ends[k]);
    }
    if (typeof x === 'object' && x !== null) paste(x as Node, big, ends, at);
    return x;
  };
  if (Array.isArray(v)) for (let i = 0; i < v.length; i++) v[i] = one(v[i]);
  else for (const k in v) v[k] = one(v[k]);
}

/**
 * The bench's floor (scripts/benchFloor.ts): the file streamed, decoded and every line
 * `JSON.parse`d and kept, nothing else — beside 'one' in the same page and rounds, what the app's
 * reader costs beyond it.
 */
async function readFloor(f: Blob): Promise<unknown[]> {
  const reader = f.stream().getReader();
  const decoder = new TextDecoder();
  const values: unknown[] = [];
  let carry = '';
  for (;;) {
    const { done, value } = await reader.read();
    const s = carry + (done ? decoder.decode() : decoder.decode(value, { stream: true }));
    let a = 0;
    for (let b = s.indexOf('\n'); b >= 0; b = s.indexOf('\n', a)) {
      if (b > a) values.push(JSON.parse(s.slice(a, b)));
      a = b + 1;
    }
    carry = s.slice(a);
    if (done) break;
  }
  if (carry.trim()) values.push(JSON.parse(carry));
  return values;
}

/** The byte after the first newline at or after `at` (the file's size when there is none). */
async function cutAt(f: Blob, at: number): Promise<number> {
  for (let span = 1 << 16; at < f.size; span *= 4) {
    const bytes = new Uint8Array(await f.slice(at, at + span).arrayBuffer());
    const nl = bytes.indexOf(10);
    if (nl >= 0) return at + nl + 1;
  }
  return f.size;
}

const read = (b: Blob) =>
  readBlobSource(
    b,
    'bench.jsonl',
    () => {},
    () => claudeCodeSlimmer(),
  );

/** Lines in a part that ends with a newline: the last n whose span ends before `size`. */
function lineCount(span: (n: number) => [number, number], size: number): number {
  let lo = 0;
  let hi = size + 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (span(mid)[1] < size) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

interface FromB {
  small: string;
  big: string;
  ends: Float64Array;
  lineNos: Int32Array;
  readMs: number;
  encodeMs: number;
  /** Epoch ms (the workers' clocks have different origins). */
  postedAt: number;
}

const scope = self as unknown as {
  kept: unknown;
  onmessage: ((e: MessageEvent) => void) | null;
  postMessage(m: unknown, t?: Transferable[]): void;
};
let port: MessagePort | null = null;
/** What this worker is doing (answered to 'where?', for a round that gets no answer). */
let where = 'idle';

/** B for 'bare': read the part, keep it, post only how long that took. */
async function bareB(blob: Blob): Promise<void> {
  const t = performance.now();
  scope.kept = await read(blob);
  port?.postMessage(performance.now() - t);
}

/**
 * Both parts read at once, nothing crossing (the bound of any way of joining them): the ms from
 * `t` to both done, A's own and B's.
 */
async function readBare(file: Blob, at: number, t: number): Promise<Record<string, number>> {
  const p = port as MessagePort;
  const got = new Promise<number>((res) => {
    p.onmessage = (m) => res(m.data as number);
  });
  p.postMessage({ part: file.slice(at), long: LONG, bare: true });
  scope.kept = await read(file.slice(0, at));
  const aMs = performance.now() - t;
  const bReadMs = await got;
  return { ms: performance.now() - t, aMs, bReadMs };
}

/** B: read the part, then post it as `FromB`. */
async function partB(blob: Blob): Promise<void> {
  const t = performance.now();
  where = 'B reading';
  const r = await read(blob);
  const readMs = performance.now() - t;
  if (!r.ok || r.value.doc.kind !== 'jsonl') return port?.postMessage(null);
  where = 'B encoding';
  const lines = r.value.doc.lines;
  const lineNos = new Int32Array(lines.length);
  const values = lines.map((l, i) => ((lineNos[i] = l.line), l.value));
  const big: string[] = [];
  cut(values, big);
  const ends = new Float64Array(big.length);
  let p = 0;
  for (let i = 0; i < big.length; i++) ends[i] = p += (big[i] as string).length;
  const small = JSON.stringify(values);
  const joined = big.join('');
  const msg: FromB = {
    small,
    big: joined,
    ends,
    lineNos,
    readMs,
    encodeMs: performance.now() - t - readMs,
    postedAt: performance.timeOrigin + performance.now(),
  };
  where = 'B posting';
  port?.postMessage(msg, [ends.buffer, lineNos.buffer]);
  where = 'B posted';
}

scope.onmessage = (e: MessageEvent) => {
  void handle(e.data as 'ready?' | 'where?' | { port: MessagePort; role: string } | Job);
};

interface Job {
  mode: 'one' | 'floor' | 'half' | 'two' | 'bare' | 'check';
  file: Blob;
  split: number;
  /** `LONG` for this round (B's copy is set by A's message). */
  long: number;
}

async function handle(
  d: 'ready?' | 'where?' | { port: MessagePort; role: string } | Job,
): Promise<void> {
  if (d === 'ready?') return scope.postMessage('ready');
  if (d === 'where?') return scope.postMessage(where);
  if ('port' in d) {
    port = d.port;
    if (d.role === 'B')
      port.onmessage = (m) => {
        const job = m.data as { part: Blob; long: number; bare?: boolean };
        LONG = job.long;
        // A failure answers null (A then answers null), never silence.
        (job.bare ? bareB(job.part) : partB(job.part)).catch((e: unknown) => {
          console.error(e);
          port?.postMessage(null);
        });
      };
    return scope.postMessage('ok');
  }
  const t = performance.now();
  LONG = d.long;
  if (d.mode === 'one') {
    scope.kept = await read(d.file);
    return scope.postMessage({ ms: performance.now() - t });
  }
  if (d.mode === 'floor') {
    scope.kept = await readFloor(d.file);
    return scope.postMessage({ ms: performance.now() - t });
  }
  const at = await cutAt(d.file, Math.floor(d.file.size * d.split));
  if (d.mode === 'check') return scope.postMessage(await check(d.file, at));
  if (d.mode === 'half') {
    scope.kept = await read(d.file.slice(0, at));
    return scope.postMessage({ ms: performance.now() - t });
  }
  if (d.mode === 'bare') return scope.postMessage(await readBare(d.file, at, t));
  const r = await readTwo(d.file, at, t);
  if (!r) return scope.postMessage(null);
  scope.kept = r.src;
  scope.postMessage(r.figures);
}

/** The two-worker read of `file` split at byte `at` (the figures timed from `t`); null: failed. */
async function readTwo(
  file: Blob,
  at: number,
  t: number,
): Promise<{ src: StreamedSource; figures: Record<string, number> } | null> {
  const p = port as MessagePort;
  const got = new Promise<FromB | null>((res) => {
    p.onmessage = (m) => res(m.data as FromB | null);
  });
  p.postMessage({ part: file.slice(at), long: LONG });
  where = 'A reading';
  const r = await read(file.slice(0, at));
  const aMs = performance.now() - t;
  where = 'A waiting for B';
  const b = await got;
  where = 'A rebuilding';
  const gotAt = performance.now();
  if (!r.ok || r.value.doc.kind !== 'jsonl' || !b || !r.value.lineSpan) return null;
  const lines: JsonlLine[] = r.value.doc.lines;
  const base = lineCount(r.value.lineSpan, at);
  const values = JSON.parse(b.small) as unknown[];
  paste(values, b.big, b.ends, { k: 0 });
  for (let i = 0; i < values.length; i++)
    lines.push({ line: (b.lineNos[i] as number) + base, value: values[i] });
  const figures = {
    ms: performance.now() - t,
    lines: lines.length,
    aMs,
    waitMs: gotAt - t - aMs,
    bReadMs: b.readMs,
    bEncodeMs: b.encodeMs,
    postToGotMs: performance.timeOrigin + gotAt - b.postedAt,
    rebuildMs: performance.now() - gotAt,
    smallMB: b.small.length / 1e6,
    bigMB: b.big.length / 1e6,
  };
  return { src: r.value, figures };
}

/**
 * Whether the two-worker read gives the one-worker read's lines (line numbers, values as JSON
 * text; B's first records are kept whole by its own preview, so slimmed both sides to compare).
 */
async function check(file: Blob, at: number): Promise<string> {
  const one = await read(file);
  const two = await readTwo(file, at, performance.now());
  if (!one.ok || one.value.doc.kind !== 'jsonl' || !two || two.src.doc.kind !== 'jsonl')
    return 'a read failed';
  const a = one.value.doc.lines;
  const b = two.src.doc.lines;
  if (a.length !== b.length) return `lines ${a.length} ≠ ${b.length}`;
  const slim = claudeCodeSlimmer();
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as JsonlLine;
    const y = b[i] as JsonlLine;
    const same =
      i < 80
        ? JSON.stringify(x.value) === JSON.stringify(y.value)
        : JSON.stringify(slim(x.value)) === JSON.stringify(slim(y.value));
    if (x.line !== y.line || !same) return `record ${i} (line ${x.line}/${y.line}) differs`;
  }
  return `equal: ${a.length} records`;
}
