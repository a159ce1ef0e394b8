/**
 * `ai-sdk-prune` against the AI SDK itself: the `ai` package's `pruneMessages` run offline on
 * the same transcripts (our messages as the SDK's `ModelMessage`s, `sdkView`), at every budget
 * of the policy's sweep, on every project fixture. The blocks and messages our result keeps are
 * the ones the library keeps; the verdict at each budget is recorded.
 */
import { pruneMessages, type ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { projectFixtures, sweepBudgets, type LoadedFixture } from '../testing.ts';
import { simulatePolicy } from '../policies.ts';
import { sdkView, type SdkMessage, type SdkPart } from './aiSdkPrune.ts';

/** Our view as the SDK's own messages; every part carries where it comes from. */
function modelMessages(view: readonly SdkMessage[]): ModelMessage[] {
  const names = new Map<string, string>();
  for (const s of view)
    for (const p of s.parts ?? []) if (p.type === 'tool-call') names.set(p.id ?? '', p.name ?? '');
  const from = (p: SdkPart) => ({ ti: { m: p.m, b: p.b } });
  const part = (p: SdkPart) => {
    switch (p.type) {
      case 'reasoning':
        return { type: 'reasoning' as const, text: 'r', providerOptions: from(p) };
      case 'tool-call':
        return {
          type: 'tool-call' as const,
          toolCallId: p.id ?? '',
          toolName: p.name ?? '',
          input: {},
          providerOptions: from(p),
        };
      case 'tool-result':
        return {
          type: 'tool-result' as const,
          toolCallId: p.id ?? '',
          toolName: names.get(p.id ?? '') ?? p.name ?? '',
          output: { type: 'text' as const, value: 'x' },
          providerOptions: from(p),
        };
      case 'file':
        return {
          type: 'file' as const,
          data: 'AA==',
          mediaType: 'image/png',
          providerOptions: from(p),
        };
      default:
        return { type: 'text' as const, text: 't', providerOptions: from(p) };
    }
  };
  return view.map((s) => {
    if (s.role === 'system')
      return {
        role: 'system',
        content: s.text ?? '',
        providerOptions: { ti: { m: s.ours, b: -1 } },
      };
    return { role: s.role, content: (s.parts ?? []).map(part) } as ModelMessage;
  });
}

/** What the library keeps: "m:b" for each part, "m:-1" for a system message. */
function libraryKeeps(f: LoadedFixture, budget: number): string[] {
  const messages = modelMessages(sdkView(f.t.messages));
  const out =
    f.table.total > budget
      ? pruneMessages({
          messages,
          reasoning: 'before-last-message',
          toolCalls: 'before-last-2-messages',
          emptyMessages: 'remove',
        })
      : messages;
  const keys: string[] = [];
  for (const m of out) {
    if (typeof m.content === 'string') {
      const ti = (m.providerOptions as { ti: { m: number } }).ti;
      keys.push(`${ti.m}:-1`);
      continue;
    }
    for (const p of m.content) {
      const from = ('providerOptions' in p ? p.providerOptions : undefined) as unknown as {
        ti: { m: number; b: number };
      };
      keys.push(`${from.ti.m}:${from.ti.b}`);
    }
  }
  return keys.sort();
}

/** What our result keeps, in the same keys. */
function policyKeeps(f: LoadedFixture, budget: number) {
  const r = simulatePolicy(f.ctx, 'ai-sdk-prune', budget);
  const removed = new Set((r.edits ?? []).map((e) => `${e.index}:${e.block}`));
  const keys: string[] = [];
  for (const i of r.kept) {
    const m = f.t.messages[i];
    if (!m) continue;
    if (m.role === 'system' || m.role === 'developer') keys.push(`${i}:-1`);
    else m.blocks.forEach((_, b) => removed.has(`${i}:${b}`) || keys.push(`${i}:${b}`));
  }
  return { r, keys: keys.sort() };
}

describe('ai-sdk-prune equals the AI SDK pruneMessages', () => {
  const fixtures = projectFixtures();
  it('reads the project fixtures', () => {
    expect(fixtures.length).toBeGreaterThan(20);
  });
  it.each(fixtures.map((f) => [f.name, f] as const))(
    '%s: same blocks kept at every budget of the sweep; verdict recorded',
    (_name, f) => {
      const verdicts: string[] = [];
      for (const budget of sweepBudgets(f.ctx, 'ai-sdk-prune')) {
        const { r, keys } = policyKeeps(f, budget);
        expect(keys, `budget ${budget}`).toEqual(libraryKeeps(f, budget));
        expect(r.validation.valid).toBe(r.firstError === null);
        verdicts.push(`${budget}: ${r.firstError ? `400 ${r.firstError.code}` : 'valid'}`);
      }
      expect(verdicts.length).toBeGreaterThan(0);
      expect(verdicts).toMatchSnapshot();
    },
  );
});
