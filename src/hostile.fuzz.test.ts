/**
 * Fuzz suite (issue 14): fast-check mutations of the project's own fixtures (public/samples and
 * the case fixtures) fed to the CLI (every command, in-process) and to the worker's request loop
 * (text and streamed file, every post structured-cloned as postMessage does). Mutations:
 * truncation at each class of offset, byte flips, dropped and duplicated lines, deep nesting,
 * huge strings, swapped ids, gzip (whole or cut). Asserts: nothing throws, exit codes are 0/1/2,
 * every refusal (exit 2, a failed result) carries a message, no message is unbounded.
 * Bounded: a fixed number of runs per property, each property interrupted after a time limit
 * (then it passes with the runs made: the time bound keeps `npm test` predictable on a busy
 * machine; the count bounds it on a fast one).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { gzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { runCli } from './cli/commands.ts';
import { CASE_FIXTURES } from './model/testing/cases.ts';
import { decodeBytes } from './model/parse/bytes.ts';
import type { WorkerResponse } from './engine/protocol.ts';
import { resetRun, runRequest } from './engine/run.ts';

const SAMPLES = join(import.meta.dirname, '..', 'public', 'samples');

/** The project's own fixtures: name → text. */
const FIXTURES: [string, string][] = [
  ...readdirSync(SAMPLES)
    .filter((f) => /\.(json|jsonl)$/.test(f) && f !== 'index.json')
    .map((f): [string, string] => [f, readFileSync(join(SAMPLES, f), 'utf8')]),
  ...CASE_FIXTURES.slice(0, 6).map((c): [string, string] => [
    `case-${c.name}.json`,
    JSON.stringify(c.transcript),
  ]),
];

const enc = new TextEncoder();
const dec = new TextDecoder();

type Mutation =
  | { kind: 'truncate'; at: 'head' | 'string' | 'structural' | 'line' | 'tail' | 'any'; r: number }
  | { kind: 'flip'; flips: { r: number; x: number }[] }
  | { kind: 'dropLine' | 'dupLine'; r: number }
  | { kind: 'deep'; r: number; depth: number }
  | { kind: 'huge'; r: number; size: number }
  | { kind: 'swapIds'; a: number; b: number }
  | { kind: 'gzip'; cut: number | null };

const arbMutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({
    kind: fc.constant('truncate' as const),
    at: fc.constantFrom('head', 'string', 'structural', 'line', 'tail', 'any') as fc.Arbitrary<
      'head' | 'string' | 'structural' | 'line' | 'tail' | 'any'
    >,
    r: fc.double({ min: 0, max: 1, noNaN: true }),
  }),
  fc.record({
    kind: fc.constant('flip' as const),
    flips: fc.array(
      fc.record({
        r: fc.double({ min: 0, max: 1, noNaN: true }),
        x: fc.integer({ min: 1, max: 255 }),
      }),
      { minLength: 1, maxLength: 8 },
    ),
  }),
  fc.record({
    kind: fc.constantFrom('dropLine', 'dupLine') as fc.Arbitrary<'dropLine' | 'dupLine'>,
    r: fc.double({ min: 0, max: 1, noNaN: true }),
  }),
  fc.record({
    kind: fc.constant('deep' as const),
    r: fc.double({ min: 0, max: 1, noNaN: true }),
    depth: fc.oneof(fc.integer({ min: 200, max: 300 }), fc.integer({ min: 1000, max: 60_000 })),
  }),
  fc.record({
    kind: fc.constant('huge' as const),
    r: fc.double({ min: 0, max: 1, noNaN: true }),
    size: fc.integer({ min: 100_000, max: 3_000_000 }),
  }),
  fc.record({ kind: fc.constant('swapIds' as const), a: fc.nat(), b: fc.nat() }),
  fc.record({ kind: fc.constant('gzip' as const), cut: fc.option(fc.nat(), { nil: null }) }),
);

/** Offsets of a class in the text (a fallback of every offset when the class has none). */
function offsetsOf(text: string, at: Mutation & { kind: 'truncate' }): number {
  const pick = (xs: number[]) => xs[Math.floor(at.r * xs.length)] ?? Math.floor(at.r * text.length);
  const all = (re: RegExp) => [...text.matchAll(re)].map((m) => m.index);
  switch (at.at) {
    case 'head':
      return Math.floor(at.r * Math.min(3, text.length));
    case 'tail':
      return text.length - 1 - Math.floor(at.r * Math.min(3, text.length));
    case 'string':
      return pick(all(/"[^"\n]{2,}"/g).map((i) => i + 2));
    case 'structural':
      return pick(all(/[{}[\],:]/g));
    case 'line':
      return pick(all(/\n/g));
    default:
      return Math.floor(at.r * text.length);
  }
}

/** Apply a mutation; the result is bytes (a flip or gzip works on bytes), as a file would be. */
function apply(text: string, m: Mutation): Uint8Array<ArrayBuffer> {
  const lines = text.split('\n');
  const lineAt = (r: number) => Math.min(lines.length - 1, Math.floor(r * lines.length));
  switch (m.kind) {
    case 'truncate':
      return enc.encode(text.slice(0, offsetsOf(text, m)));
    case 'flip': {
      const b = enc.encode(text);
      for (const f of m.flips) {
        const i = Math.min(b.length - 1, Math.floor(f.r * b.length));
        b[i] = (b[i] as number) ^ f.x;
      }
      return b;
    }
    case 'dropLine':
      lines.splice(lineAt(m.r), 1);
      return enc.encode(lines.join('\n'));
    case 'dupLine': {
      const i = lineAt(m.r);
      lines.splice(i, 0, lines[i] as string);
      return enc.encode(lines.join('\n'));
    }
    case 'deep':
    case 'huge': {
      // A value replaces one of the text's string values (the document stays JSON).
      const spots = [...text.matchAll(/:\s*"(?:[^"\\\n]|\\.)*"/g)];
      const spot = spots[Math.floor(m.r * spots.length)];
      if (!spot) return enc.encode(text);
      const value =
        m.kind === 'deep'
          ? '['.repeat(m.depth) + ']'.repeat(m.depth)
          : JSON.stringify('word '.repeat(m.size / 5));
      const at = spot.index + spot[0].indexOf('"');
      return enc.encode(text.slice(0, at) + value + text.slice(spot.index + spot[0].length));
    }
    case 'swapIds': {
      const ids = [
        ...new Set(
          [...text.matchAll(/"(?:id|tool_use_id|tool_call_id|call_id)"\s*:\s*"([^"]+)"/g)].map(
            (x) => x[1] as string,
          ),
        ),
      ];
      if (ids.length < 2) return enc.encode(text);
      const a = ids[m.a % ids.length] as string;
      const b = ids[m.b % ids.length] as string;
      return enc.encode(text.replaceAll(a, '\u0000A').replaceAll(b, a).replaceAll('\u0000A', b));
    }
    case 'gzip': {
      const gz = new Uint8Array(gzipSync(enc.encode(text)));
      return m.cut === null ? gz : gz.slice(0, m.cut % gz.length);
    }
  }
}

/** A fixture (by index, so a counterexample names it without its text) and its mutations. */
const arbCase = fc
  .record({
    i: fc.nat(FIXTURES.length - 1),
    mutations: fc.array(arbMutation, { minLength: 1, maxLength: 2 }),
  })
  .map(({ i, mutations }) => ({
    fixture: FIXTURES[i] as [string, string],
    mutations,
    [fc.toStringMethod]: () => `${FIXTURES[i]?.[0]} ${JSON.stringify(mutations)}`,
  }));

/** The mutated file's bytes (mutations after a gzip would corrupt it on purpose: allowed). */
function build(fixture: [string, string], mutations: Mutation[]): Uint8Array<ArrayBuffer> {
  let bytes = enc.encode(fixture[1]);
  for (const m of mutations) bytes = apply(dec.decode(bytes), m);
  return bytes;
}

const BOUNDS = { numRuns: 60, interruptAfterTimeLimit: 40_000, markInterruptAsFailure: false };

/**
 * A message shown to the user: present, and a refusal of the input — never an internal failure
 * (the CLI's "failed while", the worker's "failed while" / "failed on this input").
 */
function expectMessage(s: string): void {
  expect(s.trim().length).toBeGreaterThan(10);
  expect(s).not.toMatch(/failed while|failed on this input|Maximum call stack|could not be copied/);
}

describe('fuzz: mutated fixtures never crash the CLI', () => {
  const COMMANDS = [
    ['check'],
    ['repair'],
    ['simulate', '--policy', 'exchange', '--budget', '500'],
    ['sweep'],
    ['check', '--requests'],
    // Any name reads the fixture's bytes: a diff of the fixture with itself.
    ['diff', 'again.json'],
    ['diff', '--request', '2'],
  ];
  it('exit 0, 1 or 2; exit 2 always with one error message, never the usage text', async () => {
    await fc.assert(
      fc.asyncProperty(arbCase, fc.nat(COMMANDS.length - 1), async ({ fixture, mutations }, c) => {
        const bytes = build(fixture, mutations);
        const [cmd, ...flags] = COMMANDS[c] as [string, ...string[]];
        let out = '';
        let err = '';
        const code = await runCli([cmd, fixture[0], ...flags], {
          // As main.ts reads a file: decodeBytes (gunzip under the limit, UTF-8 checked).
          read: (f) => {
            const d = decodeBytes(bytes);
            if (!d.ok) throw new Error(d.error.message);
            return { text: d.value, name: f };
          },
          out: (s) => (out += s),
          err: (s) => (err += s),
        });
        expect([0, 1, 2]).toContain(code);
        if (code === 2) {
          // Notes said while reading (which request of a file was read) may come first, as a
          // diff reads its first file before the second fails; then one error message.
          const notes = /^(note: [^\n]*\n)*/.exec(err)?.[0] ?? '';
          expect(err.slice(notes.length)).toMatch(/^error: /);
          expectMessage(err);
          expect(err).not.toContain('usage:');
          for (const line of err.split('\n')) expect(line.length).toBeLessThan(2600);
        } else expect(out.length).toBeGreaterThan(0);
      }),
      BOUNDS,
    );
  }, 120_000);
});

describe('fuzz: mutated fixtures never hang or crash the worker', () => {
  it('every request ends in one result; a failed one says why; every post can be cloned', async () => {
    let id = 0;
    await fc.assert(
      fc.asyncProperty(arbCase, fc.boolean(), async ({ fixture, mutations }, asFile) => {
        resetRun();
        const bytes = build(fixture, mutations);
        const posts: WorkerResponse[] = [];
        const post = (m: WorkerResponse, tr: Transferable[] = []) => {
          posts.push(structuredClone(m, { transfer: tr }));
        };
        const d = asFile ? null : decodeBytes(bytes);
        if (d && !d.ok) {
          expectMessage(d.error.message);
          return;
        }
        const req = asFile
          ? {
              text: '',
              name: fixture[0],
              format: null,
              provider: null,
              file: new Blob([bytes.slice()]),
            }
          : { text: d?.ok ? d.value : '', name: fixture[0], format: null, provider: null };
        id++;
        await runRequest({ id, req, bpe: false, ...(asFile ? { fileKey: id } : {}) }, post);
        const results = posts.filter((p) => p.kind === 'result');
        expect(results).toHaveLength(1);
        const r = results[0];
        if (r?.kind === 'result' && !r.result.ok) {
          expectMessage(r.result.error.message);
          expect(r.result.error.message.length).toBeLessThanOrEqual(2000);
          expect((r.result.error.location?.lineText.length ?? 0) < 200).toBe(true);
        }
      }),
      BOUNDS,
    );
  }, 120_000);
});
