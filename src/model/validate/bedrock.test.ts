import { describe, expect, it } from 'vitest';
import { parseDocument } from '../parse/index.ts';
import { assistant, call, result, tool, transcript, user } from '../testing/index.ts';
import type { Transcript } from '../types.ts';
import { validateTranscript } from './index.ts';

function parsed(body: unknown): Transcript {
  const r = parseDocument({ kind: 'json', value: body }, { format: 'bedrock-converse' });
  if (!r.ok) throw new Error(r.error.message);
  return r.value.transcript;
}
const errors = (t: Transcript, opts?: Parameters<typeof validateTranscript>[2]) =>
  validateTranscript(t, 'bedrock', opts).violations.filter((v) => v.severity === 'error');

const NOVA = 'amazon.nova-pro-v1:0';
const CLAUDE = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
const tools = {
  tools: [{ toolSpec: { name: 'lookup', inputSchema: { json: { type: 'object' } } } }],
};
const u = (text: string) => ({ role: 'user', content: [{ text }] });
const a = (text: string) => ({ role: 'assistant', content: [{ text }] });
const uses = (...ids: string[]) => ({
  role: 'assistant',
  content: ids.map((id) => ({ toolUse: { toolUseId: id, name: 'lookup', input: {} } })),
});
const results = (...ids: string[]) => ({
  role: 'user',
  content: ids.map((id) => ({
    toolResult: { toolUseId: id, status: 'success', content: [{ text: 'ok' }] },
  })),
});
const body = (messages: unknown[], modelId = NOVA) => ({ modelId, toolConfig: tools, messages });

describe('bedrock validator: one test per rule, exact text and ValidationException body (B1–B7)', () => {
  it('B1: more toolResult blocks than the previous turn had toolUse blocks', () => {
    const [v] = errors(parsed(body([u('a'), a('plain answer'), results('tooluse_x')])));
    const message =
      'The number of toolResult blocks at messages.2.content exceeds the number of toolUse blocks of previous turn.';
    expect(v).toMatchObject({
      rule: 'orphan_tool_result',
      code: 'B1',
      messageIndex: 2,
      blockIndex: 0,
      ids: ['tooluse_x'],
      providerPath: 'messages.2.content',
      status: 400,
      message,
    });
    expect(v?.error).toEqual({ message });
  });

  it('B2: ids of the previous turn missing from the next message (none, some)', () => {
    const [none] = errors(parsed(body([u('a'), uses('tooluse_a', 'tooluse_b'), u('stop')])));
    const message =
      'Expected toolResult blocks at messages.2.content for the following Ids: tooluse_a, tooluse_b';
    expect(none).toMatchObject({
      rule: 'unanswered_tool_use',
      code: 'B2',
      messageIndex: 1,
      blockIndex: 0,
      ids: ['tooluse_a', 'tooluse_b'],
      message,
    });
    expect(none?.error).toEqual({ message });
    const some = errors(
      parsed(body([u('a'), uses('tooluse_a', 'tooluse_b'), results('tooluse_a')])),
    );
    expect(some.map((v) => [v.rule, v.messageIndex, v.blockIndex, v.ids])).toEqual([
      ['partial_answer', 1, 1, ['tooluse_b']],
    ]);
  });

  it('B2 + B4: parallel results split over two user messages fail (no merging, unlike Anthropic)', () => {
    const t = parsed(
      body(
        [u('a'), uses('tooluse_a', 'tooluse_b'), results('tooluse_a'), results('tooluse_b')],
        CLAUDE,
      ),
    );
    expect(errors(t).map((v) => [v.code, v.rule, v.messageIndex])).toEqual([
      ['B2', 'partial_answer', 1],
      ['B4', 'same_role_neighbours', 3],
      ['B1', 'orphan_tool_result', 3],
    ]);
    expect(validateTranscript(t, 'anthropic').valid).toBe(true);
  });

  it('B3: the conversation starts with an assistant message', () => {
    const [v] = errors(parsed(body([a('Hello.'), u('hi')])));
    const message =
      'A conversation must start with a user message. Try again with a conversation that starts with a user message.';
    expect(v).toMatchObject({ rule: 'first_message_role', code: 'B3', messageIndex: 0, message });
    expect(v?.error).toEqual({ message });
  });

  it('B4: same-role neighbours', () => {
    const [v] = errors(parsed(body([u('a'), u('b')])));
    const message =
      'A conversation must alternate between user and assistant roles. Make sure the conversation alternates between user and assistant roles and try again.';
    expect(v).toMatchObject({ rule: 'same_role_neighbours', code: 'B4', messageIndex: 1, message });
    expect(v?.error).toEqual({ message });
  });

  it('B5: text next to tool results (error for a non-Claude model, warning for Claude or an unknown model)', () => {
    const msgs = [
      u('a'),
      uses('tooluse_a'),
      {
        role: 'user',
        content: [
          { toolResult: { toolUseId: 'tooluse_a', content: [{ text: 'ok' }] } },
          { text: 'Also check the cache.' },
        ],
      },
    ];
    const [v] = errors(parsed(body(msgs, NOVA)));
    const message =
      'messages.2.content: Conversation blocks and tool result blocks cannot be provided in the same turn.';
    expect(v).toMatchObject({
      rule: 'mixed_result_and_text',
      code: 'B5',
      messageIndex: 2,
      blockIndex: 1,
      message,
    });
    expect(v?.error).toEqual({ message });
    const claude = validateTranscript(parsed(body(msgs, CLAUDE)), 'bedrock');
    expect(claude.valid).toBe(true);
    expect(claude.violations.map((x) => [x.code, x.severity])).toEqual([['B5', 'warning']]);
  });

  it('B6: an error result with empty content', () => {
    const [v] = errors(
      parsed(
        body([
          u('a'),
          uses('tooluse_a'),
          {
            role: 'user',
            content: [{ toolResult: { toolUseId: 'tooluse_a', status: 'error', content: [] } }],
          },
        ]),
      ),
    );
    const message =
      'The content field at messages.2.content.0.toolResult cannot be empty when status value is error.';
    expect(v).toMatchObject({
      rule: 'error_result_empty',
      code: 'B6',
      messageIndex: 2,
      blockIndex: 0,
      ids: ['tooluse_a'],
      message,
    });
    expect(v?.error).toEqual({ message });
  });

  it('B7: tool blocks with a toolConfig that defines no tools; not checked when toolConfig is absent', () => {
    const t = parsed({
      modelId: NOVA,
      toolConfig: { tools: [] },
      messages: [u('a'), uses('tooluse_a'), results('tooluse_a')],
    });
    const [v] = errors(t);
    const message =
      'The toolConfig field must be defined when using toolUse and toolResult content blocks.';
    expect(v).toMatchObject({ rule: 'tools_not_defined', code: 'B7', message });
    expect(v?.error).toEqual({ message });
    const absent = validateTranscript(
      parsed({ messages: [u('a'), uses('tooluse_a'), results('tooluse_a')] }),
      'bedrock',
    );
    expect(absent.valid).toBe(true);
    expect(absent.notes.join(' ')).toMatch(/B7/);
  });

  it('Claude on Bedrock: Anthropic errors pass through with the prefix, after Converse’s own', () => {
    // Thinking enabled, the open tool loop's assistant turn lost its reasoning block: T1 (Claude only).
    const t = parsed({
      modelId: CLAUDE,
      toolConfig: tools,
      additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 1024 } },
      messages: [u('a'), uses('tooluse_a'), results('tooluse_a')],
    });
    const vs = errors(t);
    expect(vs.map((v) => v.code)).toEqual(['T1']);
    const inner = validateTranscript(t, 'anthropic').violations[0]?.message ?? '';
    expect(vs[0]?.message).toBe(`The model returned the following errors: ${inner}`);
    expect(vs[0]?.error).toEqual({ message: `The model returned the following errors: ${inner}` });
    expect(
      inner.startsWith(
        'messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`.',
      ),
    ).toBe(true);
    // The same request for a non-Claude model has no such rule.
    expect(errors(parsed({ ...(t.raw as object), modelId: NOVA }))).toEqual([]);
    // Claude: a trailing toolUse is reported through Anthropic's A2 (trailing_tool_use).
    const trailing = errors(parsed(body([u('a'), uses('tooluse_t')], CLAUDE)));
    expect(trailing.map((v) => [v.code, v.rule, v.message])).toEqual([
      [
        'A2',
        'trailing_tool_use',
        'The model returned the following errors: messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: tooluse_t. Each `tool_use` block must have a corresponding `tool_result` block in the next message.',
      ],
    ]);
  });

  it('B11/B12: an empty message and blank text, Converse’s own text for every model (Claude too)', () => {
    // langchain-aws#403: an assistant reply of two newlines, replayed (AWS CLI reproduction).
    for (const model of [NOVA, CLAUDE]) {
      const vs = errors(parsed(body([u('a'), a('\n\n'), u('what?')], model)));
      const message =
        'The text field in the ContentBlock object at messages.1.content.0 is blank. Add text to the text field, and try again.';
      expect(vs).toHaveLength(1);
      expect(vs[0]).toMatchObject({
        rule: 'empty_text',
        code: 'B12',
        messageIndex: 1,
        blockIndex: 0,
        providerPath: 'messages.1.content.0.text',
        message,
        error: { message },
      });
    }
    // langchain#26968: a message left with no blocks (Claude via ConverseStream, messages.3).
    const empty = errors(
      parsed(
        body(
          [u('a'), uses('t1'), results('t1'), { role: 'assistant', content: [] }, u('b')],
          CLAUDE,
        ),
      ),
    );
    expect(empty.map((v) => [v.code, v.message])).toEqual([
      [
        'B11',
        'The content field in the Message object at messages.3 is empty. Add a ContentBlock object to the content field and try again.',
      ],
    ]);
    // M counts the blocks of the message; an empty text after a call is blank too.
    const late = errors(
      parsed(
        body([u('a'), { role: 'assistant', content: [{ text: 'ok' }, { text: ' ' }] }, u('b')]),
      ),
    );
    expect(late.map((v) => v.providerPath)).toEqual(['messages.1.content.1.text']);
    // A final assistant message may be empty (a prefill); its blank text is still refused.
    expect(errors(parsed(body([u('a'), { role: 'assistant', content: [] }])))).toEqual([]);
    expect(errors(parsed(body([u('a'), a('')]))).map((v) => v.code)).toEqual(['B12']);
  });

  it('B11/B12 on a transcript from another format: content sent as "" is an empty message', () => {
    const r = parseDocument(
      {
        kind: 'json',
        value: {
          messages: [
            { role: 'user', content: '' },
            { role: 'assistant', content: 'hi' },
            { role: 'user', content: '  ' },
          ],
        },
      },
      { format: 'openai-chat' },
    );
    if (!r.ok) throw new Error(r.error.message);
    const t = r.value.transcript;
    expect(errors(t).map((v) => [v.code, v.messageIndex])).toEqual([
      ['B11', 0],
      ['B12', 2],
    ]);
  });

  it('a pairing error reported by both Converse and Claude is listed once (Converse’s)', () => {
    const vs = errors(parsed(body([u('a'), uses('tooluse_a'), u('stop')], CLAUDE)));
    expect(vs.map((v) => v.code)).toEqual(['B2']);
  });

  it('works on a transcript from another format (same-role neighbours merged, as converters do) and on message subsets', () => {
    const t = transcript('openai-chat', [
      user('q'),
      assistant(call('call_1'), call('call_2')),
      tool('call_1'),
      tool('call_2'),
      assistant('done'),
      user('thanks'),
    ]);
    expect(validateTranscript(t, 'bedrock').valid).toBe(true);
    // Evicting the assistant message: the question and both results merge into messages.0.
    const kept = t.messages.filter((_, i) => i !== 1);
    expect(
      errors(t, { messages: kept }).map((v) => [
        v.code,
        v.rule,
        v.messageIndex,
        v.blockIndex,
        v.ids,
        v.providerPath,
      ]),
    ).toEqual([['B1', 'orphan_tool_result', 2, 0, ['call_1', 'call_2'], 'messages.0.content']]);
    // Parallel Responses function_call items form one assistant message.
    const responses = parseDocument({
      kind: 'json',
      value: {
        input: [
          { role: 'user', content: 'q' },
          { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' },
          { type: 'function_call', call_id: 'c2', name: 'f', arguments: '{}' },
          { type: 'function_call_output', call_id: 'c1', output: 'a' },
          { type: 'function_call_output', call_id: 'c2', output: 'b' },
        ],
      },
    });
    expect(responses.ok && validateTranscript(responses.value.transcript, 'bedrock').valid).toBe(
      true,
    );
    const anth = transcript('anthropic-messages', [
      user('q'),
      assistant(call('toolu_1')),
      user(result('toolu_1')),
    ]);
    expect(validateTranscript(anth, 'bedrock').valid).toBe(true);
  });
});

describe('Claude pass-through where raw indices repeat', () => {
  it("keeps Claude's error on a message that shares its raw index with one Bedrock flagged", () => {
    // Two user turns carry orphan results; the second shares raw index 2 with the first (as two
    // of ours split from one source item do). Bedrock flags each turn once (B1, all its stray
    // ids); Claude flags each orphan block (A1), passed through unless Bedrock flagged the same
    // rule, ids and message.
    const distinct = transcript(
      'anthropic-messages',
      [
        user('Hi.'),
        assistant('Hello.'),
        user(result('t5'), result('t2')),
        assistant('Noted.'),
        user(result('t5')),
      ],
      { settings: { model: CLAUDE } },
    );
    const repeated: Transcript = {
      ...distinct,
      messages: distinct.messages.map((m, i) => (i === 4 ? { ...m, rawIndex: 2 } : m)),
    };
    const shape = (t: Transcript) =>
      validateTranscript(t, 'bedrock').violations.map((v) => [v.code, v.index, v.ids]);
    const vs = shape(repeated);
    expect(vs).toContainEqual(['A1', 2, ['t5']]);
    expect(vs).toEqual(shape(distinct));
  });
});
