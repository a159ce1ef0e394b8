import { describe, expect, it } from 'vitest';
import { pairCounts, pairToolCalls } from '../../pairing.ts';
import type { Message, Transcript } from '../../types.ts';
import { bedrockConverseParser } from './bedrockConverse.ts';
import { parsed } from '../../testing/index.ts';
import { parseTranscript } from '../index.ts';

function parse(value: unknown): Transcript {
  const t = parsed(value).transcript;
  expect(t.format).toBe('bedrock-converse');
  return t;
}

const BODY = {
  modelId: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0',
  system: [{ text: 'You watch queues.' }, { cachePoint: { type: 'default' } }],
  toolConfig: {
    tools: [
      {
        toolSpec: {
          name: 'depth',
          description: 'Queue depth.',
          inputSchema: { json: { type: 'object' } },
        },
      },
    ],
    toolChoice: { any: {} },
  },
  additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 1024 } },
  messages: [
    {
      role: 'user',
      content: [
        { text: 'Is the queue stuck?' },
        { image: { format: 'png', source: { bytes: 'AAAABBBB' } } },
      ],
    },
    {
      role: 'assistant',
      content: [
        { reasoningContent: { reasoningText: { text: 'Check depth.', signature: 'sig' } } },
        { reasoningContent: { redactedContent: 'b3BhcXVl' } },
        { toolUse: { toolUseId: 'tooluse_1', name: 'depth', input: { queue: 'q1' } } },
      ],
    },
    {
      role: 'user',
      content: [
        {
          toolResult: {
            toolUseId: 'tooluse_1',
            status: 'error',
            content: [{ json: { error: 'timeout' } }, { text: 'retry later' }],
          },
        },
      ],
    },
  ],
};

describe('bedrock-converse parser (docs/formats.md#bedrock-converse)', () => {
  it('one message per message, one block per content block', () => {
    const t = parse(BODY);
    expect(t.system).toEqual([{ text: 'You watch queues.', path: 'system.0' }]);
    expect(t.tools).toEqual([
      { name: 'depth', description: 'Queue depth.', schema: { type: 'object' } },
    ]);
    expect(t.settings).toEqual({ model: BODY.modelId, thinking: true, toolChoiceForced: true });
    expect(t.messages.map((m) => [m.role, m.path, m.blocks.map((b) => b.type)])).toEqual([
      ['user', 'messages.0', ['text', 'image']],
      ['assistant', 'messages.1', ['thinking', 'redacted_thinking', 'tool_use']],
      ['user', 'messages.2', ['tool_result']],
    ]);
    expect(t.messages[0]?.blocks[1]).toEqual({ type: 'image', mediaType: 'image/png', bytes: 6 });
    expect(t.messages[1]?.blocks[0]).toEqual({
      type: 'thinking',
      thinking: 'Check depth.',
      signature: 'sig',
    });
    expect(t.messages[1]?.blocks[2]).toEqual({
      type: 'tool_use',
      id: 'tooluse_1',
      name: 'depth',
      input: { queue: 'q1' },
    });
    expect(t.messages[2]?.blocks[0]).toEqual({
      type: 'tool_result',
      toolUseId: 'tooluse_1',
      isError: true,
      content: [
        { type: 'text', text: '{"error":"timeout"}' },
        { type: 'text', text: 'retry later' },
      ],
    });
    expect(pairCounts(pairToolCalls(t.messages))).toMatchObject({ answered: 1 });
  });

  it('tools: null without toolConfig, thinking unknown for a bare array; a response object', () => {
    const bare = parse(BODY.messages);
    expect(bare.tools).toBeNull();
    expect(bare.settings.thinking).toBeUndefined();
    const noTools = parse({ messages: BODY.messages });
    expect(noTools.tools).toBeNull();
    const resp = parse({
      output: { message: { role: 'assistant', content: [{ text: 'Fine.' }] } },
      stopReason: 'end_turn',
      usage: { inputTokens: 15, outputTokens: 3, totalTokens: 18, cacheReadInputTokens: 0 },
    });
    expect(resp.messages).toMatchObject([{ role: 'assistant', path: 'output.message' }]);
    expect(resp.usage).toEqual([
      { messageIndex: 0, inputTokens: 15, outputTokens: 3, cacheReadTokens: 0 },
    ]);
  });

  it('never throws on junk blocks', () => {
    const r = bedrockConverseParser.parse({
      kind: 'json',
      value: { messages: [{ role: 'user', content: [null, { guardContent: {} }] }, 7] },
    });
    expect(
      r.ok &&
        r.value.messages.map((m) => m.blocks.map((b) => (b.type === 'other' ? b.label : b.type))),
    ).toEqual([['object', 'guardContent'], ['not an object']]);
  });

  it('write: untouched messages unchanged; changed ones rendered; other formats converted', () => {
    const t = parse(BODY);
    expect(JSON.parse(bedrockConverseParser.write?.(t) ?? 'null')).toEqual(BODY);
    const edited: Message = {
      ...(t.messages[1] as Message),
      raw: undefined,
      blocks: [{ type: 'text', text: 'Nothing to do.' }],
    };
    const cut: Transcript = { ...t, messages: [t.messages[0] as Message, edited] };
    const out = JSON.parse(bedrockConverseParser.write?.(cut) ?? 'null');
    expect(out.modelId).toBe(BODY.modelId);
    expect(out.messages).toEqual([
      BODY.messages[0],
      { role: 'assistant', content: [{ text: 'Nothing to do.' }] },
    ]);
    const anth = parseTranscript(
      JSON.stringify({
        system: 'Sys',
        messages: [
          { role: 'user', content: 'q' },
          {
            role: 'assistant',
            content: [{ type: 'tool_use', id: 'toolu_1', name: 'f', input: {} }],
          },
          {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: 'toolu_1', content: 'r', is_error: true },
            ],
          },
        ],
      }),
    );
    expect(anth.ok).toBe(true);
    if (!anth.ok) return;
    expect(JSON.parse(bedrockConverseParser.write?.(anth.value.transcript) ?? 'null')).toEqual({
      system: [{ text: 'Sys' }],
      messages: [
        { role: 'user', content: [{ text: 'q' }] },
        {
          role: 'assistant',
          content: [{ toolUse: { toolUseId: 'toolu_1', name: 'f', input: {} } }],
        },
        {
          role: 'user',
          content: [
            { toolResult: { toolUseId: 'toolu_1', content: [{ text: 'r' }], status: 'error' } },
          ],
        },
      ],
    });
  });
});
