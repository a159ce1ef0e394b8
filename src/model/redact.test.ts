import fc from 'fast-check';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze } from './analyze.ts';
import { POLICIES, prepareEviction, simulatePolicy } from './evict/policies.ts';
import { CASE_FIXTURES } from './fixtures/cases.ts';
import { parseTranscript } from './parse/index.ts';
import { parserFor } from './parse/registry.ts';
import {
  RESULT_KEYS,
  fitPlaceholder,
  placeholderText,
  redactTranscript,
  redactTranscriptWithMaps,
  type Redaction,
} from './redact.ts';
import { applyFaults, reindexForView } from './faults.ts';
import {
  arbTranscript,
  assistant,
  call,
  result,
  text,
  thinking,
  transcript,
  user,
} from './testing.ts';
import { CHARS_PER_4, countTokens, loadBpeCounter, type TextCounter } from './tokens.ts';
import type { Block, Transcript } from './types.ts';
import { writeTranscript } from './write.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const REAL = path.resolve(repoRoot, '../shared/real');

let o200k: TextCounter;
beforeAll(async () => {
  o200k = await loadBpeCounter('o200k_base');
});

function parseOk(text: string, format?: Transcript['format']): Transcript {
  const r = parseTranscript(text, format ? { format } : {});
  if (!r.ok) throw new Error(r.error.message);
  return r.value.transcript;
}

/** Replace every original id by its renamed form in a string (longest ids first). */
function renameIn(s: string, ids: Map<string, string>): string {
  let out = s;
  for (const [from, to] of [...ids].sort((a, b) => b[0].length - a[0].length))
    out = out.split(from).join(to);
  return out;
}

/** What must be identical between a transcript and its structure-only copy. */
function shape(
  t: Transcript,
  counter: TextCounter,
  ids: Map<string, string> | null,
  names: Map<string, string> | null,
) {
  const a = analyze(t);
  const id = (x: string | null) => (x === null || ids === null ? x : (ids.get(x) ?? x));
  const name = (x: string) => (names === null ? x : (names.get(x) ?? x));
  const tokens = countTokens(t, a.provider, counter);
  // Positions are compared as our message indices: a log written back (JSONL) has no room for
  // the source's non-message lines, so its raw line numbers differ while the messages do not.
  const ours = new Map(t.messages.map((m) => [m.rawIndex, m.index]));
  return {
    roles: t.messages.map((m) => `${m.index}:${m.role}:${m.blocks.map((b) => b.type).join(',')}`),
    exchanges: a.grouping.exchanges.map((x) => `${x.key}:${x.messages.join(',')}`),
    pairs: a.pairs.map((p) => ({ ...p, id: id(p.id), name: name(p.name) })),
    violations: a.validation.violations.map((v) => ({
      rule: v.rule,
      code: v.code,
      severity: v.severity,
      messageIndex: ours.get(v.messageIndex) ?? -1,
      blockIndex: v.blockIndex,
      ids: v.ids.map((x) => id(x)),
      providerPath: v.providerPath,
      status: v.status,
    })),
    perMessage: [...tokens.perMessage],
    system: tokens.system,
  };
}

/** Every policy at a few budgets: what it keeps, whether it fits, and the first error it leaves. */
function evictions(t: Transcript, counter: TextCounter, ids: Map<string, string> | null) {
  const provider = analyze(t).provider;
  const table = countTokens(t, provider, counter);
  const ctx = prepareEviction(t, table, provider);
  const out: unknown[] = [];
  for (const share of [0.3, 0.6, 0.9]) {
    const budget = Math.floor(table.total * share);
    for (const policy of POLICIES) {
      const r = simulatePolicy(ctx, policy, budget);
      const e = r.firstError;
      out.push({
        policy,
        budget,
        kept: r.kept,
        tokensKept: r.tokensKept,
        fits: r.fits,
        overshoot: r.overshoot,
        firstError: e && {
          rule: e.rule,
          code: e.code,
          messageIndex: e.messageIndex,
          ids: e.ids.map((x) => ids?.get(x) ?? x),
        },
      });
    }
  }
  return out;
}

/** Words of five letters or more that a person wrote (texts, inputs, results, system, tools). */
function contentWords(t: Transcript): Set<string> {
  const words = new Set<string>();
  const add = (s: string) => {
    for (const w of s.match(/[\p{L}\p{N}]{5,}/gu) ?? []) words.add(w);
  };
  const walk = (v: unknown): void => {
    if (typeof v === 'string') add(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) {
        add(k);
        walk(x);
      }
  };
  const block = (b: Block): void => {
    if (b.type === 'text') add(b.text);
    else if (b.type === 'thinking') add(b.thinking);
    else if (b.type === 'tool_use') walk(b.input);
    else if (b.type === 'tool_result') b.content.forEach(block);
    else if (b.type === 'other') walk(b.raw);
  };
  for (const m of t.messages) m.blocks.forEach(block);
  for (const s of t.system) add(s.text);
  for (const d of t.tools ?? []) if (d.description) add(d.description);
  for (const i of t.messages
    .flatMap((m) => m.blocks)
    .flatMap((b) =>
      b.type === 'tool_use' && b.id
        ? [b.id]
        : b.type === 'tool_result' && b.toolUseId
          ? [b.toolUseId]
          : [],
    ))
    add(i.replace(/^[A-Za-z]+_/, ''));
  return words;
}

/** Words the redacted source may legitimately contain: JSON keys, type/role/model values, kept tool names. */
function structuralWords(written: string): Set<string> {
  // Result texts that are JSON objects keep their output/error keys by design.
  const words = new Set<string>(RESULT_KEYS);
  const add = (s: string) => {
    for (const w of s.match(/[\p{L}\p{N}]{5,}/gu) ?? []) words.add(w);
  };
  const walk = (v: unknown, key?: string): void => {
    if (typeof v === 'string') {
      if (
        key !== undefined &&
        [
          'type',
          'subtype',
          'role',
          'model',
          'name',
          'function', // Inspect logs name the tool of a call and of a result here (a string)
          'object',
          'stop_reason',
          'media_type',
          'timestamp',
          'uuid',
          'parentUuid',
        ].includes(key)
      )
        add(v);
      // Renamed ids keep the provider's prefix (`toolu_r001`).
      if (key !== undefined && ['id', 'tool_use_id', 'tool_call_id', 'call_id'].includes(key))
        add(v.replace(/_/g, ' '));
    } else if (Array.isArray(v)) v.forEach((x) => walk(x, key));
    else if (v !== null && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) {
        // Only schema-like keys are structure; a key that is data (a file path) must not leak.
        if (/^[A-Za-z_$][\w$-]{0,39}$/.test(k)) add(k);
        walk(x, k);
      }
    else add(String(v)); // JSON literals and numbers (false, null, 12345) are syntax, not content
  };
  // JSON, or JSON Lines for the log formats.
  let docs: unknown[];
  try {
    docs = [JSON.parse(written)];
  } catch {
    docs = written
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as unknown);
  }
  docs.forEach((d) => walk(d));
  return words;
}

function leakedWords(original: Transcript, written: string): string[] {
  const allowed = structuralWords(written);
  const present = new Set(written.match(/[\p{L}\p{N}]{5,}/gu) ?? []);
  return [...contentWords(original)].filter((w) => present.has(w) && !allowed.has(w));
}

/** Every check of issue 6 for one transcript under one counter. */
function checkRedaction(
  t: Transcript,
  counter: TextCounter,
  toolNames: 'keep' | 'hide',
  label = '',
): Redaction {
  const red = redactTranscriptWithMaps(t, { counter, toolNames });
  expect(red.inexact, `${label} ${counter.encoding} inexact placeholders`).toBe(0);
  const names = toolNames === 'hide' ? red.names : null;
  expect(evictions(red.transcript, counter, null), `${label} evictions`).toEqual(
    evictions(t, counter, red.ids),
  );
  const want = shape(t, counter, red.ids, names);
  expect(shape(red.transcript, counter, null, null), label).toEqual(want);
  // With names kept, the provider's own error texts are identical once ids are renamed.
  if (toolNames === 'keep') {
    // Known loss: the Responses validator names an item's type from its raw JSON
    // (`custom_tool_call`), which a redacted message no longer has; it reads `function_call`.
    const itemType = (m: string) =>
      t.format === 'openai-responses' ? m.replace(/of type '\w+_call'/, "of type '…_call'") : m;
    const before = analyze(t).validation.violations.map((v) =>
      itemType(renameIn(v.message, red.ids)),
    );
    expect(analyze(red.transcript).validation.violations.map((v) => itemType(v.message))).toEqual(
      before,
    );
  }
  // The written source reparses to the same structure as the original written by the same
  // writer from its blocks (messages rendered, not copied from raw), and carries no original
  // content. For the formats whose writer renders faithfully this is the original's own shape.
  if (parserFor(t.format)?.write) {
    const written = writeTranscript(red.transcript);
    const back = parseOk(written, t.format);
    const rendered = parseOk(
      writeTranscript({ ...t, messages: t.messages.map((m) => ({ ...m, raw: undefined })) }),
      t.format,
    );
    const renderedShape = shape(rendered, counter, red.ids, names);
    const got = shape(back, counter, null, null);
    if (JSON.stringify(renderedShape) === JSON.stringify(want))
      expect(got, `${label} written`).toEqual(want);
    else {
      // The format's writer itself changes token counts when it renders blocks (e.g. it wraps a
      // result text in an object): redaction must not add to that, so compare the structure.
      const structure = (x: ReturnType<typeof shape>) => ({
        roles: x.roles,
        exchanges: x.exchanges,
        pairs: x.pairs,
        violations: x.violations,
      });
      expect(structure(got), `${label} written (structure)`).toEqual(structure(renderedShape));
    }
    if (t.format === 'anthropic-messages' || t.format === 'openai-chat')
      expect(got, `${label} written`).toEqual(want);
    expect(leakedWords(t, written), label).toEqual([]);
  }
  return red;
}

describe('placeholders', () => {
  it('units are one token each and additive, so any count is reachable', () => {
    for (const k of [1, 2, 7, 50, 333]) {
      for (const len of [1, 2 * k, 3 * k, 5 * k])
        expect(o200k.count(placeholderText(k, len))).toBe(k);
    }
    expect(placeholderText(3, 14)).toBe('xxxx xxxx xxxx');
    expect(placeholderText(3, 0)).toBe('x x x');
  });

  it('fits token count (and length, for chars/4) for any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 400 }), (s) => {
        for (const counter of [CHARS_PER_4, o200k]) {
          const r = fitPlaceholder(counter.count(s), s.length, counter);
          expect(r.exact).toBe(true);
          expect(counter.count(r.text)).toBe(counter.count(s));
          expect(r.text).not.toMatch(/[a-z]{5}/);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('redactTranscript', () => {
  it('renames ids consistently with the provider prefix and keeps duplicates and orphans', () => {
    const t = transcript('anthropic-messages', [
      user('Please deploy the staging cluster'),
      assistant(
        thinking('Considering the deployment plan carefully', 'c2lnbmF0dXJl'),
        call('toolu_01AAA', 'deploy', { target: 'staging', force: true }),
      ),
      user(result('toolu_01AAA', 'Deployment finished successfully')),
      assistant(call('toolu_01AAA', 'deploy', { target: 'production' })),
      user(result('toolu_01ZZZ', 'orphaned output')),
      assistant(text('')),
    ]);
    const red = redactTranscriptWithMaps(t, { counter: CHARS_PER_4 });
    expect([...red.ids]).toEqual([
      ['toolu_01AAA', 'toolu_r001'],
      ['toolu_01ZZZ', 'toolu_r002'],
    ]);
    const blocks = red.transcript.messages.flatMap((m) => m.blocks);
    expect(
      blocks.filter((b) => b.type === 'tool_use').map((b) => b.type === 'tool_use' && b.id),
    ).toEqual(['toolu_r001', 'toolu_r001']);
    const th = blocks.find((b) => b.type === 'thinking');
    expect(th?.type === 'thinking' && th.signature).toBe('xxxxxxxxxxxx');
    // Empty text is structure (A11): it stays empty.
    expect(red.transcript.messages[5]?.blocks).toEqual([{ type: 'text', text: '' }]);
    checkRedaction(t, CHARS_PER_4, 'keep');
    checkRedaction(t, o200k, 'hide');
  });

  it('hides tool names consistently, in calls, tool definitions and tool_choice', () => {
    const r = parseTranscript(
      JSON.stringify({
        model: 'gpt-4o',
        tool_choice: { type: 'function', function: { name: 'lookup_weather' } },
        tools: [
          {
            type: 'function',
            function: {
              name: 'lookup_weather',
              description: 'Weather forecast lookup',
              parameters: { type: 'object', properties: { city: { type: 'string' } } },
            },
          },
        ],
        messages: [
          { role: 'user', content: 'Weather in Lisbon tomorrow?' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_abc123',
                type: 'function',
                function: { name: 'lookup_weather', arguments: '{"city":"Lisbon"}' },
              },
            ],
          },
          { role: 'tool', tool_call_id: 'call_abc123', content: 'Sunny, highs around 24' },
        ],
      }),
    );
    if (!r.ok) throw new Error(r.error.message);
    const red = checkRedaction(r.value.transcript, o200k, 'hide');
    const written = writeTranscript(red.transcript);
    expect(written).not.toContain('lookup_weather');
    const hidden = red.names.get('lookup_weather') ?? '';
    expect(hidden).toMatch(/^A(_x)*$/);
    expect(written).not.toContain('Lisbon');
    expect(written).not.toContain('city');
    const back = JSON.parse(written) as { tool_choice: unknown; tools: unknown[] };
    expect(back.tool_choice).toEqual({ type: 'function', function: { name: hidden } });
    expect(back.tools).toEqual([
      {
        type: 'function',
        function: {
          name: hidden,
          description: expect.stringMatching(/^x[x ]*$/) as unknown,
          parameters: { type: 'object' },
        },
      },
    ]);
  });

  it('removing thinking is an explicit, lossy choice', () => {
    const t = transcript('anthropic-messages', [
      user('Hello there friend'),
      assistant(thinking('Secret reasoning here'), text('Hi')),
    ]);
    const red = redactTranscriptWithMaps(t, { thinking: 'remove' });
    expect(red.transcript.messages[1]?.blocks.map((b) => b.type)).toEqual(['text']);
  });

  for (const fx of CASE_FIXTURES) {
    it(`keeps structure, verdicts and tokens: ${fx.name}`, () => {
      const t = parseOk(JSON.stringify(fx.transcript));
      checkRedaction(t, CHARS_PER_4, 'keep');
      checkRedaction(t, o200k, 'keep');
      checkRedaction(t, o200k, 'hide');
    });
  }

  it('keeps structure, verdicts and tokens on generated transcripts (faults included)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('anthropic-messages' as const, 'openai-chat' as const).chain(arbTranscript),
        fc.constantFrom('keep' as const, 'hide' as const),
        (t, names) => {
          // Generated transcripts have no raw: write them, then parse, as a pasted source would be.
          const pasted = parseOk(writeTranscript(t), t.format);
          checkRedaction(pasted, o200k, names);
        },
      ),
      { numRuns: 60 },
    );
  });

  const SAMPLES = path.resolve(repoRoot, 'public/samples');
  const samples = existsSync(SAMPLES)
    ? readdirSync(SAMPLES).filter((f) => /\.jsonl?$/.test(f) && f !== 'index.json')
    : [];
  it('has samples to check', () => expect(samples.length).toBeGreaterThan(0));
  for (const f of samples) {
    it(`keeps structure, verdicts and tokens on the sample ${f}`, () => {
      const r = parseTranscript(readFileSync(path.join(SAMPLES, f), 'utf8'), { name: f });
      if (!r.ok) throw new Error(r.error.message);
      checkRedaction(r.value.transcript, CHARS_PER_4, 'keep', f);
      checkRedaction(r.value.transcript, o200k, 'keep', f);
      checkRedaction(r.value.transcript, o200k, 'hide', f);
    });
  }

  const realFiles = existsSync(REAL)
    ? readdirSync(REAL)
        .flatMap((d) =>
          statSync(path.join(REAL, d)).isDirectory()
            ? readdirSync(path.join(REAL, d)).map((f) => path.join(REAL, d, f))
            : [],
        )
        .filter((f) => parseTranscript(readFileSync(f, 'utf8'), { name: path.basename(f) }).ok)
    : [];
  // Real logs are large (up to 1.5 MB): BPE-counting them several times takes seconds, not a timing assertion.
  for (const file of realFiles) {
    it(
      `keeps structure, verdicts and tokens on a real log: ${path.relative(REAL, file)}`,
      { timeout: 120_000 },
      () => {
        const r = parseTranscript(readFileSync(file, 'utf8'), { name: path.basename(file) });
        if (!r.ok) throw new Error(r.error.message);
        checkRedaction(r.value.transcript, CHARS_PER_4, 'keep', file);
        checkRedaction(r.value.transcript, o200k, 'hide', file);
      },
    );
  }
  if (realFiles.length === 0)
    it.skip(`real logs: ${REAL} is absent (CI keeps ../shared next to the clone)`, () => {});
});

describe('structure-only copy of a transcript without its source value (a faulted copy, issue 6)', () => {
  // The shape of coding-agent / case 03 (parallel calls, one timed out): model, thinking, system
  // prompt and tools at the top level, then a turn with two parallel calls.
  const body = {
    model: 'claude-sonnet-4-5',
    max_tokens: 8192,
    thinking: { type: 'enabled', budget_tokens: 4096 },
    system: 'You are a coding agent working in the repository. Use the tools; keep answers short.',
    tools: [
      { name: 'bash', description: 'bash tool', input_schema: { type: 'object' } },
      { name: 'read_file', description: 'read_file tool', input_schema: { type: 'object' } },
    ],
    messages: [
      { role: 'user', content: 'Run the tests and read the config.' },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Both at once.', signature: 'c2lnbmF0dXJlLXNpZw==' },
          { type: 'tool_use', id: 'toolu_01A', name: 'bash', input: { cmd: 'pytest -q' } },
          { type: 'tool_use', id: 'toolu_01B', name: 'read_file', input: { path: 'setup.cfg' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_01A', content: '12 passed in 0.4s' },
          { type: 'tool_result', tool_use_id: 'toolu_01B', content: '[metadata]\nname = tides' },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'All green; the package is tides.' }] },
    ],
  };
  const chatBody = {
    model: 'gpt-4o',
    tool_choice: 'required',
    tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }],
    messages: [
      { role: 'system', content: 'Answer with a tool.' },
      { role: 'user', content: 'Where is the order?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"o":1}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'shipped' },
    ],
  };

  for (const [label, src] of [
    ['anthropic-messages', body],
    ['openai-chat', chatBody],
  ] as const) {
    it(`${label}: keeps model, thinking, tools, system, token counts and verdicts`, () => {
      const loaded = parseOk(JSON.stringify(src));
      // What the page holds for a faulted copy of a streamed file: messages changed, no `raw`.
      const faulted = applyFaults(
        loaded,
        label === 'anthropic-messages'
          ? [{ kind: 'timeout', pairKey: 'p0' }]
          : [{ kind: 'truncate', count: 1 }],
      );
      expect(faulted.error).toBeNull();
      const t: Transcript = { ...reindexForView(faulted.transcript), raw: undefined };
      for (const counter of [CHARS_PER_4, o200k]) {
        const red = redactTranscriptWithMaps(t, { counter });
        const back = parseOk(writeTranscript(red.transcript), t.format);
        expect(back.settings).toEqual(t.settings);
        expect(back.tools?.map((d) => d.name) ?? null).toEqual(t.tools?.map((d) => d.name) ?? null);
        expect(back.system.length).toBe(t.system.length);
        const provider = analyze(t).provider;
        expect(countTokens(back, provider, counter).total).toBe(
          countTokens(t, provider, counter).total,
        );
        const verdict = (x: Transcript) => {
          const a = analyze(x, provider);
          return {
            notes: a.validation.notes,
            rules: a.validation.violations.map((v) => [v.rule, v.messageIndex]),
          };
        };
        expect(verdict(back)).toEqual(verdict(t));
      }
    });
  }

  it('a bare message array (no settings) stays a bare array', () => {
    const t = parseOk(JSON.stringify(body.messages));
    const red = redactTranscript({ ...t, raw: undefined });
    expect(Array.isArray(JSON.parse(writeTranscript(red)))).toBe(true);
  });
});

describe('keys that are data do not leak', () => {
  it('a Claude Code file-history-snapshot keyed by file path shares no path', () => {
    const lines = [
      {
        type: 'user',
        uuid: 'u1',
        parentUuid: null,
        message: { role: 'user', content: 'Fix the odds bar in the Portfolio view.' },
      },
      {
        type: 'file-history-snapshot',
        messageId: 'u1',
        snapshot: {
          trackedFileBackups: { 'frontend/src/components/PortfolioOddsBar.tsx': { version: 1 } },
        },
      },
      {
        type: 'assistant',
        uuid: 'a1',
        parentUuid: 'u1',
        message: {
          id: 'msg_1',
          role: 'assistant',
          model: 'claude-opus-4-7',
          content: [{ type: 'text', text: 'Done.' }],
        },
      },
    ];
    const common = {
      sessionId: 's-1',
      version: '2.1.0',
      cwd: '/srv/app',
      timestamp: '2026-11-29T10:00:00Z',
    };
    const parsed = parseTranscript(
      lines.map((l) => JSON.stringify({ ...common, ...l })).join('\n'),
      {
        name: 's.jsonl',
      },
    );
    if (!parsed.ok) throw new Error(parsed.error.message);
    const written = writeTranscript(redactTranscript(parsed.value.transcript));
    expect(written).not.toContain('PortfolioOddsBar');
    expect(written).not.toContain('frontend/src');
    expect(written).toContain('trackedFileBackups');
  });
});
