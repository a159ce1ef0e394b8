import { describe, expect, it } from 'vitest';
import { inspect } from '../engine/inspect.ts';
import type { FaultSpec } from '../model/faults.ts';
import { encodePermalink } from '../model/permalink/codec.ts';
import { defaultPermalinkState, type PermalinkView } from '../model/permalink/schema.ts';
import type { ProviderId } from '../model/types.ts';
import { writeTranscript } from '../model/write.ts';
import { cli } from './testing/index.ts';

/** Two parallel calls, both answered, then a second exchange with one call (Anthropic Messages). */
const INVOICES = JSON.stringify({
  model: 'claude-sonnet-4-5',
  max_tokens: 512,
  tools: [
    { name: 'search', input_schema: { type: 'object' } },
    { name: 'customer', input_schema: { type: 'object' } },
  ],
  messages: [
    { role: 'user', content: 'Which invoices of ACME are overdue?' },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Looking them up.' },
        { type: 'tool_use', id: 'toolu_a', name: 'search', input: { q: 'ACME' } },
        { type: 'tool_use', id: 'toolu_b', name: 'customer', input: { n: 'ACME' } },
      ],
    },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_a', content: 'INV-7' },
        { type: 'tool_result', tool_use_id: 'toolu_b', content: 'ACME Ltd' },
      ],
    },
    { role: 'assistant', content: 'INV-7 is overdue.' },
    { role: 'user', content: 'Send a reminder.' },
    {
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'toolu_c', name: 'remind', input: { id: 'INV-7' } }],
    },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_c', content: 'sent' }] },
    { role: 'assistant', content: 'Sent.' },
  ],
});

/** A bare message list: detected as Anthropic Messages unless a format is forced. */
const BARE = JSON.stringify([
  { role: 'user', content: 'hi' },
  { role: 'assistant', content: 'hello' },
]);

/** The page's "Copy link" for `text` with `view` (the page's own codec). */
function link(text: string, view: Partial<PermalinkView>, extra = ''): string {
  const state = defaultPermalinkState();
  state.source = { kind: 'inline', text, redacted: false };
  state.view = { ...state.view, ...view };
  return `http://ti.example/#${encodePermalink(state)}${extra}`;
}

/**
 * What the page shows for `text` with `faults` applied: the engine's answer to the request the
 * page makes (engine/inspect.ts, what the inspect worker runs).
 */
function pageVerdict(text: string, faults: FaultSpec[], provider?: ProviderId) {
  const r = inspect({ text, name: '', format: null, provider: provider ?? null, faults });
  if (!r.ok) throw new Error('fixture does not parse');
  const a = r.analysis;
  return {
    valid: a.validation.valid,
    codes: a.validation.violations.map((v) => `${v.code}@${v.messageIndex}`),
  };
}

async function checkJson(args: string[]) {
  const r = await cli(['check', ...args, '--json'], {});
  const j = JSON.parse(r.out) as {
    format: string;
    provider: string;
    valid: boolean;
    violations: { code: string; messageIndex: number }[];
  };
  return { ...r, j, codes: j.violations.map((v) => `${v.code}@${v.messageIndex}`) };
}

const FAULTS: FaultSpec[] = [
  { kind: 'timeout', pairKey: 'p1' },
  { kind: 'retry', messageIndex: 5 },
];

describe('a link’s view in the CLI: the page’s verdict', () => {
  it('fx: the faults are applied as on the page (same verdict and violation codes)', async () => {
    const want = pageVerdict(INVOICES, FAULTS);
    expect(want.valid).toBe(false);
    const url = link(INVOICES, {
      faults: FAULTS,
      selection: { kind: 'message', index: 3 },
      anchor: 'x2',
    });
    expect(url).toContain('fx=1%3Atp1%2Cy5');
    const r = await checkJson([url]);
    expect(r.code).toBe(1);
    expect({ valid: r.j.valid, codes: r.codes }).toEqual(want);
    expect(r.err).toContain("applied the link's fault tp1 (fx)");
    expect(r.err).toContain("applied the link's fault y5 (fx)");
    // The human output says INVALID with the page's count of errors.
    const human = await cli(['check', url], {});
    expect(human.out).toContain('INVALID');
  });

  it('fx: a violation on one of two rows of a message says which (#5.2), and where the exported file has it (newcomer: both "at message 17"; the download said 12 and 11)', async () => {
    const url = link(INVOICES, { faults: FAULTS });
    const human = await cli(['check', url], {});
    const at = [...human.out.matchAll(/^\[(\w+)\] \w+ at message ([\d.]+)/gm)].map(
      (m) => `${m[1]}@${m[2]}`,
    );
    // The retry stored message 5 twice: its rows are #5.1 and #5.2, as the page labels them.
    expect(at.filter((x) => /@5(\.|$)/.test(x))).toEqual(
      expect.arrayContaining([expect.stringMatching(/@5\.[12]$/)]),
    );
    expect(at.some((x) => /@5$/.test(x))).toBe(false);
    // The exported file (the page's "Transcript with the faults") numbers from 0: check on it
    // names the positions the note gives.
    const r = inspect({ text: INVOICES, name: '', format: null, provider: null, faults: FAULTS });
    if (!r.ok) throw new Error('fixture does not parse');
    const exported = await cli(['check', 'x.with-faults.json'], {
      'x.with-faults.json': writeTranscript(r.analysis.transcript),
    });
    const there = [...exported.out.matchAll(/^\[(\w+)\] \w+ at message ([\d.]+)/gm)].map(
      (m) => `${m[1]} at ${m[2]}`,
    );
    const note =
      /note: the transcript with the faults as the page exports it .*: there (.*)\n/.exec(
        human.out,
      );
    expect(note).not.toBeNull();
    for (const moved of (note?.[1] ?? '').split(', ')) {
      const m = /^(\w+) at ([\d.]+) is at message (\d+)$/.exec(moved);
      expect(m, moved).not.toBeNull();
      expect(at).toContain(`${m?.[1]}@${m?.[2]}`);
      expect(there).toContain(`${m?.[1]} at ${m?.[3]}`);
    }
  });

  it('fx: a fault that does not fit is said, and the ones before it still apply', async () => {
    const faults: FaultSpec[] = [
      { kind: 'timeout', pairKey: 'p1' },
      { kind: 'tool_raised', pairKey: 'p9' },
    ];
    const r = await checkJson([link(INVOICES, { faults })]);
    expect({ valid: r.j.valid, codes: r.codes }).toEqual(pageVerdict(INVOICES, faults));
    expect(r.err).toMatch(/warning: the link's fault rp9 does not fit this transcript/);
  });

  it('pr: the link’s provider judges the transcript', async () => {
    const r = await checkJson([link(INVOICES, { provider: 'bedrock', faults: FAULTS })]);
    expect(r.j.provider).toBe('bedrock');
    expect({ valid: r.j.valid, codes: r.codes }).toEqual(pageVerdict(INVOICES, FAULTS, 'bedrock'));
    expect(r.err).toContain('note: provider bedrock, from the link (pr=bedrock)');
  });

  it('f: the link’s forced format is used to read the transcript', async () => {
    const r = await checkJson([link(BARE, { format: 'openai-chat' })]);
    expect(r.code).toBe(0);
    expect(r.j.format).toBe('openai-chat');
    expect(r.j.provider).toBe('openai-chat');
    expect(r.err).toContain('note: format openai-chat, from the link (f=openai-chat)');
  });

  it('a flag overrides the link, and the CLI says which it used', async () => {
    const url = link(BARE, { format: 'openai-chat', provider: 'bedrock' });
    const r = await checkJson([url, '--provider', 'gemini', '--format', 'anthropic-messages']);
    expect(r.j.provider).toBe('gemini');
    expect(r.j.format).toBe('anthropic-messages');
    expect(r.err).toContain(
      "provider gemini, from --provider (it overrides the link's pr=bedrock)",
    );
    expect(r.err).toContain(
      "format anthropic-messages, from --format (it overrides the link's f=openai-chat)",
    );
  });

  it('an unknown key is reported, with the keys check does not use', async () => {
    const url = link(INVOICES, { budget: 900, selection: { kind: 'message', index: 3 } }, '&zz=1');
    const r = await cli(['check', url], {});
    expect(r.code).toBe(0);
    expect(r.err).toMatch(
      /warning: the link has a key that neither the page nor the CLI reads.*zz=1/,
    );
    expect(r.err).toMatch(
      /note: check does not use the link's budget \(b=900\), selection \(sel=m3\)/,
    );
  });

  it('a value the codec refuses is said, not silently replaced by the default', async () => {
    const r = await cli(['check', `${link(INVOICES, {})}&pr=nosuch`], {});
    expect(r.err).toMatch(/warning: Ignored the provider “nosuch” in the link/);
  });
});

describe('simulate: the link’s budget and policy', () => {
  const files = { 'inv.json': INVOICES };
  const simJson = async (args: string[]) => {
    const r = await cli(['simulate', ...args, '--json'], files);
    return { ...r, j: JSON.parse(r.out) as { policy: string; budget: number; kept: number[] } };
  };

  it('used when no flag gives them, and said', async () => {
    const url = link(INVOICES, {
      budget: 60,
      policy: {
        id: 'exchange',
        options: {
          pinFirst: true,
          keepNewestExchanges: 0,
          summaryTokens: null,
          keepToolUses: null,
        },
      },
    });
    const r = await simJson([url]);
    const want = await simJson([
      'inv.json',
      '--policy',
      'exchange',
      '--budget',
      '60',
      '--pin-first',
    ]);
    expect(r.code).toBe(want.code);
    expect(r.j).toEqual(want.j);
    expect(r.err).toContain('note: policy exchange, from the link (p=exchange)');
    expect(r.err).toContain('note: budget 60, from the link (b=60)');
    expect(r.err).toContain('note: pin-first true, from the link (pin=1)');
  });

  it('read from a file or stdin holding the link (newcomer: "simulate needs --policy")', async () => {
    const url = link(INVOICES, { budget: 60 });
    const direct = await simJson([url, '--policy', 'message']);
    for (const [name, text] of [
      ['simlink.txt', `${url}\n`],
      ['-', url],
    ] as const) {
      const r = await cli(['simulate', name, '--policy', 'message', '--json'], { [name]: text });
      expect(r.code, name).toBe(direct.code);
      expect(JSON.parse(r.out), name).toEqual(direct.j);
      expect(r.err, name).toContain('note: budget 60, from the link (b=60)');
    }
    // A FILE that holds a transcript sets no budget: bad usage.
    const plain = await cli(['simulate', 'inv.json', '--policy', 'message'], files);
    expect(plain.code).toBe(2);
    expect(plain.err).toMatch(/simulate needs --budget N/);
  });

  it('flags win over the link', async () => {
    const url = link(INVOICES, { budget: 900 });
    const r = await simJson([url, '--policy', 'message', '--budget', '60']);
    expect(r.j.budget).toBe(60);
    expect(r.err).toContain("budget 60, from --budget (it overrides the link's b=900)");
  });
});
