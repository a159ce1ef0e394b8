/**
 * The context window as a rule (contextWindow.ts; catalogue O14, A21, G12, CW1): per provider
 * over, under, near the estimate's margin and an unknown model, by a count and by the text's
 * bounds alone. On the old code every request here was valid (the windows only labelled the
 * simulator's budget).
 */
import { describe, expect, it } from 'vitest';
import { parsed, parsedText } from '../testing/index.ts';
import { claudeCodeLog } from '../testing/claudeCodeLog.ts';
import type { ProviderId, Transcript } from '../types.ts';
import { ESTIMATE_MARGIN } from '../tokens.ts';
import { MAX_ALNUM_PER_TOKEN } from '../tokenBounds.ts';
import { windowWantsCount, type InputCount } from './contextWindow.ts';
import { validateTranscript } from './index.ts';

/** `chars` of prose (letters and spaces) in one user message of a Chat body for `model`. */
function chat(model: string, chars: number): Transcript {
  return parsed({ model, messages: [{ role: 'user', content: prose(chars) }] }).transcript;
}
function claude(model: string, chars: number): Transcript {
  return parsed({ model, max_tokens: 10, messages: [{ role: 'user', content: prose(chars) }] })
    .transcript;
}
function gemini(model: string, chars: number): Transcript {
  return parsed({ model, contents: [{ role: 'user', parts: [{ text: prose(chars) }] }] })
    .transcript;
}
function prose(chars: number): string {
  return 'lorem ipsum dolor sit amet '.repeat(Math.ceil(chars / 27)).slice(0, chars);
}
const exact = (tokens: number): InputCount => ({ tokens, exact: true, label: 'exact o200k_base' });
const estimate = (tokens: number): InputCount => ({ tokens, exact: false, label: '≈ estimate' });

function judged(t: Transcript, provider: ProviderId, count?: InputCount) {
  const v = validateTranscript(t, provider, count ? { inputTokens: count } : undefined);
  return { v, w: v.violations.filter((x) => x.rule === 'context_window_exceeded') };
}

describe('context window, OpenAI (exact count)', () => {
  const t = chat('gpt-4o-2024-08-06', 60_000);
  it('one token over the window: O14 with OpenAI’s text and body', () => {
    const { v, w } = judged(t, 'openai-chat', exact(128_001));
    expect(v.valid).toBe(false);
    expect(w).toHaveLength(1);
    expect(w[0]).toMatchObject({ code: 'O14', severity: 'error', status: 400, index: -1 });
    expect(w[0]?.error).toEqual({
      error: {
        message:
          "This model's maximum context length is 128000 tokens. However, your messages resulted in 128001 tokens. Please reduce the length of the messages.",
        type: 'invalid_request_error',
        param: 'messages',
        code: 'context_length_exceeded',
      },
    });
  });
  it('exactly the window: valid, no warning', () => {
    const { v, w } = judged(t, 'openai-chat', exact(128_000));
    expect(v.valid).toBe(true);
    expect(w).toEqual([]);
  });
  it('a count that is not exact (chars/4, hard cuts) is judged as an estimate', () => {
    expect(judged(t, 'openai-chat', estimate(130_000)).w[0]?.code).toBe('CW1');
    expect(judged(t, 'openai-chat', estimate(200_000)).w[0]?.code).toBe('O14');
  });
  it('a count that holds guessed image sizes: over only when the counted part is', () => {
    const img = parsed({
      model: 'gpt-4o',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: prose(60_000) },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
          ],
        },
      ],
    }).transcript;
    const { v, w } = judged(img, 'openai-chat', exact(128_500));
    expect(v.valid).toBe(true);
    expect(w[0]?.code).toBe('CW1');
    expect(w[0]?.message).toContain('guessed image or document sizes');
  });
  it('other windows by model: gpt-4.1 (1,047,576), gpt-5 (400,000), o3 (200,000)', () => {
    expect(judged(chat('gpt-4.1', 400_000), 'openai-chat', exact(1_047_577)).w[0]?.code).toBe(
      'O14',
    );
    expect(judged(chat('gpt-4.1', 400_000), 'openai-chat', exact(1_047_576)).v.valid).toBe(true);
    expect(judged(chat('gpt-5', 200_000), 'openai-chat', exact(400_001)).w[0]?.message).toContain(
      'maximum context length is 400000 tokens',
    );
    expect(judged(chat('o3-mini', 100_000), 'openai-chat', exact(200_001)).v.valid).toBe(false);
  });
  it('Azure OpenAI: the same rule and text', () => {
    expect(judged(t, 'azure-openai', exact(128_001)).w[0]?.code).toBe('O14');
  });
  it('an unknown model, or none: no judgement, whatever the count', () => {
    for (const u of [
      chat('my-finetune', 60_000),
      parsed({ messages: [{ role: 'user', content: prose(60_000) }] }).transcript,
    ]) {
      const { v, w } = judged(u, 'openai-chat', exact(10_000_000));
      expect(v.valid).toBe(true);
      expect(w).toEqual([]);
      expect(windowWantsCount(u, 'openai-chat')).toBe(false);
    }
  });
  it('a request far under its window is cleared by its length alone (no count wanted)', () => {
    const small = chat('gpt-4o', 10_000);
    expect(windowWantsCount(small, 'openai-chat')).toBe(false);
    // A count is not even read: the text cannot hold more than 3 tokens per character.
    expect(judged(small, 'openai-chat', exact(999_999)).v.valid).toBe(true);
  });
  it('a huge body is over by its text alone (letters ÷ 26), before any count', () => {
    const letters = 128_000 * MAX_ALNUM_PER_TOKEN + 27 * 100;
    const huge = chat('gpt-4o', Math.ceil(letters / 0.8)); // the prose is 22 letters in 27
    const { v, w } = judged(huge, 'openai-chat');
    expect(v.valid).toBe(false);
    expect(w[0]).toMatchObject({ code: 'O14', severity: 'error' });
    expect(w[0]?.why).toContain('at least');
    // Decided by the bound: no count wanted (cheap first; a 100 MB body is never run through BPE).
    expect(windowWantsCount(huge, 'openai-chat')).toBe(false);
  });
  it('between the bounds, without a count: a note, no verdict', () => {
    const mid = chat('gpt-4o', 200_000);
    const { v, w } = judged(mid, 'openai-chat');
    expect(v.valid).toBe(true);
    expect(w).toEqual([]);
    expect(v.notes.join(' ')).toContain('not judged yet');
    expect(windowWantsCount(mid, 'openai-chat')).toBe(true);
  });
});

describe('context window, Anthropic (estimate, margin 0.3)', () => {
  const m = ESTIMATE_MARGIN.claude;
  const t = claude('claude-sonnet-4-5', 100_000);
  it('beyond the margin: A21 with Anthropic’s text', () => {
    const n = Math.floor(200_000 * (1 + m)) + 1;
    const { v, w } = judged(t, 'anthropic', estimate(n));
    expect(v.valid).toBe(false);
    expect(w[0]).toMatchObject({ code: 'A21', severity: 'error', status: 400 });
    expect(w[0]?.error).toEqual({
      type: 'error',
      error: {
        type: 'invalid_request_error',
        message: `prompt is too long: ${n} tokens > 200000 maximum`,
      },
    });
  });
  it('over the window but within the margin: "may exceed" (CW1 warning naming the estimate)', () => {
    const { v, w } = judged(t, 'anthropic', estimate(220_000));
    expect(v.valid).toBe(true);
    expect(w[0]).toMatchObject({ code: 'CW1', severity: 'warning', error: null });
    expect(w[0]?.message).toContain('≈ 220,000 tokens (≈ estimate');
    expect(w[0]?.message).toContain('±30 %');
  });
  it('under the window but within the margin: "may exceed" too', () => {
    expect(judged(t, 'anthropic', estimate(160_000)).w[0]?.code).toBe('CW1');
  });
  it('under the window by more than the margin: nothing', () => {
    expect(judged(t, 'anthropic', estimate(150_000)).w).toEqual([]);
  });
  it('Bedrock InvokeModel: the text after Bedrock’s prefix, in its body', () => {
    const { w } = judged(t, 'anthropic-bedrock', estimate(300_000));
    expect(w[0]?.error).toEqual({
      message:
        'The model returned the following errors: prompt is too long: 300000 tokens > 200000 maximum',
    });
  });
  it('an unknown model: no judgement', () => {
    expect(judged(claude('my-model', 100_000), 'anthropic', estimate(900_000)).w).toEqual([]);
  });
});

describe('context window, Gemini (estimate, margin 0.3)', () => {
  const t = gemini('gemini-2.5-pro', 400_000);
  it('beyond the margin: G12 with Gemini’s text', () => {
    const { v, w } = judged(t, 'gemini', estimate(1_400_000));
    expect(v.valid).toBe(false);
    expect(w[0]?.error).toEqual({
      error: {
        code: 400,
        message:
          'The input token count (1400000) exceeds the maximum number of tokens allowed (1048576).',
        status: 'INVALID_ARGUMENT',
      },
    });
  });
  it('within the margin: CW1; far under: nothing; unknown model: nothing', () => {
    expect(judged(t, 'gemini', estimate(1_100_000)).w[0]?.code).toBe('CW1');
    expect(judged(t, 'gemini', estimate(700_000)).w).toEqual([]);
    expect(judged(gemini('gemma-3', 400_000), 'gemini', estimate(9_000_000)).w).toEqual([]);
  });
});

describe('context window, an endpoint whose answer is not captured', () => {
  it('DeepSeek over its window beyond the margin: a CW1 warning, not a guessed 400', () => {
    const t = chat('deepseek-chat', 100_000);
    const { v, w } = judged(t, 'deepseek', estimate(300_000));
    expect(v.valid).toBe(true);
    expect(w[0]).toMatchObject({ code: 'CW1', severity: 'warning' });
    expect(w[0]?.message).toContain('not captured');
  });
});

describe('context window, session logs', () => {
  it('a session log whose whole text is over the window is not judged: no call sent it whole', () => {
    // Each call of a log was counted by the provider and answered; the whole view joins them all.
    const log = claudeCodeLog();
    for (let k = 0; k < 12; k++) {
      log.user(prose(100_000));
      log.assistant(`msg_${k}`, [{ type: 'text', text: 'ok' }]);
    }
    const t = parsedText(log.text(), { name: 'session.jsonl' }).transcript;
    expect(t.format).toBe('claude-code-jsonl');
    expect(t.settings.model).toMatch(/claude/);
    const { v, w } = judged(t, 'anthropic', estimate(1_000_000));
    expect(w).toEqual([]);
    expect(v.notes.join('\n')).not.toMatch(/window/);
    // The same text as one request body is over Claude's window (the rule still judges bodies).
    expect(
      judged(claude('claude-opus-4-7', 1_200_000), 'anthropic', estimate(1_000_000)).w[0]?.code,
    ).toBe('A21');
  });
});
