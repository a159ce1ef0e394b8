import { describe, expect, it } from 'vitest';
import { analyze } from './analyze.ts';
import { prepareEviction, simulatePolicy } from './evict/policies.ts';
import type { EvictionResult } from './evict/types.ts';
import {
  LINK_SENTENCE,
  buildIncidentSummary,
  buildSharedIncidentSummary,
  type SummaryLink,
  exportKeptSource,
  keptTranscript,
  mdCode,
  mdFence,
} from './exportSummary.ts';
import { CASE_FIXTURES } from './testing/cases.ts';
import { parseTranscript } from './parse/index.ts';
import { ruleWords } from './ruleWords.ts';
import { countTokens } from './tokens.ts';
import type { Transcript } from './types.ts';
import { parallelWeatherChat } from './testing/parallelWeather.ts';

function parse(v: unknown): Transcript {
  const r = parseTranscript(JSON.stringify(v));
  if (!r.ok) throw new Error(r.error.message);
  return r.value.transcript;
}

function summaryOf(
  t: Transcript,
  extra: {
    eviction?: EvictionResult;
    alternative?: EvictionResult;
    permalink?: SummaryLink;
  } = {},
) {
  const a = analyze(t);
  return buildIncidentSummary({
    transcript: t,
    provider: a.provider,
    grouping: a.grouping,
    pairs: a.pairs,
    validation: a.validation,
    tokens: countTokens(t, a.provider),
    ...extra,
  });
}

/** A valid Anthropic transcript of three tool exchanges. */
function threeExchanges(): Transcript {
  const messages: unknown[] = [];
  for (let i = 0; i < 3; i++) {
    messages.push({
      role: 'user',
      content: `Task number ${i}: list the files of folder ${i} and count them.`,
    });
    messages.push({
      role: 'assistant',
      content: [
        { type: 'tool_use', id: `toolu_0${i}`, name: 'ls', input: { path: `/data/folder-${i}` } },
      ],
    });
    messages.push({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: `toolu_0${i}`,
          content: 'a.txt b.txt c.txt d.txt e.txt f.txt g.txt h.txt',
        },
      ],
    });
    messages.push({ role: 'assistant', content: `Folder ${i} holds eight files.` });
  }
  // A complete request defines its tools (without them A7 would be its first error).
  const tools = [{ name: 'ls', input_schema: { type: 'object' } }];
  return parse({ model: 'claude-sonnet-4-5', max_tokens: 1024, tools, messages });
}

describe('buildIncidentSummary', () => {
  for (const fx of CASE_FIXTURES) {
    it(`gives the first error verbatim with where it comes from: ${fx.name}`, () => {
      const t = parse(fx.transcript);
      const md = summaryOf(t, {
        permalink: { url: 'https://example.test/#v=1&b=100', contains: 'view' },
      });
      const first = fx.expected[0];
      if (!first) return;
      expect(md).toContain('## First error');
      expect(md).toContain('from the transcript as loaded');
      // Named as its row is (`#N`), with the provider's request index mapped to that row.
      expect(md).toContain(`at message #${first.messageIndex} (`);
      if (first.providerPath && /^messages\.\[?\d/.test(first.providerPath))
        expect(md).toMatch(/\(request message \d+ = row #\d+\)/);
      // The provider's own text, character for character, inside the JSON body.
      expect(md).toContain(JSON.stringify(first.message));
      expect(md).toContain(`${t.messages.length} messages`);
      expect(md).toContain('<https://example.test/#v=1&b=100>');
    });
  }

  it('maps the request index to the row the provider path names, not the cause (O2)', () => {
    // Two parallel calls at row #2, one answered (#3), then a user turn (#4): OpenAI's path
    // names request message 4, the message where the missing answer should be.
    const t = parse(parallelWeatherChat());
    const md = summaryOf(t);
    expect(md).toContain('at message #2 (assistant');
    expect(md).toContain('(request message 4 = row #4)');
    expect(md).not.toContain('= row #2)');
  });

  it('names the policy and budget that produced the error, and the exchange-level alternative', () => {
    const t = threeExchanges();
    const a = analyze(t);
    expect(a.validation.valid).toBe(true);
    const table = countTokens(t, a.provider);
    const ctx = prepareEviction(t, table, a.provider);
    // The largest budget at which message-level eviction leaves a broken request.
    let found: { eviction: EvictionResult; alternative: EvictionResult } | null = null;
    for (let b = table.total - 1; b > 0 && !found; b--) {
      const eviction = simulatePolicy(ctx, 'message', b);
      if (eviction.validation.violations.some((v) => v.severity === 'error'))
        found = { eviction, alternative: simulatePolicy(ctx, 'exchange', b) };
    }
    if (!found) throw new Error('message-level eviction never breaks this transcript');
    const md = summaryOf(t, found);
    expect(md).toContain(
      `the request left by policy \`message\` at a budget of ${found.eviction.budget.toLocaleString('en-US')} tokens`,
    );
    expect(md).toContain('- Exchange-level alternative: policy `exchange`');
    const over = found.alternative.overshoot;
    if (over !== null) expect(md).toContain(`overshoot ×${over.toFixed(2)}`);
    expect(md).toMatch(/- Chosen: policy `message`.*\*\*rejected\*\*/);
    // The rule in words beside its code, not its internal id (issue 41).
    const first = found.eviction.validation.violations.find((v) => v.severity === 'error');
    expect(md).toContain(
      `**rejected** (\`${first?.code}\`: ${ruleWords(first?.rule ?? 'role_order')})`,
    );
    expect(md).not.toContain(` ${first?.rule})`);
  });

  it('says when nothing is wrong', () => {
    const md = summaryOf(threeExchanges());
    expect(md).toContain('None: the request is accepted as loaded.');
    expect(md).toContain('- As loaded: accepted');
    expect(md).toContain('- 12 messages, 3 exchanges, 3 tool pairs (0 broken)');
  });

  it('keeps transcript text inside code spans and fences', () => {
    expect(mdCode('a`b')).toBe('``a`b``');
    expect(mdCode('`x`')).toBe('`` `x` ``');
    expect(mdFence('```\n<img src=x>\n```', 'json')).toBe('````json\n```\n<img src=x>\n```\n````');
    const t = parse({
      model: 'claude-`<b>`',
      messages: [
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'toolu_x', content: '<script>' }],
        },
      ],
    });
    const md = summaryOf(t);
    expect(md).toContain('model `` claude-`<b>` ``');
    expect(md).not.toContain('<script>');
  });
});

describe('exportKeptSource', () => {
  it('writes the kept request in the original format', () => {
    const t = threeExchanges();
    const a = analyze(t);
    const table = countTokens(t, a.provider);
    const r = simulatePolicy(
      prepareEviction(t, table, a.provider),
      'exchange',
      Math.floor(table.total / 2),
    );
    expect(r.evicted.length).toBeGreaterThan(0);
    const back = parseTranscript(exportKeptSource(t, r));
    if (!back.ok) throw new Error(back.error.message);
    expect(back.value.transcript.format).toBe('anthropic-messages');
    expect(back.value.transcript.messages.length).toBe(r.kept.length);
    expect((back.value.transcript.raw as { model?: string }).model).toBe('claude-sonnet-4-5');
    expect(analyze(back.value.transcript).validation.valid).toBe(true);
  });

  it('inserts the summary message where the summary policy puts it', () => {
    const t = threeExchanges();
    const table = countTokens(t, 'anthropic');
    const r = simulatePolicy(
      prepareEviction(t, table, 'anthropic'),
      'summary',
      Math.floor(table.total * 0.7),
      { summaryTokens: 20 },
    );
    if (!r.summary) throw new Error('the summary policy evicted nothing at 70% of the tokens');
    const kept = keptTranscript(t, r);
    expect(kept.messages).toHaveLength(r.kept.length + 1);
    const at = kept.messages.findIndex((m) => m.rawIndex === -1);
    expect(kept.messages[at]?.blocks).toEqual([
      { type: 'text', text: '[Summary of the earlier conversation, 20 tokens]' },
    ]);
    expect(kept.messages[at + 1]?.index).toBe(r.summary.before);
  });
});

/** A HAR of one Anthropic request holding secrets in headers, cookies, texts, inputs and results. */
function harWithSecrets(): string {
  const body = {
    model: 'ft:claude-sonnet-4-5:acme-corp:triage:7f3k',
    max_tokens: 1024,
    system: 'Internal triage bot for Acme payroll.',
    tools: [{ name: 'reset_password', input_schema: { type: 'object' } }],
    messages: [
      {
        role: 'user',
        content:
          'Reset the account of maria.gonzalez@acme-payroll.example, password Hunter2Secret!',
      },
      {
        role: 'assistant',
        content: [
          {
            type: 'tool_use',
            id: 'alicesmith_call_77',
            name: 'reset_password',
            input: { email: 'maria.gonzalez@acme-payroll.example', newPassword: 'Hunter2Secret!' },
          },
        ],
      },
      { role: 'user', content: 'Did it work? Session token sk-ant-api03-SECRETSECRET' },
    ],
  };
  return JSON.stringify({
    log: {
      version: '1.2',
      creator: { name: 'test', version: '1' },
      entries: [
        {
          startedDateTime: '2026-11-30T10:00:00.000Z',
          request: {
            method: 'POST',
            url: 'https://api.anthropic.com/v1/messages',
            headers: [
              { name: 'x-api-key', value: 'sk-ant-api03-SECRETSECRET' },
              { name: 'cookie', value: 'session=SESSIONCOOKIEVALUE' },
            ],
            postData: { mimeType: 'application/json', text: JSON.stringify(body) },
          },
          response: { status: 400, content: { mimeType: 'application/json', text: '{}' } },
        },
      ],
    },
  });
}

describe('buildSharedIncidentSummary (issue 15)', () => {
  const SECRETS = [
    'sk-ant-api03',
    'SESSIONCOOKIEVALUE',
    'maria',
    'gonzalez',
    'Hunter2Secret',
    'payroll',
    'alicesmith',
    'acme-corp',
    'triage',
  ];
  const r = parseTranscript(harWithSecrets());
  if (!r.ok) throw new Error(r.error.message);
  const t = r.value.transcript;
  const a = analyze(t);
  const input = {
    transcript: t,
    provider: a.provider,
    grouping: a.grouping,
    pairs: a.pairs,
    validation: a.validation,
    tokens: countTokens(t, a.provider),
  };

  it('by default holds no text, id or custom model name of the transcript', () => {
    expect(a.validation.valid).toBe(false); // the unanswered call: there is an error to report
    const link: SummaryLink = { url: 'https://example.test/#v=1&s=1&t=x', contains: 'structure' };
    const md = buildSharedIncidentSummary({ ...input, permalink: link });
    for (const s of SECRETS) expect(md).not.toContain(s);
    expect(md).toContain(LINK_SENTENCE.structure);
    expect(md).toContain('structure-only copy');
    // The same counts and the same error as the transcript's own summary.
    expect(md).toContain(`${t.messages.length} messages`);
    expect(md).toContain(a.validation.violations[0]?.code ?? '?');
    expect(md).toContain('model `claude-sonnet-4-5`');
  });

  it('carries the transcript only when the user includes it, and says so', () => {
    const link: SummaryLink = { url: 'https://example.test/#v=1&t=x', contains: 'transcript' };
    const md = buildSharedIncidentSummary(
      { ...input, permalink: link },
      { includeTranscript: true },
    );
    expect(md).toContain('alicesmith_call_77');
    expect(md).toContain(LINK_SENTENCE.transcript);
  });
});

describe('buildSharedIncidentSummary with tool names hidden', () => {
  // Gemini 3: an unsigned functionCall in the current turn (G4), whose 400 quotes the tool's name.
  const body = {
    model: 'gemini-3-pro-preview',
    contents: [
      { role: 'user', parts: [{ text: 'What does Maria earn?' }] },
      {
        role: 'model',
        parts: [{ functionCall: { name: 'lookup_payroll', args: { who: 'maria' } } }],
      },
      {
        role: 'user',
        parts: [{ functionResponse: { name: 'lookup_payroll', response: { n: 1 } } }],
      },
    ],
  };
  const r = parseTranscript(JSON.stringify(body));
  if (!r.ok) throw new Error(r.error.message);
  const t = r.value.transcript;
  const a = analyze(t);
  const tokens = countTokens(t, a.provider);
  const eviction = simulatePolicy(prepareEviction(t, tokens, a.provider), 'message', tokens.total);
  const input = {
    transcript: t,
    provider: a.provider,
    grouping: a.grouping,
    pairs: a.pairs,
    validation: a.validation,
    tokens,
    eviction,
  };

  it('quotes the name where it is kept, and never where it is hidden', () => {
    expect(a.validation.violations.map((v) => v.code)).toContain('G4');
    expect(eviction.validation.violations[0]?.message).toContain('lookup_payroll');
    const kept = buildSharedIncidentSummary(input);
    expect(kept).toContain('lookup_payroll');
    const hidden = buildSharedIncidentSummary(input, { toolNames: 'hide' });
    expect(hidden).not.toContain('lookup_payroll');
    expect(hidden).toContain('default_api:A');
    expect(hidden).toContain('G4');
  });
});
