/**
 * The AI SDK's own refusals, observed: generated ModelMessage lists go through the real
 * `generateText` (a mock model, no network); the SDK throws exactly when `aiSdkRefusals` says it
 * does, with the text it quotes. The dev dependency is ai 6, the last major whose `engines`
 * admit Node 20; `aiSdkRefusals` says what ai 7 refuses and what ai 6 does instead. ai 7's
 * defaults ai 6 reaches with `allowSystemInMessages: false` (ai 7 refuses a system message
 * unless that option is true; ai 6 warns unless it is set). The one text ai 7 changed is the
 * option its refusal names: ai 6 says "Use the system option instead.", ai 7 "Use the
 * instructions option instead." (the option was renamed); `asAi7` maps that sentence and
 * nothing else. */
import fc from 'fast-check';
import { generateText, type ModelMessage } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it, vi } from 'vitest';
import { parseTranscript } from '../index.ts';
import { aiSdkRefusals, missingToolResultsText } from './aiSdkRefusals.ts';

const IDS = ['c1', 'c2', 'c3'];

const arbPart = (role: string): fc.Arbitrary<Record<string, unknown>> =>
  role === 'assistant'
    ? fc.oneof(
        fc.constant({ type: 'text', text: 'thinking it over' }),
        fc
          .constantFrom(...IDS)
          .map((id) => ({ type: 'tool-call', toolCallId: id, toolName: 'f', input: {} })),
      )
    : fc.constantFrom(...IDS).map((id) => ({
        type: 'tool-result',
        toolCallId: id,
        toolName: 'f',
        output: { type: 'text', value: 'ok' },
      }));

// System messages rarely, so that most lists reach the tool-result check.
const arbMessage = fc
  .constantFrom('user', 'user', 'assistant', 'assistant', 'tool', 'tool', 'tool', 'system')
  .chain(
    (role): fc.Arbitrary<{ role: string; content: unknown }> =>
      role === 'user' || role === 'system'
        ? fc.constant({ role, content: 'hello' })
        : fc
            .array(arbPart(role), { minLength: 1, maxLength: 3 })
            .map((content) => ({ role, content })),
  );

/** The mock model's answer: one text reply. */
function generated() {
  return {
    content: [{ type: 'text' as const, text: 'ok' }],
    finishReason: { unified: 'stop' as const, raw: 'stop' },
    usage: {
      inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: 1, text: 1, reasoning: 0 },
    },
    warnings: [],
  };
}

/** The SDK's verdict: the error it throws before sending, or null when it calls the model. */
async function sdkRefusal(messages: unknown[]): Promise<string | null> {
  const model = new MockLanguageModelV3({ doGenerate: async () => generated() });
  try {
    await generateText({
      model,
      messages: messages as ModelMessage[],
      maxRetries: 0,
      allowSystemInMessages: false,
    });
    return null;
  } catch (e) {
    return asAi7(`${(e as Error).name}: ${(e as Error).message}`);
  }
}

/** ai 6's refusal of a system message in ai 7's words: only the renamed option differs. */
function asAi7(refusal: string): string {
  return refusal.replace(
    /Use the system option instead\.$/,
    'Use the instructions option instead.',
  );
}

/** Our verdict, read from the notes: the SDK error name and quoted text, or null. */
function ourRefusal(messages: unknown[]): string | null {
  const parsed = parseTranscript(JSON.stringify(messages), { format: 'vercel-ai' });
  if (!parsed.ok) throw new Error(parsed.error.message);
  const notes = aiSdkRefusals(parsed.value.transcript.messages);
  const first = notes[0];
  if (first === undefined) return null;
  const m = /(AI_\w+)(?: "([^"]*)")?/.exec(first);
  if (!m) throw new Error(first);
  const [, name, text] = m;
  return `${name}: ${text}`;
}

describe('aiSdkRefusals: what the AI SDK refuses to send', () => {
  it('names the unanswered calls in the SDK’s own words', () => {
    expect(missingToolResultsText(['a'])).toBe('Tool result is missing for tool call a.');
    expect(missingToolResultsText(['a', 'b'])).toBe(
      'Tool results are missing for tool calls a, b.',
    );
  });

  it('a system message: the note says what each major does, and ai 6 (installed) sends it with a warning', async () => {
    const messages = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'hello' },
    ];
    const parsed = parseTranscript(JSON.stringify(messages), { format: 'vercel-ai' });
    if (!parsed.ok) throw new Error(parsed.error.message);
    const [note] = aiSdkRefusals(parsed.value.transcript.messages);
    expect(note).toMatch(/ai 7 refuses it before any request is sent, AI_InvalidPromptError/);
    expect(note).toMatch(/ai 6 \(6\.0\.333\) sends it with a console warning/);
    // ai 6's default (no allowSystemInMessages): the call is made, with a warning.
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const model = new MockLanguageModelV3({ doGenerate: async () => generated() });
      const r = await generateText({ model, messages: messages as ModelMessage[], maxRetries: 0 });
      expect(r.text).toBe('ok');
      expect(model.doGenerateCalls).toHaveLength(1);
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^AI SDK Warning: System messages/));
    } finally {
      warn.mockRestore();
    }
  });

  it('the real SDK throws exactly when we say it does, with the same error', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(arbMessage, { maxLength: 6 }), async (messages) => {
        expect(ourRefusal(messages)).toBe(await sdkRefusal(messages));
      }),
      { numRuns: 200 },
    );
  });
});
