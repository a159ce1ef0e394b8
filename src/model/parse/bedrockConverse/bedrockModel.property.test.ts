/**
 * What a top-level `model` does to a body of Converse-shaped messages (parse/modelNames.ts and
 * the Converse sniff): it never changes how the messages read, it keeps a body with blocks only
 * Converse has (or with `modelId`, or with a Bedrock model id) Converse's, and it takes a body of
 * plain `{text}` blocks away from Converse when it names another API's model.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDocument } from '../index.ts';
import type { Transcript } from '../../types.ts';

const arbText = fc.constantFrom('hi', 'Weather in Paris?', 'Done.').map((text) => ({ text }));
const arbStrong = fc.oneof(
  fc.constant({ toolUse: { toolUseId: 't1', name: 'weather', input: { city: 'Paris' } } }),
  fc.constant({ toolResult: { toolUseId: 't1', content: [{ text: '18C' }] } }),
  fc.constant({ image: { format: 'png', source: { bytes: 'iVBORw0KGgo=' } } }),
  fc.constant({ cachePoint: { type: 'default' } }),
  fc.constant({ reasoningContent: { reasoningText: { text: 'hmm', signature: 's' } } }),
);

/** Converse messages, alternating roles; `strong`: at least one block only Converse has. */
function arbMessages(strong: boolean): fc.Arbitrary<unknown[]> {
  const arbBlocks = fc.array(strong ? fc.oneof(arbText, arbStrong) : arbText, {
    minLength: 1,
    maxLength: 3,
  });
  return fc
    .tuple(fc.array(arbBlocks, { minLength: 1, maxLength: 5 }), arbStrong, fc.nat())
    .map(([contents, mark, at]) => {
      const list = contents.map((content, i) => ({
        role: i % 2 === 0 ? 'user' : 'assistant',
        content: [...content],
      }));
      if (strong) (list[at % list.length] as { content: unknown[] }).content.push(mark);
      return list;
    });
}

const OTHER_MODELS = ['gpt-4o', 'o3-mini', 'claude-sonnet-4-5', 'gemini-2.5-flash'];
const BEDROCK_IDS = [
  'anthropic.claude-3-5-sonnet-20240620-v1:0',
  'us.anthropic.claude-sonnet-4-5-20250929-v1:0',
  'amazon.nova-pro-v1:0',
  'meta.llama3-1-70b-instruct-v1:0',
];
const arbModel = fc.oneof(fc.constantFrom(...OTHER_MODELS, ...BEDROCK_IDS), fc.string());

function read(value: unknown): Transcript {
  const r = parseDocument({ kind: 'json', value });
  if (!r.ok) throw new Error(r.error.message);
  return r.value.transcript;
}

/** The messages as read, apart from where they came from. */
const blocksOf = (t: Transcript) => t.messages.map((m) => [m.role, m.blocks]);

describe('Bedrock Converse bodies with a top-level `model`', () => {
  it('with `modelId`, any `model` changes nothing: still Converse, the same messages', () => {
    fc.assert(
      fc.property(fc.boolean().chain(arbMessages), arbModel, (messages, model) => {
        const body = { modelId: 'amazon.nova-pro-v1:0', messages };
        const before = read(body);
        const after = read({ ...body, model });
        expect(before.format).toBe('bedrock-converse');
        expect(after.format).toBe('bedrock-converse');
        expect(blocksOf(after)).toEqual(blocksOf(before));
      }),
    );
  });

  it('holding a block only Converse has, any `model` keeps it Converse, with the same messages', () => {
    fc.assert(
      fc.property(arbMessages(true), arbModel, (messages, model) => {
        const before = read({ messages });
        const after = read({ model, messages });
        expect(after.format).toBe('bedrock-converse');
        expect(blocksOf(after)).toEqual(blocksOf(before));
      }),
    );
  });

  it('a Bedrock model id under `model` keeps any Converse body Converse\u2019s', () => {
    fc.assert(
      fc.property(
        fc.boolean().chain(arbMessages),
        fc.constantFrom(...BEDROCK_IDS),
        (messages, model) => {
          expect(read({ model, messages }).format).toBe('bedrock-converse');
        },
      ),
    );
  });

  it('plain `{text}` blocks and another API\u2019s model: never Converse; OpenAI and Gemini read as Chat, Claude as Anthropic', () => {
    const expected: Record<string, string> = {
      'gpt-4o': 'openai-chat',
      'o3-mini': 'openai-chat',
      'gemini-2.5-flash': 'openai-chat',
      'claude-sonnet-4-5': 'anthropic-messages',
    };
    fc.assert(
      fc.property(arbMessages(false), fc.constantFrom(...OTHER_MODELS), (messages, model) => {
        expect(read({ messages }).format).toBe('bedrock-converse');
        expect(read({ model, messages }).format).toBe(expected[model]);
      }),
    );
  });
});
