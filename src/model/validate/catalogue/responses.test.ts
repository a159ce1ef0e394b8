/**
 * The catalogue's OpenAI Responses rules, one fixture each (../../testing/catalogue.ts says what is
 * checked).
 */
import { RESPONSES_RULES } from './responses.ts';
import { body, expectFixtures, type Fixture } from '../../testing/catalogue.ts';

const fc = (id: string, callId: string) => ({
  type: 'function_call',
  id,
  call_id: callId,
  name: 'f',
  arguments: '{}',
});
const out = (callId: string) => ({ type: 'function_call_output', call_id: callId, output: 'ok' });
const ask = { role: 'user', content: 'q' };

const FIXTURES: Record<string, Fixture> = {
  R1: {
    provider: 'openai-responses',
    t: () => body({ input: [ask, out('c1')] }),
    params: { id: 'c1' },
    path: 'input',
  },
  R2: {
    provider: 'openai-responses',
    t: () => body({ input: [ask, fc('fc_1', 'c1')] }),
    params: { id: 'c1' },
    path: 'input',
  },
  R3: {
    provider: 'openai-responses',
    t: () => body({ model: 'o3', input: [ask, fc('fc_1', 'c1'), out('c1')] }),
    params: { id: 'fc_1' },
    path: 'input',
  },
  R3b: {
    provider: 'openai-responses',
    t: () =>
      body({
        model: 'o3',
        input: [ask, { type: 'reasoning', summary: [] }, fc('fc_1', 'c1'), out('c1')],
      }),
    params: { id: 'fc_1' },
    path: 'input',
  },
  R4: {
    provider: 'openai-responses',
    t: () =>
      body({
        model: 'o3',
        input: [
          ask,
          {
            type: 'message',
            id: 'msg_1',
            role: 'assistant',
            content: [{ type: 'output_text', text: 'a' }],
          },
          ask,
        ],
      }),
    params: { id: 'msg_1' },
    path: 'input',
  },
  R5: {
    provider: 'openai-responses',
    t: () =>
      body({ model: 'o3', input: [ask, { type: 'reasoning', id: 'rs_1', summary: [] }, ask] }),
    params: { id: 'rs_1' },
    path: 'input',
  },
  R6: {
    provider: 'openai-responses',
    t: () =>
      body({
        model: 'o3',
        input: [
          ask,
          { type: 'reasoning', id: 'rs_1', summary: [] },
          fc('fc_1', 'c1'),
          out('c1'),
          fc('fc_1', 'c2'),
          out('c2'),
        ],
      }),
    params: { id: 'fc_1' },
    path: 'input',
  },
  R7: {
    provider: 'openai-responses',
    t: () => body({ input: [ask, { type: 'function_call_output', output: 'x' }] }),
    params: { n: 1 },
    path: 'input',
  },
  R8: {
    provider: 'openai-responses',
    t: () =>
      body({
        input: [
          ask,
          fc(
            'fc_1',
            'codex_mcp__hermes-tools__kanban_complete_exec-3f2b7c1e-9d4a-4e8b-a6f0-1c2d3e4f5a6b',
          ),
          out('codex_mcp__hermes-tools__kanban_complete_exec-3f2b7c1e-9d4a-4e8b-a6f0-1c2d3e4f5a6b'),
        ],
      }),
    params: { n: 1, length: 82 },
    path: 'input[1].call_id',
  },
  RW1: {
    provider: 'openai-responses',
    t: () => body({ input: [ask, fc('fc_1', 'c1'), out('c1'), fc('fc_2', 'c1')] }),
    path: null,
  },
  RW2: {
    provider: 'openai-responses',
    t: () => body({ input: [ask, fc('fc_1', 'c1'), out('c1'), out('c1')] }),
    path: null,
  },
  RW3: {
    provider: 'openai-responses',
    t: () => body({ input: [ask, out('c1'), fc('fc_1', 'c1')] }),
    path: null,
  },
  // openai/openai-agents-python#1789: an item the conversation already holds, sent again.
  R6b: {
    provider: 'openai-responses',
    t: () => body({ conversation: 'conv_1', input: [fc('fc_1', 'c1'), out('c1')] }),
    params: { id: 'fc_1' },
    path: 'input',
  },
  // deepseek-ai/DeepSeek-V3#1588: a developer message between a call and its output.
  DR1: {
    provider: 'deepseek-responses',
    t: () =>
      body({
        input: [
          ask,
          { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' },
          { role: 'developer', content: 'hook context' },
          out('c1'),
        ],
      }),
    params: { id: 'c1' },
    path: null,
  },
  // Kohaku-Lab/KohakuTerrarium#322: a parallel batch re-ordered as call, output, call, output.
  DR2: {
    provider: 'deepseek-responses',
    t: () =>
      body({
        model: 'deepseek-v4-flash',
        input: [
          ask,
          { type: 'reasoning', summary: [{ type: 'summary_text', text: 'two calls' }] },
          { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' },
          out('c1'),
          { type: 'function_call', call_id: 'c2', name: 'f', arguments: '{}' },
          out('c2'),
        ],
      }),
    params: {},
    path: null,
  },
};

expectFixtures('OpenAI Responses', RESPONSES_RULES, FIXTURES);
