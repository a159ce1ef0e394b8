/**
 * Corpus suite: repair mode on the shared cases (rebuilt from public bug reports) and the real
 * request bodies a provider accepted. Each broken case that repair can fix is sent repaired and
 * valid, each change reported with its rule and label; one it cannot fix is not sent; an accepted
 * body is sent byte for byte as given.
 */
import { describe, expect, it } from 'vitest';
import { corpusCases, PROVIDER_OF_API, readReal, realFiles } from '../testing/corpus.ts';
import { check, createCheckedFetch, repair, type FetchLike, type RepairReport } from './index.ts';

/** Where each API's request is sent. */
const URL_OF: Record<string, string> = {
  'anthropic-messages': 'https://api.anthropic.com/v1/messages',
  'openai-chat': 'https://api.openai.com/v1/chat/completions',
  'openai-responses': 'https://api.openai.com/v1/responses',
  gemini: 'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-pro:generateContent',
  'bedrock-converse':
    'https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-sonnet-4-5/converse',
};

function harness() {
  const sent: { input: unknown; init: RequestInit | undefined }[] = [];
  const repairs: RepairReport[] = [];
  const inner: FetchLike = (input, init) => {
    sent.push({ input, init });
    return Promise.resolve(new Response('{}'));
  };
  const f = createCheckedFetch({ fetch: inner, mode: 'repair', onRepair: (r) => repairs.push(r) });
  return { f, sent, repairs };
}

describe('repair mode on the shared cases', () => {
  const cases = corpusCases().filter(({ c }) => URL_OF[c.provider_api] && !c.expected.valid);
  it('there are broken request cases', () => expect(cases.length).toBeGreaterThan(5));
  for (const { file, c } of cases)
    it(file, async () => {
      const provider = PROVIDER_OF_API.get(c.provider_api);
      const body = JSON.stringify(c.transcript);
      const before = check(body, { format: c.format, ...(provider ? { provider } : {}) });
      expect(before.valid).toBe(false);
      const expected = repair(body, { format: c.format, ...(provider ? { provider } : {}) });
      const h = harness();
      await h.f(URL_OF[c.provider_api] as string, { method: 'POST', body });
      if (!expected.valid) {
        expect(h.sent).toHaveLength(0);
        return;
      }
      expect(h.sent).toHaveLength(1);
      const text = h.sent[0]?.init?.body as string;
      expect(check(text, { format: c.format }).valid).toBe(true);
      const changes = h.repairs[0]?.changes ?? [];
      expect(changes.map(({ label: _, ...x }) => x)).toEqual(expected.changes);
      for (const ch of changes) expect(ch.rule).not.toBeNull();
    });
});

describe('repair mode sends an accepted request byte for byte', () => {
  const dirs: Record<string, string> = {
    'anthropic-messages': URL_OF['anthropic-messages'] as string,
    'openai-chat': URL_OF['openai-chat'] as string,
    'openai-responses': URL_OF['openai-responses'] as string,
    'gemini-api': URL_OF.gemini as string,
  };
  const files = Object.keys(dirs).flatMap((d) => realFiles(d).filter((f) => f.endsWith('.json')));
  it('there are accepted requests', () => expect(files.length).toBeGreaterThan(0));
  for (const f of files)
    it(f, async () => {
      const body = readReal(f);
      const h = harness();
      const init = { method: 'POST', body };
      await h.f(dirs[f.split('/')[0] as string] as string, init);
      expect(h.sent).toHaveLength(1);
      expect(h.sent[0]?.init).toBe(init);
      expect(h.repairs).toHaveLength(0);
    });
});
