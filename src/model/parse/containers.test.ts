/**
 * Containers must not steal existing formats: no sample in public/samples and no case fixture is
 * taken for a curl command, an SSE dump, a HAR, a LiteLLM log or a batch file; and the text hook
 * costs nothing on JSON. The reported cases and real logs are checked the same way by
 * containers.corpus.test.ts (the corpus suite).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CASE_FIXTURES } from '../testing/cases.ts';
import { takenForContainer } from '../testing/index.ts';
import { chooseFormat, containerWarnings, openContainer, unwrapText } from './containers.ts';
import { parseTranscript } from './index.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const samplesDir = path.join(repoRoot, 'public/samples');

describe('existing formats are not taken for containers', () => {
  const samples = readdirSync(samplesDir).filter(
    (f) => /\.(json|jsonl)$/.test(f) && f !== 'index.json',
  );
  it('there are samples', () => expect(samples.length).toBeGreaterThan(0));
  for (const f of samples)
    it(`sample ${f}`, () =>
      expect(takenForContainer(readFileSync(path.join(samplesDir, f), 'utf8'), f)).toBe(false));

  for (const c of CASE_FIXTURES)
    it(`case fixture: ${c.name}`, () => {
      expect(openContainer({ kind: 'json', value: c.transcript })).toBeNull();
      expect(takenForContainer(JSON.stringify(c.transcript, null, 2))).toBe(false);
    });
});

describe('unwrapText', () => {
  it('ignores JSON and prose, reads curl and SSE', () => {
    expect(unwrapText('  {"curl": "https://api.anthropic.com/v1/messages"}')).toBeNull();
    expect(unwrapText('[]')).toBeNull();
    expect(unwrapText('hello world')).toBeNull();
    expect(
      unwrapText('curl https://api.anthropic.com/v1/messages -d \'{"messages":[]}\'')?.ok,
    ).toBe(true);
    expect(unwrapText('event: ping\ndata: {"type":"ping"}\n')?.ok).toBe(false);
  });

  it('the document it returns is opened again with its note', () => {
    const r = unwrapText(
      'curl https://api.openai.com/v1/chat/completions -d \'{"messages":[{"role":"user","content":"x"}]}\'',
    );
    expect(r?.ok).toBe(true);
    if (!r?.ok) return;
    const opened = openContainer(r.value);
    expect(opened?.ok && opened.value[0]?.note.formatHint).toBe('openai-chat');
    // A copy of the same JSON is not a container.
    expect(
      openContainer({ kind: 'json', value: (r.value as { value: unknown }).value }),
    ).toBeNull();
  });
});

describe('chooseFormat and containerWarnings', () => {
  const cands = [
    { format: 'anthropic-messages' as const, score: 0.6 },
    { format: 'openai-chat' as const, score: 0.6 },
  ];
  it('the hint decides between matching formats, and is only a warning against the body', () => {
    expect(chooseFormat({ kind: 'curl', where: 'x', formatHint: 'openai-chat' }, cands)).toEqual({
      format: 'openai-chat',
      hinted: true,
    });
    expect(chooseFormat({ kind: 'curl', where: 'x', formatHint: 'gemini' }, cands)).toEqual({
      format: 'anthropic-messages',
      hinted: false,
      warning:
        'The URL is a gemini endpoint, but the body reads as anthropic-messages; it is shown as anthropic-messages.',
    });
    expect(chooseFormat(undefined, cands)).toEqual({ format: 'anthropic-messages', hinted: false });
    expect(chooseFormat({ kind: 'curl', where: 'x', formatHint: 'gemini' }, [])).toEqual({
      format: 'gemini',
      hinted: true,
    });
  });
  it('warnings: where first, then the notes', () => {
    expect(
      containerWarnings({
        kind: 'har',
        where: 'HAR entry 1 of 1: POST /v1/messages',
        notes: ['n'],
      }),
    ).toEqual(['Unwrapped from the HAR entry 1 of 1: POST /v1/messages.', 'n']);
  });
});

describe('bad input never throws (property)', () => {
  const prefixes = [
    'curl ',
    'curl https://api.anthropic.com/v1/messages -d ',
    'data: ',
    'event: x\ndata: ',
    'curl ^"',
  ];
  it('any text after a container prefix gives a result or a ParseError', () => {
    fc.assert(
      fc.property(fc.constantFrom(...prefixes), fc.string(), (p, rest) => {
        const r = parseTranscript(p + rest);
        expect(typeof r.ok).toBe('boolean');
        if (!r.ok) expect(r.error.message.length).toBeGreaterThan(0);
      }),
    );
  });
  it('any JSON inside a HAR, LiteLLM or batch shape gives a result or a ParseError', () => {
    const shapes = (v: unknown) => [
      {
        log: {
          entries: [
            v,
            {
              request: { url: 'https://x/v1/messages', postData: { text: JSON.stringify(v) } },
              response: v,
            },
          ],
        },
      },
      {
        standard_logging_object: {
          call_type: 'completion',
          messages: v,
          response: v,
          response_cost: 0,
        },
      },
      [{ request_id: 'r', spend: 0, messages: v, response: v, proxy_server_request: v }],
      [
        { custom_id: 'c', result: { type: 'succeeded', message: v } },
        { custom_id: 'd', response: { body: v } },
      ],
      [{ candidates: [v] }, { candidates: v }],
    ];
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        for (const value of shapes(v)) {
          const opened = openContainer({ kind: 'json', value });
          expect(opened === null || typeof opened.ok === 'boolean').toBe(true);
          expect(typeof parseTranscript(JSON.stringify(value)).ok).toBe('boolean');
        }
      }),
    );
  });
});
