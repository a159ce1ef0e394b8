/**
 * The endpoint registry: every endpoint is found from its URL, host or model id; an input that
 * names its endpoint is judged under it; the missed classes of issue 35 are rules; an endpoint
 * whose own answer is not captured says the verdict is the API's rule and wording.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../analyze.ts';
import { parsed, parsedText } from '../../testing/index.ts';
import { defaultProviderOf, validateTranscript } from '../index.ts';
import { ENDPOINT_IDS, ENDPOINT_LIST, ENDPOINTS, resolveEndpoint } from './index.ts';
import { endpointOfHost, endpointOfUrl, urlParts } from './recognise.ts';

const URLS: Record<string, string> = {
  anthropic: 'https://api.anthropic.com/v1/messages',
  'anthropic-bedrock':
    'https://bedrock-runtime.us-east-1.amazonaws.com/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke',
  'anthropic-vertex':
    'https://us-east5-aiplatform.googleapis.com/v1/projects/p/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929:streamRawPredict',
  'deepseek-anthropic': 'https://api.deepseek.com/anthropic/v1/messages',
  'openai-chat': 'https://api.openai.com/v1/chat/completions',
  'azure-openai':
    'https://acme.openai.azure.com/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21',
  deepseek: 'https://api.deepseek.com/chat/completions',
  kimi: 'https://api.moonshot.ai/v1/chat/completions',
  mistral: 'https://api.mistral.ai/v1/chat/completions',
  qwen: 'https://dashscope-intl.aliyuncs.com/compatible-mode/v1/chat/completions',
  'openai-responses': 'https://api.openai.com/v1/responses',
  'deepseek-responses': 'https://api.deepseek.com/v1/responses',
  gemini:
    'https://generativelanguage.googleapis.com/v1beta/models/gemini-3-pro-preview:generateContent?key=k',
  'vertex-gemini':
    'https://aiplatform.googleapis.com/v1/projects/p/locations/global/publishers/google/models/gemini-3-pro-preview:generateContent',
  bedrock: 'https://bedrock-runtime.eu-west-1.amazonaws.com/model/amazon.nova-pro-v1%3A0/converse',
};

describe('endpoint registry', () => {
  it('every id is an entry with its own id, an API and evidence with a month', () => {
    for (const id of ENDPOINT_IDS) {
      expect(ENDPOINTS[id].id).toBe(id);
      expect(ENDPOINTS[id].evidence.length).toBeGreaterThan(0);
      expect(ENDPOINTS[id].asOf).toMatch(/^\d{4}-\d{2}$/);
      expect(resolveEndpoint(id)).toBe(id);
    }
  });

  it.each(ENDPOINT_IDS.map((id) => [id, URLS[id] as string]))(
    '%s is found from its URL',
    (id, url) => {
      const body = id.startsWith('anthropic-') ? { anthropic_version: 'x', messages: [] } : {};
      expect(endpointOfUrl(url, body)?.id).toBe(id);
    },
  );

  it.each(ENDPOINT_LIST.flatMap((e) => e.urls.map((url) => [e.id, url] as const)))(
    '%s: its documented URL %s is found as it, at one of its hosts or relays',
    (id, url) => {
      const body = id.startsWith('anthropic-') ? { anthropic_version: 'x', messages: [] } : {};
      expect(endpointOfUrl(url, body)?.id).toBe(id);
      const e = ENDPOINTS[id];
      const host = urlParts(url).host;
      expect([...e.hosts, ...(e.relays ?? [])].some((h) => h.test(host))).toBe(true);
    },
  );

  it('a gateway keeps the API path: any other host is the API\u2019s own endpoint', () => {
    expect(endpointOfUrl('https://gw.example/v1/chat/completions')?.id).toBe('openai-chat');
    expect(endpointOfUrl('https://gw.example/v1/messages')?.id).toBe('anthropic');
    expect(endpointOfUrl('/v1/responses')?.id).toBe('openai-responses');
  });

  it('an OTel span\u2019s server.address names the endpoint of its body\u2019s API', () => {
    expect(endpointOfHost('api.deepseek.com', 'openai-chat')).toBe('deepseek');
    expect(endpointOfHost('api.deepseek.com', 'anthropic-messages')).toBe('deepseek-anthropic');
    expect(endpointOfHost('acme.openai.azure.com:443', 'openai-chat')).toBe('azure-openai');
    expect(endpointOfHost('api.openai.com', 'openai-chat')).toBeUndefined();
  });
});

const orphanClaude = (extra: Record<string, unknown>) => ({
  max_tokens: 100,
  tools: [{ name: 'f', input_schema: { type: 'object' } }],
  messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'x' }] }],
  ...extra,
});

describe('a body that names its endpoint (a Bedrock or Vertex model id, anthropic_version)', () => {
  it('Bedrock InvokeModel: Anthropic\u2019s text after Bedrock\u2019s prefix, in its ValidationException body', () => {
    const t = parsed(orphanClaude({ anthropic_version: 'bedrock-2023-05-31' })).transcript;
    expect(defaultProviderOf(t)).toBe('anthropic-bedrock');
    const v = analyze(t).validation.violations[0];
    expect(v?.code).toBe('A1');
    expect(v?.error).toEqual({
      message:
        'The model returned the following errors: messages.0.content.0: unexpected `tool_use_id` found in `tool_result` blocks: t1. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
    });
  });

  it('a Vertex model id: Claude on Vertex AI, Anthropic\u2019s own body', () => {
    const t = parsed(orphanClaude({ model: 'claude-sonnet-4-5@20250929' })).transcript;
    expect(defaultProviderOf(t)).toBe('anthropic-vertex');
    const a = analyze(t);
    expect(a.validation.violations.map((v) => v.code)).toEqual(['A1']);
    expect(a.validation.violations[0]?.error).toEqual(
      validateTranscript(t, 'anthropic').violations[0]?.error,
    );
  });
});

describe('the endpoint of a body is found without reading the source value of other formats', () => {
  it('a log (Claude Code) is judged for its own endpoint and its raw is never read (on the page it re-parses the whole file)', () => {
    const line = (o: object) => JSON.stringify(o);
    const text = [
      line({ type: 'user', uuid: 'u1', message: { role: 'user', content: 'q' } }),
      line({
        type: 'assistant',
        uuid: 'a1',
        message: {
          id: 'm1',
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content: [{ type: 'text', text: 'a' }],
        },
      }),
    ].join('\n');
    const t = parsedText(text, { format: 'claude-code-jsonl' }).transcript;
    let reads = 0;
    const lazy = { ...t };
    Object.defineProperty(lazy, 'raw', {
      get() {
        reads++;
        return t.raw;
      },
    });
    expect(defaultProviderOf(lazy)).toBe(defaultProviderOf(t));
    expect(reads).toBe(0);
  });

  it('an Anthropic body still names Bedrock by its anthropic_version', () => {
    const t = parsed(orphanClaude({ anthropic_version: 'bedrock-2023-05-31' })).transcript;
    let reads = 0;
    const lazy = { ...t };
    Object.defineProperty(lazy, 'raw', {
      get() {
        reads++;
        return t.raw;
      },
    });
    expect(defaultProviderOf(lazy)).toBe('anthropic-bedrock');
    expect(reads).toBe(1);
  });
});

describe('the page and CLI judge a curl command under the endpoint its URL names', () => {
  it('a curl to a Vertex Gemini URL: VG4, Vertex\u2019s own words', () => {
    const body = {
      contents: [
        { role: 'user', parts: [{ text: 'q' }] },
        { role: 'model', parts: [{ functionCall: { name: 'f', args: {} } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'f', response: {} } }] },
      ],
    };
    const curl = `curl -X POST ${URLS['vertex-gemini'] as string} -d '${JSON.stringify(body)}'`;
    const p = parsedText(curl);
    expect(p.transcript.endpoint).toBe('vertex-gemini');
    const a = analyze(p.transcript);
    expect(a.provider).toBe('vertex-gemini');
    // GewoonJaap/gemini-cli-openai#156 and warpdotdev/warp#8099, byte for byte but the name and N.
    expect(a.validation.violations.map((v) => v.message)).toEqual([
      'Unable to submit request because function call `default_api:f` in the 2. content block is missing a `thought_signature`. Learn more: https://docs.cloud.google.com/vertex-ai/generative-ai/docs/thought-signatures',
    ]);
  });
});

describe('missed classes (issue 35)', () => {
  const toolHistory = [
    { role: 'user', content: 'q' },
    { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'f', input: {} }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'r' }] },
    { role: 'user', content: 'Summarise the conversation.' },
  ];
  const A7_TEXT = 'Requests which include `tool_use` or `tool_result` blocks must define tools.';

  it('a complete Anthropic request (model and max_tokens) with no tools key: A7, as a compaction call gets it', () => {
    const t = parsed({ model: 'claude-sonnet-4-5', max_tokens: 1024, messages: toolHistory });
    expect(t.transcript.tools).toBeNull();
    const v = validateTranscript(t.transcript, 'anthropic');
    expect(v.violations.map((x) => [x.code, x.severity, x.message])).toEqual([
      ['A7', 'error', A7_TEXT],
    ]);
  });

  it('with anthropic_version (Bedrock, Vertex) too; a bare message list is still "not given"', () => {
    const bedrock = parsed({ anthropic_version: 'vertex-2023-10-16', messages: toolHistory });
    expect(validateTranscript(bedrock.transcript, 'anthropic').violations[0]?.code).toBe('A7');
    const bare = parsed({ messages: toolHistory });
    const v = validateTranscript(bare.transcript, 'anthropic');
    expect(v.valid).toBe(true);
    expect(v.notes.join(' ')).toContain('A7');
  });

  it('a Converse request naming its modelId with no toolConfig: B7', () => {
    const t = parsed({
      modelId: 'amazon.nova-pro-v1:0',
      messages: [
        { role: 'user', content: [{ text: 'q' }] },
        { role: 'assistant', content: [{ toolUse: { toolUseId: 'tu1', name: 'f', input: {} } }] },
        {
          role: 'user',
          content: [{ toolResult: { toolUseId: 'tu1', content: [{ text: 'r' }] } }],
        },
      ],
    });
    const v = validateTranscript(t.transcript, 'bedrock');
    expect(v.violations.map((x) => [x.code, x.message])).toEqual([
      [
        'B7',
        'The toolConfig field must be defined when using toolUse and toolResult content blocks.',
      ],
    ]);
  });

  it('an item_reference followed by its function_call_output is not R1 (the reference resolves server-side)', () => {
    const t = parsed({
      model: 'gpt-5',
      input: [
        { role: 'user', content: 'q' },
        { type: 'item_reference', id: 'fc_1' },
        { type: 'function_call_output', call_id: 'call_1', output: 'r' },
      ],
    }).transcript;
    const v = validateTranscript(t, 'openai-responses');
    expect(v.violations.filter((x) => x.code === 'R1')).toEqual([]);
    expect(v.notes.join(' ')).toContain('item_reference');
    // Without the reference the same output is R1.
    const bare = parsed({
      model: 'gpt-5',
      input: [
        { role: 'user', content: 'q' },
        { type: 'function_call_output', call_id: 'call_1', output: 'r' },
      ],
    }).transcript;
    expect(validateTranscript(bare, 'openai-responses').violations.map((x) => x.code)).toEqual([
      'R1',
    ]);
  });

  it('R6 with previous_response_id: the held item re-sent, in the text openai-agents-python#1789 captured', () => {
    const t = parsed({
      previous_response_id: 'resp_1',
      input: [
        { type: 'function_call', id: 'fc_68a1', call_id: 'call_1', name: 'f', arguments: '{}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'r' },
      ],
    }).transcript;
    const v = validateTranscript(t, 'openai-responses');
    expect(v.violations.map((x) => [x.code, x.message])).toEqual([
      [
        'R6b',
        'Duplicate item found with id fc_68a1. Remove duplicate items from your input and try again.',
      ],
    ]);
  });

  it('A6b names the block where the duplicate is found (the second result)', () => {
    const dup = parsed({
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      tools: [{ name: 'f', input_schema: { type: 'object' } }],
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'f', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'a' }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'a' }] },
      ],
    }).transcript;
    const v = validateTranscript(dup, 'anthropic').violations.find((x) => x.code === 'A6b');
    // The two user messages merge: the second result is block 1 of messages.2.
    expect(v?.providerPath).toBe('messages.2.content.1');
    expect(v?.message).toBe(
      'messages.2.content.1: each tool_use must have a single result. Found multiple `tool_result` blocks with id: t1',
    );
  });
});

describe('an endpoint whose own answer is not captured says so', () => {
  it('Kimi answering O1 with OpenAI\u2019s text: the note names it the API\u2019s rule and wording', () => {
    const t = parsed({
      model: 'kimi-k2.5',
      messages: [
        { role: 'user', content: 'q' },
        { role: 'tool', tool_call_id: 'c1', content: 'r' },
      ],
    }).transcript;
    const v = validateTranscript(t, 'kimi');
    expect(v.violations.map((x) => x.code)).toEqual(['O1']);
    expect(v.notes).toContain(
      "O1 is the OpenAI Chat Completions API's rule and wording: Kimi (Moonshot)'s own answer to it is not captured.",
    );
  });

  it('an endpoint that passes the API\u2019s texts through (Azure, Vertex Claude) adds no such note', () => {
    const t = parsed({
      messages: [
        { role: 'user', content: 'q' },
        { role: 'tool', tool_call_id: 'c1', content: 'r' },
      ],
    }).transcript;
    const v = validateTranscript(t, 'azure-openai');
    expect(v.violations.map((x) => x.code)).toEqual(['AZ1']);
    expect(v.notes.join(' ')).not.toContain('not captured');
  });
});
