import { describe, expect, it } from 'vitest';
import { load } from '../testing/faults.fixtures.ts';
import { countTokens } from '../tokens.ts';
import { cutMarkers } from './cuts.ts';
import { prepareEviction } from './policies.ts';
import { referenceCut } from '../testing/simulate.reference.ts';

/**
 * A web search called beside a client tool is answered in the assistant turn after the tool's
 * result (the A4 deferral): the server call and its result stand two turns apart.
 */
const DEFERRED_SEARCH = {
  model: 'claude-sonnet-4-5',
  max_tokens: 1024,
  tools: [{ name: 'lookup', input_schema: { type: 'object' } }],
  messages: [
    { role: 'user', content: 'Find the invoice and search the web for the vendor.' },
    {
      role: 'assistant',
      content: [
        { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'v' } },
        { type: 'tool_use', id: 'toolu_1', name: 'lookup', input: {} },
      ],
    },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok' }] },
    {
      role: 'assistant',
      content: [
        { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] },
        { type: 'text', text: 'Done.' },
      ],
    },
    { role: 'user', content: 'Thanks.' },
  ],
};

describe('cuts across a deferred server tool result', () => {
  it('a cut that drops the server call but keeps its result is A16, as the reference says', () => {
    const t = load(DEFERRED_SEARCH);
    const markers = cutMarkers(prepareEviction(t, countTokens(t, 'anthropic'), 'anthropic').cuts);
    expect(referenceCut(t, 'anthropic', 0).valid).toBe(true);
    expect(markers.safe[0]).toBe(1);
    // Cut at 3: the kept request starts at the assistant turn holding the search result.
    expect(markers.safe[3]).toBe(0);
    expect(markers.errorAt(3)).toMatchObject({ code: 'A16', messageIndex: 3 });
    for (let k = 0; k <= t.messages.length; k++)
      expect(markers.safe[k], `cut ${k}`).toBe(referenceCut(t, 'anthropic', k).valid ? 1 : 0);
  });
});
