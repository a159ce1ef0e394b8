import { describe, expect, it } from 'vitest';
import {
  assistant,
  call,
  parsed,
  result,
  system,
  text,
  thinking,
  tool,
  transcript,
  user,
} from '../testing/index.ts';
import type { Message, Transcript } from '../types.ts';
import { validateTranscript } from './index.ts';
import { prepareCuts } from '../evict/cutTables.ts';
import { expectCutAgrees } from '../testing/evict.ts';

const t = (messages: Message[], extra: Partial<Transcript> = {}) =>
  transcript('anthropic-messages', messages, extra);
const first = (tr: Transcript) => validateTranscript(tr, 'anthropic').violations[0];

describe('anthropic validator: exact provider texts', () => {
  it('A1: a transcript that starts with a tool_result', () => {
    const v = first(t([user(result('toolu_X')), assistant('done'), user('next')]));
    expect(v).toMatchObject({
      rule: 'orphan_tool_result',
      code: 'A1',
      messageIndex: 0,
      blockIndex: 0,
      ids: ['toolu_X'],
      providerPath: 'messages.0.content.0',
      status: 400,
    });
    expect(v?.error).toEqual({
      type: 'error',
      error: {
        type: 'invalid_request_error',
        message:
          'messages.0.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_X. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
      },
    });
  });

  it('A1: a result whose call sits two messages back is still an orphan', () => {
    const v = first(
      t([
        user('q'),
        assistant(call('toolu_A')),
        user(result('toolu_A')),
        assistant('ok'),
        user(result('toolu_A')),
      ]),
    );
    expect(v).toMatchObject({
      rule: 'orphan_tool_result',
      messageIndex: 4,
      providerPath: 'messages.4.content.0',
    });
  });

  it('A2: unanswered parallel calls list every id, at the assistant message', () => {
    const v = first(
      t([user('q'), assistant(text('Running'), call('toolu_A'), call('toolu_B')), user('stop')]),
    );
    expect(v).toMatchObject({
      rule: 'unanswered_tool_use',
      code: 'A2',
      messageIndex: 1,
      blockIndex: 1,
      ids: ['toolu_A', 'toolu_B'],
      providerPath: 'messages.1',
    });
    expect(v?.message).toBe(
      'messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_A, toolu_B. Each `tool_use` block must have a corresponding `tool_result` block in the next message.',
    );
  });

  it('A2: a partial answer lists only the missing ids', () => {
    const v = first(
      t([user('q'), assistant(call('toolu_A'), call('toolu_B')), user(result('toolu_B'))]),
    );
    expect(v).toMatchObject({
      rule: 'partial_answer',
      ids: ['toolu_A'],
      messageIndex: 1,
      blockIndex: 0,
    });
  });

  it('A2: a request that ends on tool calls is trailing_tool_use', () => {
    const v = first(t([user('q'), assistant(call('toolu_A'))]));
    expect(v).toMatchObject({
      rule: 'trailing_tool_use',
      code: 'A2',
      ids: ['toolu_A'],
      providerPath: 'messages.1',
    });
  });

  it('A3: text before the tool_result fails as A2, not as an ordering error', () => {
    const v = first(
      t([user('q'), assistant(call('toolu_A')), user(text('here you go'), result('toolu_A'))]),
    );
    expect(v).toMatchObject({ rule: 'tool_result_not_first', code: 'A3', ids: ['toolu_A'] });
    expect(v?.message).toContain(
      'messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_A.',
    );
  });

  it('text after the tool_results is fine', () => {
    expect(
      validateTranscript(
        t([user('q'), assistant(call('toolu_A')), user(result('toolu_A'), text('also this'))]),
        'anthropic',
      ).valid,
    ).toBe(true);
  });

  it('merging: split parallel results are merged and accepted; path counts merged messages, raw index does not', () => {
    const ok = t([
      user('q'),
      assistant(call('toolu_A'), call('toolu_B')),
      user(result('toolu_A')),
      user(result('toolu_B')),
      assistant('done'),
    ]);
    expect(validateTranscript(ok, 'anthropic').valid).toBe(true);
    // [A, image] + [B] merges into [A, image, B]: B is no longer at the start → A2 for B.
    const bad = t([
      user('q'),
      assistant(call('toolu_A'), call('toolu_B')),
      user(result('toolu_A'), { type: 'image' }),
      user(result('toolu_B')),
      assistant('x'),
      user('y'),
      user(result('toolu_Z')),
    ]);
    const vs = validateTranscript(bad, 'anthropic').violations;
    expect(vs[0]).toMatchObject({
      rule: 'tool_result_not_first',
      code: 'A3',
      ids: ['toolu_B'],
      providerPath: 'messages.1',
    });
    // The last user messages merge with 'y': the orphan is messages.4.content.1 but raw index 6.
    expect(vs.find((v) => v.rule === 'orphan_tool_result')).toMatchObject({
      messageIndex: 6,
      blockIndex: 0,
      providerPath: 'messages.4.content.1',
    });
  });

  it('OpenAI-style tool messages are rendered as user tool_result messages', () => {
    expect(
      validateTranscript(
        t([
          user('q'),
          assistant(call('toolu_A'), call('toolu_B')),
          tool('toolu_A'),
          tool('toolu_B'),
          assistant('ok'),
        ]),
        'anthropic',
      ).valid,
    ).toBe(true);
  });

  it('system messages leave the list before paths are counted', () => {
    const v = first(t([system('sys'), user(result('toolu_X'))]));
    expect(v).toMatchObject({ providerPath: 'messages.0.content.0', messageIndex: 1 });
  });

  it('A6: a duplicate tool_use id points at the later one', () => {
    const v = first(
      t([
        user('q'),
        assistant(call('toolu_A')),
        user(result('toolu_A')),
        assistant(text('again'), call('toolu_A')),
        user(result('toolu_A')),
      ]),
    );
    expect(v).toMatchObject({
      rule: 'duplicate_tool_use_id',
      code: 'A6',
      messageIndex: 3,
      blockIndex: 1,
      providerPath: 'messages.3.content.1',
    });
    expect(v?.message).toBe('messages.3.content.1: `tool_use` ids must be unique');
  });

  it('A7: tool blocks with `tools: []` (only when tools were given)', () => {
    const msgs = [user('q'), assistant(call('toolu_A')), user(result('toolu_A'))];
    expect(first(t(msgs, { tools: [] }))?.message).toBe(
      'Requests which include `tool_use` or `tool_result` blocks must define tools.',
    );
    expect(validateTranscript(t(msgs), 'anthropic').notes.join(' ')).toContain('A7');
  });

  it('A7 reads client tool blocks only: an MCP connector turn without `tools` is no 400', () => {
    // The newcomer's anth-mcp.json: `mcp_servers`, an `mcp_tool_use` and its `mcp_tool_result`
    // answered in the turn, and no `tools` (the connector's tools come from the server).
    const body = {
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      mcp_servers: [{ type: 'url', url: 'https://mcp.example.com/sse', name: 'tickets' }],
      messages: [
        { role: 'user', content: 'Open tickets?' },
        {
          role: 'assistant',
          content: [
            {
              type: 'mcp_tool_use',
              id: 'mcptoolu_014Q35RayjACSWkSj4X2yov1',
              name: 'list_tickets',
              server_name: 'tickets',
              input: {},
            },
            {
              type: 'mcp_tool_result',
              tool_use_id: 'mcptoolu_014Q35RayjACSWkSj4X2yov1',
              is_error: false,
              content: [{ type: 'text', text: '3 open' }],
            },
            { type: 'text', text: 'There are 3 open tickets.' },
          ],
        },
        { role: 'user', content: 'Which is oldest?' },
      ],
    };
    const tr = parsed(body).transcript;
    expect(validateTranscript(tr, 'anthropic').violations).toEqual([]);
    // A client tool_use beside them still needs tools: A7, at its message.
    const withClient = structuredClone(body);
    withClient.messages.push(
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_1', name: 'f', input: {} }],
      } as never,
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'x' }],
      } as never,
    );
    const tc = parsed(withClient).transcript;
    const vs = validateTranscript(tc, 'anthropic').violations;
    expect(vs.map((v) => [v.code, v.messageIndex])).toEqual([['A7', 3]]);
    // The fast cut engine reads tool blocks as A7 does (its tables, cutTables.ts): every cut.
    for (const x of [tr, tc]) {
      const ctx = prepareCuts(x, 'anthropic');
      for (let k = 0; k <= x.messages.length; k++) expectCutAgrees(ctx, x, 'anthropic', k);
    }
  });

  it('A10: empty content except a final assistant message', () => {
    const v = first(t([user('q'), { ...assistant(), blocks: [] }, user('again')]));
    expect(v?.message).toBe(
      'messages.1: all messages must have non-empty content except for the optional final assistant message',
    );
    expect(
      validateTranscript(
        t([user('q'), { ...assistant(), blocks: [] }]),
        'anthropic',
      ).violations.filter((x) => x.rule === 'empty_content'),
    ).toEqual([]);
  });

  it('A11: empty and whitespace-only text blocks', () => {
    expect(first(t([user(text(''), text('x'))]))?.message).toBe(
      'messages.0.content.0.text: text content blocks must be non-empty',
    );
    expect(first(t([user(text('  '))]))?.message).toBe(
      'messages: text content blocks must contain non-whitespace text',
    );
  });

  it('T1: thinking enabled, the open tool loop starts with tool_use', () => {
    const v = first(
      t([user('q'), assistant(call('toolu_T')), user(result('toolu_T'))], {
        settings: { thinking: true },
      }),
    );
    expect(v).toMatchObject({
      rule: 'thinking_missing',
      code: 'T1',
      messageIndex: 1,
      ids: ['toolu_T'],
      providerPath: 'messages.1.content.0.type',
    });
    expect(v?.message).toBe(
      'messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`. When `thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable `thinking`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking',
    );
  });

  it('T2: the same with text first; earlier turns may drop thinking', () => {
    const v = first(
      t([user('q'), assistant(text('Checking'), call('toolu_T')), user(result('toolu_T'))], {
        settings: { thinking: true },
      }),
    );
    expect(v).toMatchObject({ code: 'T2' });
    expect(v?.message).toContain('but found `text`.');
    const ok = t(
      [
        user('q'),
        assistant(call('toolu_1')),
        user(result('toolu_1')),
        assistant('a'),
        user('q2'),
        assistant(thinking(), call('toolu_2')),
        user(result('toolu_2')),
      ],
      { settings: { thinking: true } },
    );
    expect(validateTranscript(ok, 'anthropic').valid).toBe(true);
  });

  it('T1 looks at the first assistant message of the whole open loop', () => {
    const tr = t(
      [
        user('q'),
        assistant(call('toolu_1')),
        user(result('toolu_1')),
        assistant(thinking(), call('toolu_2')),
        user(result('toolu_2')),
      ],
      { settings: { thinking: true } },
    );
    expect(first(tr)).toMatchObject({ code: 'T1', messageIndex: 1 });
  });

  it('T6 and T5: a thinking block sent back without its signature, or with an empty one', () => {
    const noSig = { type: 'thinking' as const, thinking: 'hm' };
    const v6 = first(
      t([user('q'), assistant(noSig, call('toolu_S')), user(result('toolu_S'))], {
        settings: { thinking: true },
      }),
    );
    expect(v6).toMatchObject({
      code: 'T6',
      rule: 'invalid_signature',
      messageIndex: 1,
      blockIndex: 0,
    });
    expect(v6?.message).toBe('messages.1.content.0.thinking.signature: Field required');
    const v5 = first(
      t([user('q'), assistant(thinking('hm', ''), call('toolu_S')), user(result('toolu_S'))], {
        settings: { thinking: true },
      }),
    );
    expect(v5?.message).toBe('messages.1.content.0: Invalid `signature` in `thinking` block');
    const ok = validateTranscript(
      t([user('q'), assistant(thinking(), call('toolu_S')), user(result('toolu_S'))], {
        settings: { thinking: true },
      }),
      'anthropic',
    );
    expect(ok.valid).toBe(true);
    expect(ok.notes.join(' ')).toContain('(T5) cannot be detected');
  });

  it('T3 and T4', () => {
    expect(
      first(t([user('q'), assistant(text('a'), thinking())], { settings: { thinking: true } }))
        ?.message,
    ).toBe('messages.1: The final block in an assistant message cannot be `thinking`.');
    expect(
      first(t([user('q'), assistant(thinking(), text('a'))], { settings: { thinking: false } }))
        ?.message,
    ).toBe(
      'messages.1.content.0: When thinking is disabled, an `assistant` message in the final position cannot contain `thinking`. To use thinking blocks, enable `thinking` in your request.',
    );
  });

  it('A15: a server tool pair lives inside the assistant turn', () => {
    const srv = (id: string) => ({
      type: 'tool_use' as const,
      id,
      name: 'web_search',
      input: {},
      server: true,
    });
    const srvResult = (id: string) => ({
      type: 'tool_result' as const,
      toolUseId: id,
      isError: false,
      content: [],
      server: 'web_search_tool_result',
    });
    expect(
      validateTranscript(
        t([user('q'), assistant(srv('srvtoolu_1'), srvResult('srvtoolu_1'), text('found'))]),
        'anthropic',
      ).valid,
    ).toBe(true);
    expect(
      first(t([user('q'), assistant(srv('srvtoolu_1'), text('found')), user('more')]))?.message,
    ).toBe(
      'messages.1: `web_search` tool use with id `srvtoolu_1` was found without a corresponding `web_search_tool_result` block',
    );
    expect(
      first(t([user('q'), assistant(srvResult('srvtoolu_9'), text('x')), user('y')]))?.message,
    ).toBe(
      'messages.1.content.0: unexpected `tool_use_id` found in `web_search_tool_result` blocks: srvtoolu_9. Each `web_search_tool_result` block must have a corresponding `server_tool_use` block before it.',
    );
  });

  it('violations come in scan order and all are reported', () => {
    const vs = validateTranscript(
      t([user(result('toolu_X')), assistant(call('toolu_A')), user('no result')]),
      'anthropic',
    ).violations;
    expect(vs.map((v) => v.rule)).toEqual(['orphan_tool_result', 'unanswered_tool_use']);
  });
});
