/**
 * Test support for the package's SDK tests: what a provider answers to a valid call, per API path,
 * enough for each official SDK to parse (the stub network's replies).
 */
const MODEL = 'claude-opus-4-6';

/** What a provider answers to a valid call, per API (enough for each SDK to parse). */
export const REPLIES: ReadonlyMap<string, unknown> = new Map<string, unknown>([
  [
    '/v1/messages',
    {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: MODEL,
      content: [{ type: 'text', text: 'Hello.' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 5, output_tokens: 2 },
    },
  ],
  [
    '/v1/chat/completions',
    {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 0,
      model: 'gpt-4.1',
      choices: [
        { index: 0, message: { role: 'assistant', content: 'Hello.' }, finish_reason: 'stop' },
      ],
      usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
    },
  ],
  [
    '/v1/responses',
    {
      id: 'resp_1',
      object: 'response',
      created_at: 0,
      status: 'completed',
      model: 'gpt-5',
      output: [
        {
          type: 'message',
          id: 'msg_1',
          status: 'completed',
          role: 'assistant',
          content: [{ type: 'output_text', text: 'Hello.', annotations: [] }],
        },
      ],
      usage: { input_tokens: 5, output_tokens: 2, total_tokens: 7 },
    },
  ],
]);
