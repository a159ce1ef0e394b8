import { describe, expect, it } from 'vitest';
import { analyze } from '../src/model/analyze.ts';
import { parseTranscript } from '../src/model/parse/index.ts';
import { generate, GEN_FORMATS } from './gen.ts';

describe('npm run gen', () => {
  it.each(GEN_FORMATS)(
    '%s: deterministic by seed, detected as its format, parallel calls, errors and thinking',
    (format) => {
      const a = generate({ messages: 400, format, seed: 5 });
      expect(generate({ messages: 400, format, seed: 5 })).toBe(a);
      expect(generate({ messages: 400, format, seed: 6 })).not.toBe(a);
      const r = parseTranscript(a, {
        name: format === 'claude-code-jsonl' ? 'session.jsonl' : 'body.json',
      });
      if (!r.ok) throw new Error(r.error.message);
      const t = r.value.transcript;
      expect(t.format).toBe(format);
      if (format === 'claude-code-jsonl')
        expect(a.trim().split('\n').length).toBeGreaterThanOrEqual(400);
      else expect(t.messages.length).toBeGreaterThanOrEqual(400);
      const calls = t.messages.map((m) => m.blocks.filter((b) => b.type === 'tool_use').length);
      expect(Math.max(...calls)).toBeGreaterThan(1);
      expect(
        t.messages.some(
          (m) => m.blocks.some((b) => b.type === 'tool_result' && b.isError) || m.role === 'tool',
        ),
      ).toBe(true);
      if (format !== 'openai-chat')
        expect(t.messages.some((m) => m.blocks.some((b) => b.type === 'thinking'))).toBe(true);
    },
  );

  it.each(GEN_FORMATS)('%s: a few broken pairs by default, none with broken: 0', (format) => {
    const name = format === 'claude-code-jsonl' ? 'session.jsonl' : 'body.json';
    const broken = parseTranscript(generate({ messages: 600, format, seed: 2 }), { name });
    const clean = parseTranscript(generate({ messages: 600, format, seed: 2, broken: 0 }), {
      name,
    });
    if (!broken.ok || !clean.ok) throw new Error('generated text does not parse');
    expect(analyze(broken.value.transcript).validation.valid).toBe(false);
    expect(
      analyze(clean.value.transcript).validation.violations.filter((v) => v.severity === 'error'),
    ).toEqual([]);
  });

  it('--mb reaches the requested size', () => {
    const text = generate({ messages: 1, format: 'anthropic-messages', mb: 1, seed: 1 });
    expect(text.length).toBeGreaterThanOrEqual(1e6);
    expect(text.length).toBeLessThan(1.6e6);
  });
});
