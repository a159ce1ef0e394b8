/**
 * Generate realistic transcripts for benchmarks and large-file tests (issue 7).
 *
 *   npm run gen -- --messages N --format F [--out FILE] [--seed S] [--mb M] [--broken B]
 *
 * Formats: anthropic-messages (a request body), openai-chat (a request body), claude-code-jsonl
 * (a session log, one JSON object per line, shaped as docs/formats.md#claude-code-jsonl says).
 * Content: coding-agent exchanges with parallel tool calls, error results, long results (file
 * reads, logs), thinking (Anthropic and Claude Code), and a few broken pairs (B, default one per
 * 20,000 messages, at least one): an unanswered call, an orphan result, or text before results.
 * Deterministic: the same options give the same bytes. `--mb M` keeps adding exchanges until the
 * output reaches M megabytes (then N is a minimum). Writes to stdout without --out.
 */
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { FormatId } from '../src/model/types.ts';
import {
  renderAnthropic,
  renderClaudeCode,
  renderOpenAI,
  TOOLS,
  type Call,
  type Res,
  type Turn,
} from './genRender.ts';

/** The formats the generator writes: ids of the format registry (a typo does not type-check). */
export const GEN_FORMATS = [
  'anthropic-messages',
  'openai-chat',
  'claude-code-jsonl',
] as const satisfies readonly FormatId[];
export type GenFormat = (typeof GEN_FORMATS)[number];

export interface GenOptions {
  /** Entries in the primary list (messages, or JSONL lines), at least. */
  messages: number;
  format: GenFormat;
  seed?: number;
  /** Keep going until the output has this many megabytes (10^6 bytes). */
  mb?: number;
  /** Number of broken pairs to plant; default max(1, messages / 20,000). */
  broken?: number;
}

/** mulberry32: a small seeded PRNG, uniform in [0, 1). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS =
  'the service returns a timeout when the pool is exhausted so we retry with backoff and log each attempt before the handler reads config from disk parses yaml validates schema writes metrics flushes cache and answers the request'.split(
    ' ',
  );
const FILES = [
  'src/server.ts',
  'src/db/pool.ts',
  'config/app.yaml',
  'tests/api.test.ts',
  'README.md',
  'src/handlers/checkout.ts',
  'package.json',
  'src/util/retry.ts',
];

class Writer {
  private r: () => number;
  private idn = 0;
  constructor(seed: number) {
    this.r = rng(seed);
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.r() * (hi - lo + 1));
  }
  chance(p: number): boolean {
    return this.r() < p;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.r() * xs.length)] as T;
  }
  sentence(words: number): string {
    const out: string[] = [];
    for (let i = 0; i < words; i++) out.push(this.pick(WORDS));
    const s = out.join(' ');
    return s.charAt(0).toUpperCase() + s.slice(1) + '.';
  }
  id(prefix: string): string {
    return `${prefix}${(this.idn++).toString(36).padStart(6, '0')}${this.int(0, 1e6).toString(36)}`;
  }
  /** A tool result body: mostly short, sometimes a long file read or log dump. */
  resultText(name: string): string {
    const long = this.chance(0.08);
    const lines = long ? this.int(80, 400) : this.int(1, 12);
    const out: string[] = [];
    for (let i = 0; i < lines; i++)
      out.push(
        name === 'Read'
          ? `${String(i + 1).padStart(4)}\t${this.sentence(this.int(4, 12))}`
          : `${this.pick(FILES)}:${this.int(1, 900)}: ${this.sentence(this.int(3, 9))}`,
      );
    return out.join('\n');
  }
}

/** One exchange: a user prompt, 0–4 rounds of (parallel) calls and results, a final answer. */
function exchange(w: Writer, callPrefix: string, thinking: boolean): Turn[] {
  const turns: Turn[] = [{ kind: 'user', text: w.sentence(w.int(6, 30)) }];
  const rounds = w.int(0, 4);
  for (let r = 0; r < rounds; r++) {
    const n = w.chance(0.3) ? w.int(2, 4) : 1;
    const calls: Call[] = [];
    for (let c = 0; c < n; c++) {
      const name = w.pick(TOOLS);
      const input =
        name === 'Bash'
          ? { command: `grep -rn "${w.pick(WORDS)}" ${w.pick(FILES)}`, description: w.sentence(4) }
          : { file_path: w.pick(FILES) };
      calls.push({ id: w.id(callPrefix), name, input });
    }
    turns.push({
      kind: 'assistant',
      thinking: thinking && w.chance(0.6) ? w.sentence(w.int(10, 60)) : null,
      text: w.chance(0.4) ? w.sentence(w.int(5, 20)) : null,
      calls,
    });
    turns.push({
      kind: 'results',
      results: calls
        .map((c) => ({
          id: c.id,
          text: w.chance(0.07) ? `Error: ${w.sentence(6)}` : w.resultText(c.name),
          isError: false,
        }))
        .map((x) => ({ ...x, isError: x.text.startsWith('Error:') })),
      textFirst: null,
    });
  }
  turns.push({
    kind: 'assistant',
    thinking: thinking && w.chance(0.3) ? w.sentence(w.int(10, 40)) : null,
    text: w.sentence(w.int(10, 80)),
    calls: [],
  });
  return turns;
}

/** A copy of an exchange with a broken pair: a result dropped, an orphan, or text before the results. */
function breakExchange(w: Writer, turns: Turn[]): Turn[] {
  const ri = turns.findIndex((t) => t.kind === 'results');
  if (ri < 0) return turns;
  const res = turns[ri] as Extract<Turn, { kind: 'results' }>;
  const copy: Extract<Turn, { kind: 'results' }> = {
    ...res,
    results: res.results.map((r) => ({ ...r })),
  };
  const mode = w.int(0, 2);
  if (mode === 0 && copy.results.length > 1) copy.results.pop();
  else if (mode === 1) (copy.results[0] as Res).id = w.id('orphan_');
  else copy.textFirst = 'Before the results: the user interrupted.';
  return turns.map((t, i) => (i === ri ? copy : t));
}

function turnCount(t: Turn, format: GenFormat): number {
  if (format === 'anthropic-messages') return 1;
  if (format === 'openai-chat')
    return t.kind === 'results' ? t.results.length + (t.textFirst ? 1 : 0) : 1;
  // claude-code-jsonl: one line per content block
  if (t.kind === 'user') return 1;
  if (t.kind === 'results') return t.results.length + (t.textFirst ? 1 : 0);
  return (t.thinking ? 1 : 0) + (t.text ? 1 : 0) + t.calls.length || 1;
}

/** Rough size of a turn in bytes (calibrated against the rendered output when --mb is used). */
function turnBytes(t: Turn): number {
  if (t.kind === 'results') return t.results.reduce((s, r) => s + r.text.length + 100, 0);
  if (t.kind === 'user') return t.text.length + 50;
  return (t.thinking?.length ?? 0) + (t.text?.length ?? 0) + t.calls.length * 150 + 100;
}

/** Generate a transcript as text (JSON or JSONL). Deterministic for the same options. */
export function generate(opts: GenOptions): string {
  const seed = opts.seed ?? 1;
  const w = new Writer(seed);
  const format = opts.format;
  const minBytes = (opts.mb ?? 0) * 1e6;
  const thinking = format !== 'openai-chat';
  const callPrefix = format === 'openai-chat' ? 'call_' : 'toolu_';
  const exchanges: Turn[][] = [];
  let count = format === 'openai-chat' ? 1 : 0; // the system message
  let est = 0;
  let factor = 1;
  let goal = minBytes / 8; // a first, small pass calibrates the size estimate
  const grow = () => {
    while (count < opts.messages || est * factor < goal) {
      const x = exchange(w, callPrefix, thinking);
      exchanges.push(x);
      for (const t of x) {
        count += turnCount(t, format);
        est += turnBytes(t);
      }
    }
  };
  const render = (): string => {
    // Broken pairs at evenly spread exchanges that have calls (a separate stream: same bytes on re-render).
    const bw = new Writer(seed + 1);
    const brokenTotal = opts.broken ?? Math.max(1, Math.floor(count / 20000));
    const withCalls = exchanges
      .map((x, i) => (x.some((t) => t.kind === 'results') ? i : -1))
      .filter((i) => i >= 0);
    const broken = new Set<number>();
    for (let b = 0; b < brokenTotal && withCalls.length > 0; b++)
      broken.add(withCalls[Math.floor(((b + 0.5) * withCalls.length) / brokenTotal)] as number);
    const turns = exchanges.flatMap((x, i) => (broken.has(i) ? breakExchange(bw, x) : x));
    // A request body is sent after a user turn; a log simply ends.
    if (format !== 'claude-code-jsonl') turns.push({ kind: 'user', text: 'Continue.' });
    const rw = new Writer(seed + 2);
    switch (format) {
      case 'anthropic-messages':
        return renderAnthropic(turns);
      case 'openai-chat':
        return renderOpenAI(turns);
      case 'claude-code-jsonl':
        return renderClaudeCode(turns, rw);
    }
  };
  grow();
  let text = render();
  while (text.length < minBytes) {
    factor = text.length / est;
    goal = minBytes;
    grow();
    text = render();
  }
  return text;
}

function main(argv: string[]): void {
  const get = (name: string): string | undefined => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const format = (get('format') ?? 'anthropic-messages') as GenFormat;
  if (!GEN_FORMATS.includes(format))
    throw new Error(`--format must be one of ${GEN_FORMATS.join(', ')}`);
  const messages = Number(get('messages') ?? '1000');
  if (!Number.isInteger(messages) || messages < 1)
    throw new Error('--messages needs a whole number ≥ 1');
  const mb = get('mb');
  const broken = get('broken');
  const text = generate({
    messages,
    format,
    seed: Number(get('seed') ?? '1'),
    ...(mb ? { mb: Number(mb) } : {}),
    ...(broken ? { broken: Number(broken) } : {}),
  });
  const out = get('out');
  if (out) {
    writeFileSync(out, text);
    process.stderr.write(`wrote ${out}: ${(text.length / 1e6).toFixed(1)} MB, ${format}\n`);
  } else process.stdout.write(text);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    main(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`error: ${(e as Error).message}\n`);
    process.exitCode = 2;
  }
}
