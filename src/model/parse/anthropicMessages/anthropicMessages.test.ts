/**
 * The normalised `tool_result` blocks of an Anthropic body: the fields, and their order (what
 * JSON.stringify of a block and every writer see), built without a spread (issue 38).
 */
import { describe, expect, it } from 'vitest';
import { anthropicBlock } from './anthropicMessages.ts';

describe('anthropicBlock: tool_result', () => {
  it.each([
    [
      'a result',
      { type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok' },
      {
        type: 'tool_result',
        toolUseId: 'toolu_1',
        isError: false,
        content: [{ type: 'text', text: 'ok' }],
      },
    ],
    [
      'an error',
      { type: 'tool_result', tool_use_id: 'toolu_1', is_error: true, content: [] },
      { type: 'tool_result', toolUseId: 'toolu_1', isError: true, content: [] },
    ],
    [
      'is_error: false written out',
      { type: 'tool_result', tool_use_id: 'toolu_1', is_error: false, content: 'ok' },
      {
        type: 'tool_result',
        toolUseId: 'toolu_1',
        isError: false,
        isErrorFalse: true,
        content: [{ type: 'text', text: 'ok' }],
      },
    ],
    [
      'no id',
      { type: 'tool_result', content: null },
      { type: 'tool_result', toolUseId: null, isError: false, content: [] },
    ],
    [
      "a server tool's result",
      { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', is_error: false, content: [] },
      {
        type: 'tool_result',
        toolUseId: 'srvtoolu_1',
        isError: false,
        isErrorFalse: true,
        content: [],
        server: 'web_search_tool_result',
      },
    ],
  ])('%s', (_what, raw, want) => {
    const b = anthropicBlock(raw);
    expect(b).toEqual(want);
    expect(JSON.stringify(b)).toBe(JSON.stringify(want));
  });
});
