/**
 * Property: whatever body a client POSTs to a provider URL, the checked fetch either refuses it
 * with MalformedTranscriptError (nothing sent) or calls the inner fetch with the very same
 * arguments; it never throws anything else and never changes a request.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createCheckedFetch, MalformedTranscriptError, type FetchLike } from './index.ts';

const URLS = [
  'https://api.anthropic.com/v1/messages',
  'https://api.openai.com/v1/chat/completions',
  'https://api.openai.com/v1/responses',
  'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-pro:generateContent',
  'https://bedrock-runtime.us-east-1.amazonaws.com/model/m/converse',
  'https://example.com/elsewhere',
];

/** Message-like values: roles, block types and ids from small pools, so pairs often meet. */
const id = fc.constantFrom('toolu_1', 'toolu_2', 'call_1', 'call_2');
const block = fc.oneof(
  fc.record({ type: fc.constant('text'), text: fc.string() }),
  fc.record({ type: fc.constant('tool_use'), id, name: fc.string(), input: fc.object() }),
  fc.record({ type: fc.constant('tool_result'), tool_use_id: id, content: fc.string() }),
  fc.record({ functionCall: fc.record({ name: fc.string(), args: fc.object() }) }),
  fc.record({ toolResult: fc.record({ toolUseId: id, content: fc.constant([{ text: 'ok' }]) }) }),
  fc.record({ type: fc.constant('function_call_output'), call_id: id, output: fc.string() }),
  fc.anything(),
);
const message = fc.record(
  {
    role: fc.constantFrom('user', 'assistant', 'tool', 'system', 'model', 42),
    content: fc.oneof(fc.string(), fc.array(block, { maxLength: 4 }), fc.constant(null)),
    parts: fc.array(block, { maxLength: 3 }),
    tool_calls: fc.array(
      fc.record({
        id,
        type: fc.constant('function'),
        function: fc.record({ name: fc.string(), arguments: fc.string() }),
      }),
      { maxLength: 2 },
    ),
    tool_call_id: id,
  },
  { requiredKeys: ['role'] },
);
const body = fc.oneof(
  fc.record({ model: fc.string(), messages: fc.array(message, { maxLength: 8 }) }),
  fc.record({ contents: fc.array(message, { maxLength: 8 }) }),
  fc.record({ input: fc.oneof(fc.string(), fc.array(block, { maxLength: 8 })) }),
  fc.jsonValue(),
);
/**
 * A Messages body whose tool_result answers no call, somewhere among other messages: a 400 at
 * Anthropic, so the refusing branch is met in every run (the bodies above are broken about one
 * time in a hundred, and 300 runs then met none about one run in twenty).
 */
const orphaned = fc
  .tuple(fc.array(message, { maxLength: 3 }), id, fc.string())
  .map(([before, orphan, out]) => ({
    model: 'claude-sonnet-4-5',
    max_tokens: 64,
    messages: [
      ...before,
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: orphan, content: out }] },
    ],
  }));
const text = fc.oneof(
  body.map((b) => JSON.stringify(b) ?? 'null'),
  fc.string(),
  orphaned.map((b) => JSON.stringify(b)),
);

describe('createCheckedFetch on any body', () => {
  it('refuses with MalformedTranscriptError, or sends the same arguments', async () => {
    const seen = { sent: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...URLS), text, async (url, bodyText) => {
        const calls: unknown[][] = [];
        const inner: FetchLike = (...args) => {
          calls.push(args);
          return Promise.resolve(new Response('{}'));
        };
        const init = { method: 'POST', body: bodyText };
        const outcome = await createCheckedFetch({ fetch: inner, mode: 'throw' })(url, init).then(
          () => 'sent',
          (e: unknown) => e,
        );
        seen[outcome === 'sent' ? 'sent' : 'refused']++;
        if (outcome === 'sent') {
          expect(calls).toHaveLength(1);
          expect(calls[0]?.[0]).toBe(url);
          expect(calls[0]?.[1]).toBe(init);
          expect(init.body).toBe(bodyText);
        } else {
          expect(outcome).toBeInstanceOf(MalformedTranscriptError);
          expect(calls).toHaveLength(0);
          expect((outcome as MalformedTranscriptError).providerError).not.toBeNull();
        }
      }),
      { numRuns: 300 },
    );
    // Both branches are exercised (the generators make broken pairs as well as other bodies).
    expect(seen.sent).toBeGreaterThan(0);
    expect(seen.refused).toBeGreaterThan(0);
  });
});
