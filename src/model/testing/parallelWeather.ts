/**
 * Test-only: an OpenAI Chat body (system prompt #0) whose assistant #2 makes two parallel calls,
 * one answered (#3), then a user turn (#4) — the newcomer's `oai-parallel.json`. One O2 for
 * OpenAI, whose path names request message 4; for Bedrock, rows #3 and #4 are one user turn.
 */
export function parallelWeatherChat() {
  const call = (id: string, city: string) => ({
    id,
    type: 'function',
    function: { name: 'get_weather', arguments: JSON.stringify({ city }) },
  });
  return {
    model: 'gpt-4.1',
    messages: [
      { role: 'system', content: 'You are a travel agent.' },
      { role: 'user', content: 'Weather in Paris and Berlin?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [call('call_paris01', 'Paris'), call('call_berlin02', 'Berlin')],
      },
      { role: 'tool', tool_call_id: 'call_paris01', content: '18C sunny' },
      { role: 'user', content: 'Hurry up, what about Berlin?' },
    ],
    tools: [
      {
        type: 'function',
        function: {
          name: 'get_weather',
          parameters: { type: 'object', properties: { city: { type: 'string' } } },
        },
      },
    ],
  };
}
