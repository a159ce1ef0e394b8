import fc from 'fast-check';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze } from './analyze.ts';
import { POLICIES, prepareEviction, simulatePolicy } from './evict/policies.ts';
import { CASE_FIXTURES } from './testing/cases.ts';
import { parseTranscript } from './parse/index.ts';
import {
  fitPlaceholder,
  placeholderText,
  redactMessages,
  redactTranscript,
  redactTranscriptWithMaps,
  type Redaction,
} from './redact.ts';
import { leakedStrings, shapeDifferences } from './redact/contract.ts';
import {
  arbTranscript,
  assistant,
  call,
  result,
  text,
  thinking,
  tool,
  transcript,
  user,
} from './testing/index.ts';
import { CHARS_PER_4, countTokens, loadBpeCounter, type TextCounter } from './tokens.ts';
import type { ProviderId, Transcript } from './types.ts';
import { validateTranscript } from './validate/index.ts';
import { Renames } from './redact/renames.ts';
import { writeTranscript } from './write.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

let o200k: TextCounter;
beforeAll(async () => {
  o200k = await loadBpeCounter('o200k_base');
});

function parseOk(text: string, format?: Transcript['format']): Transcript {
  const r = parseTranscript(text, format ? { format } : {});
  if (!r.ok) throw new Error(r.error.message);
  return r.value.transcript;
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

/** Every check of issues 6 and 15 for one transcript under one counter. */
function checkRedaction(
  t: Transcript,
  counter: TextCounter,
  toolNames: 'keep' | 'hide',
  label = '',
): Redaction {
  const red = redactTranscriptWithMaps(t, { counter, toolNames });
  expect(red.inexact, `${label} ${counter.encoding} inexact placeholders`).toBe(0);
  const opts = { counter, ids: red.ids, ...(toolNames === 'hide' ? { names: red.names } : {}) };
  expect(shapeDifferences(t, red.transcript, opts), label).toEqual([]);
  expect(evictions(red.transcript, counter, null), `${label} evictions`).toEqual(
    evictions(t, counter, red.ids),
  );
  // Written out and read back with no hint, as a link reopens it (a bare array that is
  // ambiguous as pasted is read with the format the link names): the same contract, no leak.
  const written = writeTranscript(red.transcript);
  const asPasted = parseTranscript(writeTranscript(t));
  const hint =
    asPasted.ok && asPasted.value.transcript.format === t.format ? {} : { format: t.format };
  const back = parseTranscript(written, hint);
  expect(back.ok, `${label} reads back`).toBe(true);
  if (!back.ok) return red;
  expect(shapeDifferences(t, back.value.transcript, opts), `${label} written`).toEqual([]);
  // With names kept, the provider's own error texts are identical once ids are renamed.
  if (toolNames === 'keep') {
    const rename = (m: string) =>
      [...red.ids]
        .sort((x, y) => y[0].length - x[0].length)
        .reduce((acc, [from, to]) => acc.split(from).join(to), m);
    const before = analyze(t).validation.violations.map((v) => rename(v.message));
    const after = analyze(back.value.transcript).validation.violations.map((v) => v.message);
    expect(after, `${label} error texts`).toEqual(before);
  }
  const kept = toolNames === 'keep' ? new Set(red.names.keys()) : new Set<string>();
  expect(leakedStrings(t, written, kept), label).toEqual([]);
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
  it('renames ids consistently, no prefix kept, and keeps duplicates and orphans', () => {
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
    // No prefix kept: `alicesmith_call_77` would say whose call it was. Length and punctuation
    // stay (providers judge ids by them: A18, M4, O10).
    expect([...red.ids]).toEqual([
      ['toolu_01AAA', 'r0000_00001'],
      ['toolu_01ZZZ', 'r0000_00002'],
    ]);
    const blocks = red.transcript.messages.flatMap((m) => m.blocks);
    expect(
      blocks.filter((b) => b.type === 'tool_use').map((b) => b.type === 'tool_use' && b.id),
    ).toEqual(['r0000_00001', 'r0000_00001']);
    const th = blocks.find((b) => b.type === 'thinking');
    expect(th?.type === 'thinking' && th.signature).toBe('xxxxxxxxxxxx');
    // Empty text is structure (A11): it stays empty.
    expect(red.transcript.messages[5]?.blocks).toEqual([{ type: 'text', text: '' }]);
    checkRedaction(t, CHARS_PER_4, 'keep');
    checkRedaction(t, o200k, 'hide');
  });

  it('redactMessages: the copy’s messages alone, as the whole copy has them', () => {
    const t = transcript('anthropic-messages', [
      user('Open /home/alice/secrets.txt'),
      assistant(call('toolu_01AAA', 'read_file', { path: '/home/alice/secrets.txt' })),
      user(result('toolu_01AAA', 'hunter2')),
    ]);
    for (const counter of [CHARS_PER_4, o200k])
      for (const toolNames of ['keep', 'hide'] as const)
        expect(redactMessages(t.messages, { counter, toolNames })).toEqual(
          redactTranscriptWithMaps(t, { counter, toolNames }).transcript.messages,
        );
    const json = JSON.stringify(redactMessages(t.messages));
    expect(json).not.toContain('alice');
    expect(json).not.toContain('hunter2');
  });

  it('keeps what providers judge ids by: a refused id stays refused, an accepted one accepted', () => {
    const long = 'fc_0f0e50a1476a6c35006912c58dc9f8819192c25864eb16f07f';
    const t = transcript('openai-chat', [
      user('Run the tools please'),
      assistant(call('functions.Bash:0'), call(long), call('ssAbar4Dr'), call('call_0fypS1hVX')),
      tool('functions.Bash:0', 'listing of files'),
      tool(long, 'search results here'),
      tool('ssAbar4Dr', 'weather is fine'),
      tool('call_0fypS1hVX', 'done and dusted'),
    ]);
    const codes = (x: Transcript, p: ProviderId) =>
      validateTranscript(x, p).violations.map((v) => `${v.code}@${v.index}`);
    const red = redactTranscriptWithMaps(t, { counter: CHARS_PER_4 });
    for (const p of ['anthropic', 'openai-chat', 'openai-responses', 'bedrock', 'mistral'] as const)
      expect(codes(red.transcript, p), p).toEqual(codes(t, p));
    // The originals' verdicts, so the check above is not vacuous.
    expect(codes(t, 'anthropic')).toContain('A18@1');
    expect(codes(t, 'openai-chat')).toContain('O10@1');
    // Three refused ids, each one 400 (at its call; its tool message is part of it).
    expect(codes(t, 'mistral').filter((c) => c.startsWith('M4'))).toEqual(['M4@1', 'M4@1', 'M4@1']);
    expect(red.ids.get('functions.Bash:0')).toBe('r00000000.0000:1');
    expect(red.ids.get('ssAbar4Dr')).toMatch(/^[a-z0-9]{9}$/);
    checkRedaction(t, CHARS_PER_4, 'keep');
  });

  it('a renamed id that reads like a number in the text is not a leak; a word of the text is', () => {
    const id = '00000000-0000-4000-8000-000000000007';
    const t = transcript('anthropic-messages', [
      user('The fee is 0.000000000001 units, keep it secret'),
      assistant(call(id)),
      user(result(id, 'done')),
    ]);
    const written = writeTranscript(
      redactTranscriptWithMaps(t, { counter: CHARS_PER_4 }).transcript,
    );
    expect(written).toContain('000000000001');
    expect(leakedStrings(t, written, new Set())).toEqual([]);
    // A word of the text put back in the copy (as a message: every key of the copy is read too).
    const withWord = JSON.stringify([
      ...(JSON.parse(written) as unknown[]),
      { role: 'user', content: 'secret' },
    ]);
    expect(leakedStrings(t, withWord, new Set())).toEqual(['secret']);
  });

  it('renames an id with too few letters and digits for its serial without a collision', () => {
    const r = new Renames();
    const ids = Array.from({ length: 40 }, (_, i) => r.id(i % 2 ? `a${i}` : `${i}:x`));
    expect(new Set(ids).size).toBe(40);
    // The same id again: the same rename.
    expect(r.id('a1')).toBe(ids[1]);
    for (const x of ids) expect(x).toMatch(/^r/);
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
    expect(hidden).toMatch(/^A0*$/);
    // No underscore pattern of the original name survives (issue 41).
    expect(hidden).not.toContain('_');
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
