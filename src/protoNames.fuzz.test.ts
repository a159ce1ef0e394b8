/**
 * Names of Object.prototype's members (issue 37): every format's reader, the OTel readers and
 * the CLI answer `constructor`, `toString`, `__proto__`, `hasOwnProperty`… as they answer any
 * unknown name. A lookup table written as an object literal found them on its prototype: role
 * `constructor` was read and judged valid where `bogus` was refused, a span event so named became
 * a message with no role, `cli constructor FILE` was a fault of the program.
 *
 * The property: a body of each format (every format of PARSERS, written from one small
 * transcript with a tool call; two OTel traces), one of its string values or keys replaced by a
 * prototype name, reads, pairs and validates exactly as the same body with an unknown name of the
 * same length (`bogusz…`) in its place, the name itself aside.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runCli } from './cli/commands.ts';
import { analyze } from './model/analyze.ts';
import { parseTranscript } from './model/parse/index.ts';
import { PARSERS } from './model/parse/registry.ts';
import { oncallSpans, oneSpan, toOtlp } from './model/testing/otel.fixtures.ts';
import { assistant, call, system, tool, transcript, user } from './model/testing/index.ts';
import type { FormatId, Transcript } from './model/types.ts';
import { writeTranscript } from './model/write.ts';

/** Every name Object.prototype answers, own or inherited accessor (`__proto__` included). */
const PROTO_NAMES: readonly string[] = Object.getOwnPropertyNames(Object.prototype);

/** An unknown name of the same length as `name` (`bogus`, then `z`s): the control. */
const unknownLike = (name: string): string =>
  `bogus${'z'.repeat(name.length)}`.slice(0, name.length);

/** A small transcript with each kind of turn, written in `format`. */
function bodyOf(format: FormatId): string {
  const t: Transcript = transcript(format, [
    system('Be brief.'),
    user('Is the payments database up?'),
    assistant('Checking.', call('call_1', 'ping', { host: 'db' })),
    tool('call_1', 'pong'),
    assistant('It is up.'),
  ]);
  return writeTranscript(t);
}

/** The documents: one per format, and OTel traces (the details event, the deprecated events). */
const DOCS: [string, string, FormatId | undefined][] = [
  ...PARSERS.map((p): [string, string, FormatId] => [p.id, bodyOf(p.id), p.id]),
  ['otel-otlp', JSON.stringify(toOtlp(oncallSpans())), undefined],
  [
    'otel-events',
    JSON.stringify(
      oneSpan({ 'gen_ai.system': 'openai', 'gen_ai.request.model': 'gpt-4o' }, [
        { name: 'gen_ai.system.message', attrs: { content: 'Be brief.' } },
        { name: 'gen_ai.user.message', attrs: { content: 'Is payments-db up?' } },
        { name: 'gen_ai.choice', attrs: { index: 0, message: '{"content":"It is up."}' } },
      ]),
    ),
    undefined,
  ],
];

/** Where a name can go in a JSON document: a string value or a key, numbered in document order. */
type Spot = { kind: 'value' | 'key'; n: number };

/** The document (JSON, or JSON Lines) with its `spot`-th string value or key replaced by `name`. */
function replaced(text: string, spot: Spot, name: string): string | null {
  let seen = 0;
  let hit = false;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string' && spot.kind === 'value') return seen++ === spot.n ? hitWith() : v;
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object') {
      const out: [string, unknown][] = [];
      for (const [k, x] of Object.entries(v)) {
        const key = spot.kind === 'key' && seen++ === spot.n ? hitWith() : k;
        out.push([key, walk(x)]);
      }
      return Object.fromEntries(out);
    }
    return v;
  };
  const hitWith = () => {
    hit = true;
    return name;
  };
  const out = isJsonLines(text)
    ? text
        .split('\n')
        .map((l) => (l.trim() === '' ? l : JSON.stringify(walk(JSON.parse(l)))))
        .join('\n')
    : JSON.stringify(walk(JSON.parse(text)));
  return hit ? out : null;
}

/** True when the text is not one JSON document (then each line is one). */
function isJsonLines(text: string): boolean {
  try {
    JSON.parse(text);
    return false;
  } catch {
    return true;
  }
}

/**
 * What the project answers for a text: the parse error, or the format, the messages (roles and
 * blocks, raws aside), the warnings, the pairs and the provider's violations. Token counts are
 * left out (two names of one length may still count differently).
 */
function answer(text: string, format: FormatId | undefined): string {
  const r = parseTranscript(text, format ? { format } : {});
  if (!r.ok) return JSON.stringify({ error: r.error.message, kind: r.error.kind });
  const t = r.value.transcript;
  const a = analyze(t);
  return JSON.stringify({
    format: t.format,
    messages: t.messages.map((m) => [m.role, m.blocks.map((b) => ({ ...b, raw: undefined }))]),
    warnings: t.warnings,
    pairs: a.pairs.map((p) => p.status),
    violations: a.validation.violations.map((v) => [v.code, v.message]),
  });
}

/** Every replaceable spot of a document (string values and keys). */
function spotsOf(text: string): Spot[] {
  const counts = { value: 0, key: 0 };
  const walk = (v: unknown): void => {
    if (typeof v === 'string') counts.value++;
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object')
      for (const [, x] of Object.entries(v)) {
        counts.key++;
        walk(x);
      }
  };
  const docs = isJsonLines(text)
    ? text
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => JSON.parse(l) as unknown)
    : [JSON.parse(text) as unknown];
  docs.forEach(walk);
  return [
    ...Array.from({ length: counts.value }, (_, n): Spot => ({ kind: 'value', n })),
    ...Array.from({ length: counts.key }, (_, n): Spot => ({ kind: 'key', n })),
  ];
}

describe('a prototype member name is answered as any unknown name', () => {
  it('has every prototype name in its list', () => {
    for (const n of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'])
      expect(PROTO_NAMES).toContain(n);
    expect(PROTO_NAMES).toContain('__defineGetter__');
    expect(DOCS.length).toBe(PARSERS.length + 2);
  });

  it.each(DOCS)('%s: every string value and key, every prototype name', (_, text, format) => {
    const spots = spotsOf(text);
    expect(spots.length).toBeGreaterThan(3);
    fc.assert(
      fc.property(
        fc.constantFrom(...spots),
        fc.constantFrom(...PROTO_NAMES),
        fc.boolean(),
        (spot, name, forced) => {
          const control = unknownLike(name);
          const asProto = replaced(text, spot, name);
          const asUnknown = replaced(text, spot, control);
          if (asProto === null || asUnknown === null) return;
          const f = forced ? format : undefined;
          const same = (s: string) => s.split(name).join(control);
          expect(same(answer(asProto, f))).toBe(same(answer(asUnknown, f)));
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('the CLI: a prototype name as a command is an unknown command', async () => {
    for (const name of PROTO_NAMES) {
      let err = '';
      const code = await runCli([name, 'FILE'], {
        read: () => ({ text: '{}', name: 'FILE' }),
        out: () => {},
        err: (s) => (err += s),
      });
      expect(code, name).toBe(2);
      expect(err, name).toContain(`unknown command "${name}"`);
    }
  });
});
