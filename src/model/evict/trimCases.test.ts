/**
 * The trims public reports describe, reproduced by the matching policy: our own fixtures (shape
 * and verdict of the reported cases 01, 03 and 06, content rewritten). The reported cases
 * themselves are checked by trimCases.corpus.test.ts (the corpus suite).
 */
import { describe, expect, it } from 'vitest';
import { parsedText, perMessageTable, trimmedIndex } from '../testing/index.ts';
import { countTokens } from '../tokens.ts';
import type { FormatId, Transcript } from '../types.ts';
import { prepareEviction, simulatePolicy } from './policies.ts';

function parse(body: unknown, format: FormatId): Transcript {
  return parsedText(JSON.stringify(body), { format }).transcript;
}

describe('trims from public reports, reproduced by the `message` policy', () => {
  it('case 01 shape (LangChain trim_messages "last", 1 token per message): the kept window starts with a bare tool message', () => {
    const t = parse(
      {
        messages: [
          { role: 'user', content: 'What does ACME trade at?' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_px01',
                type: 'function',
                function: { name: 'get_quote', arguments: '{"ticker":"ACME"}' },
              },
            ],
          },
          { role: 'tool', tool_call_id: 'call_px01', content: '{"price": 41.2}' },
          { role: 'assistant', content: 'ACME trades at 41.2.' },
          { role: 'user', content: 'And a week ago?' },
          { role: 'assistant', content: 'About 39.' },
          { role: 'user', content: 'Plot both.' },
        ],
      },
      'openai-chat',
    );
    const table = perMessageTable(t);
    const ctx = prepareEviction(t, table, 'openai-chat');
    const r = simulatePolicy(ctx, 'message', 5);
    expect(r.kept).toEqual([2, 3, 4, 5, 6]);
    expect(r.firstError?.rule).toBe('orphan_tool_result');
    expect(r.firstError?.ids).toEqual(['call_px01']);
    expect(trimmedIndex(t, r.kept, r.firstError?.messageIndex ?? -1)).toBe(0);
    expect(r.firstError?.error).toEqual({
      error: {
        message:
          "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
        type: 'invalid_request_error',
        param: 'messages.[0].role',
        code: null,
      },
    });
    // The group-level trim keeps [user, assistant, user] and stays valid.
    const x = simulatePolicy(ctx, 'exchange', 5);
    expect(x.kept).toEqual([4, 5, 6]);
    expect(x.validation.valid).toBe(true);
  });

  it('case 03 shape (AutoGen history limiter, system kept): the orphan sits at messages.[1]', () => {
    const t = parse(
      {
        messages: [
          { role: 'system', content: 'You do arithmetic with a calculator tool.' },
          { role: 'user', content: 'What is 6 times 7?' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_mul1',
                type: 'function',
                function: { name: 'calc', arguments: '{"a":6,"b":7,"op":"*"}' },
              },
            ],
          },
          { role: 'tool', tool_call_id: 'call_mul1', content: '42' },
          { role: 'assistant', content: '6 times 7 is 42.' },
          { role: 'user', content: 'Halve it.' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_div1',
                type: 'function',
                function: { name: 'calc', arguments: '{"a":42,"b":2,"op":"/"}' },
              },
            ],
          },
          { role: 'tool', tool_call_id: 'call_div1', content: '21' },
        ],
      },
      'openai-chat',
    );
    const ctx = prepareEviction(t, perMessageTable(t), 'openai-chat');
    const r = simulatePolicy(ctx, 'message', 6); // the system message + the newest 5
    expect(r.kept).toEqual([0, 3, 4, 5, 6, 7]);
    expect(r.firstError?.rule).toBe('orphan_tool_result');
    expect(r.firstError?.ids).toEqual(['call_mul1']);
    expect(r.firstError?.providerPath).toBe('messages.[1].role');
    expect(trimmedIndex(t, r.kept, r.firstError?.messageIndex ?? -1)).toBe(1);
    expect(simulatePolicy(ctx, 'exchange', 6).validation.valid).toBe(true);
  });

  it('case 06 shape (CopilotKit oldest-first token trim, Anthropic): dropping the big first turn and the call orphans the result', async () => {
    const t = parse(
      {
        system: 'You help with a ticketing app.',
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Context dump: ' + 'incident line. '.repeat(300) },
              { type: 'text', text: 'List the open tickets.' },
            ],
          },
          {
            role: 'assistant',
            content: [
              {
                type: 'tool_use',
                id: 'toolu_01TKT',
                name: 'list_tickets',
                input: { status: 'open' },
              },
            ],
          },
          {
            role: 'user',
            content: [
              {
                type: 'tool_result',
                tool_use_id: 'toolu_01TKT',
                content: '[{"id": 7, "title": "Slow login"}, {"id": 9, "title": "CSV export"}]',
              },
            ],
          },
          {
            role: 'assistant',
            content: [{ type: 'text', text: 'Two tickets are open: #7 and #9.' }],
          },
          { role: 'user', content: [{ type: 'text', text: 'Which is older?' }] },
        ],
      },
      'anthropic-messages',
    );
    const table = countTokens(t, 'anthropic');
    const ctx = prepareEviction(t, table, 'anthropic');
    // A budget that dropping the first message alone does not meet, but dropping two does.
    const budget = table.total - (table.perMessage[0] as number) - 1;
    const r = simulatePolicy(ctx, 'message', budget);
    expect(r.evicted).toEqual([0, 1]);
    expect(r.firstError?.message).toBe(
      'messages.0.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_01TKT. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
    );
    expect(r.firstError?.providerPath).toBe('messages.0.content.0');
    const x = simulatePolicy(ctx, 'exchange', budget);
    expect(x.kept).toEqual([4]);
    expect(x.validation.valid).toBe(true);
    expect(x.overshoot).toBeGreaterThan(1);
  });
});
