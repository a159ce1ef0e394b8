/**
 * `--provider` takes every endpoint id of the registry (and the aliases), and an input that names
 * its endpoint (a curl command's URL, a HAR entry's URL) is judged under it without the flag.
 */
import { describe, expect, it } from 'vitest';
import { ENDPOINT_ALIASES, ENDPOINT_IDS, resolveEndpoint } from '../model/validate/index.ts';
import { cli } from './testing/index.ts';

const ANTHROPIC_ORPHAN = JSON.stringify({
  model: 'claude-sonnet-4-5',
  max_tokens: 100,
  tools: [{ name: 'f', input_schema: { type: 'object' } }],
  messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'x' }] }],
});

describe('check --provider accepts every endpoint id', () => {
  it.each([...ENDPOINT_IDS])('%s', async (id) => {
    const r = await cli(['check', 'b.json', '--provider', id, '--json'], {
      'b.json': ANTHROPIC_ORPHAN,
    });
    expect(r.err).not.toMatch(/unknown provider/);
    expect([0, 1]).toContain(r.code);
    expect((JSON.parse(r.out) as { provider: string }).provider).toBe(id);
  });

  it('and every alias, as the endpoint it names (today\u2019s names keep working)', async () => {
    for (const alias of ENDPOINT_ALIASES) {
      const r = await cli(['check', 'b.json', '--provider', alias, '--json'], {
        'b.json': ANTHROPIC_ORPHAN,
      });
      expect((JSON.parse(r.out) as { provider: string }).provider).toBe(resolveEndpoint(alias));
    }
  });

  it('refuses a name no endpoint answers to, listing the ids', async () => {
    const r = await cli(['check', 'b.json', '--provider', 'nosuch'], {
      'b.json': ANTHROPIC_ORPHAN,
    });
    expect(r.code).toBe(2);
    expect(r.err).toContain('unknown provider "nosuch"');
    for (const id of ENDPOINT_IDS) expect(r.err).toContain(id);
  });
});

const KIMI_BODY = {
  model: 'kimi-k2.5',
  messages: [
    { role: 'system', content: 's' },
    { role: 'user', content: 'q' },
    {
      role: 'assistant',
      content: '',
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }],
    },
    { role: 'tool', tool_call_id: 'c1', content: 'r' },
  ],
};

describe('an input that names its endpoint is judged under it without --provider', () => {
  it('a curl command to api.moonshot.ai: Kimi, K1 in its own words', async () => {
    const curl = `curl https://api.moonshot.ai/v1/chat/completions -H 'Content-Type: application/json' -d '${JSON.stringify(KIMI_BODY)}'`;
    const r = await cli(['check', 'c.txt', '--json'], { 'c.txt': curl });
    const j = JSON.parse(r.out) as {
      provider: string;
      violations: { code: string }[];
      firstError: unknown;
    };
    expect(j.provider).toBe('kimi');
    expect(j.violations.map((v) => v.code)).toEqual(['K1']);
    // Byte for byte the body VicBilibily/GCMP#162 captured (its index: cloudwego/eino-ext#700's).
    expect(JSON.stringify(j.firstError)).toBe(
      '{"error":{"type":"invalid_request_error","message":"thinking is enabled but reasoning_content is missing in assistant tool call message at index 2"},"type":"error"}',
    );
  });

  it('a HAR entry to DeepSeek\u2019s Anthropic endpoint: DA1, not Anthropic\u2019s T1', async () => {
    const body = {
      model: 'deepseek-v4-pro',
      max_tokens: 100,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      tools: [{ name: 'f', input_schema: { type: 'object' } }],
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'f', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'r' }] },
      ],
    };
    const har = JSON.stringify({
      log: {
        version: '1.2',
        entries: [
          {
            request: {
              method: 'POST',
              url: 'https://api.deepseek.com/anthropic/v1/messages',
              headers: [],
              postData: { mimeType: 'application/json', text: JSON.stringify(body) },
            },
            response: { status: 400, headers: [], content: { mimeType: 'application/json' } },
          },
        ],
      },
    });
    const r = await cli(['check', 'h.har', '--json'], { 'h.har': har });
    const j = JSON.parse(r.out) as {
      provider: string;
      violations: { code: string }[];
      firstError: unknown;
    };
    expect(j.provider).toBe('deepseek-anthropic');
    expect(j.violations.map((v) => v.code)).toEqual(['DA1']);
    // Byte for byte the body decolua/9router#2397 captured.
    expect(JSON.stringify(j.firstError)).toBe(
      '{"error":{"message":"The `content[].thinking` in the thinking mode must be passed back to the API.","type":"invalid_request_error","param":null,"code":"invalid_request_error"}}',
    );
  });

  it('--provider still wins over the URL', async () => {
    const curl = `curl https://api.moonshot.ai/v1/chat/completions -d '${JSON.stringify(KIMI_BODY)}'`;
    const r = await cli(['check', 'c.txt', '--provider', 'openai-chat', '--json'], {
      'c.txt': curl,
    });
    const j = JSON.parse(r.out) as { provider: string; valid: boolean };
    expect(j.provider).toBe('openai-chat');
    expect(j.valid).toBe(true);
  });
});
