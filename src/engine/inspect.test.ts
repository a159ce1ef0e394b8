import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSyncClient, createWorkerClient } from './client.ts';
import { InspectStages, inspect } from './inspect.ts';

/** Shared case 02 shape (OpenAI Chat, trailing assistant tool_calls with no tool message), rebuilt. */
const TRAILING_CALL = JSON.stringify({
  messages: [
    { role: 'user', content: 'Weather in Oslo?' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: 'call_1',
          type: 'function',
          function: { name: 'get_weather', arguments: '{"city":"Oslo"}' },
        },
      ],
    },
  ],
});

describe('inspect', () => {
  it('parses and analyses with the format’s provider by default', () => {
    const r = inspect({ text: TRAILING_CALL, name: '', format: null, provider: null });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.analysis.transcript.format).toBe('openai-chat');
    expect(r.analysis.provider).toBe('openai-chat');
    expect(r.analysis.validation.valid).toBe(false);
  });

  it('reuses the parse when only the provider changes, and the analysis when nothing does', () => {
    const stages = new InspectStages();
    const p1 = stages.parse(TRAILING_CALL, '', null);
    const p2 = stages.parse(TRAILING_CALL, '', null);
    expect(p2).toBe(p1);
    if (!p1.ok) throw new Error('parse failed');
    const a1 = stages.analyze(p1.value, 'anthropic');
    expect(stages.analyze(p1.value, 'anthropic')).toBe(a1);
    expect(stages.analyze(p1.value, 'openai-chat')).not.toBe(a1);
    // Another realm's stages (another client, another worker) share no memo.
    expect(new InspectStages().parse(TRAILING_CALL, '', null)).not.toBe(p1);
  });

  it('reports bad JSON with a location', () => {
    const r = inspect({ text: '{"messages": [}', name: '', format: null, provider: null });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.kind).toBe('json');
    expect(r.error.location?.line).toBe(1);
  });

  it('never throws, whatever the text (property)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), (text) => {
        const r = inspect({ text, name: '', format: null, provider: null });
        expect(typeof r.ok).toBe('boolean');
      }),
      { numRuns: 300 },
    );
  });
});

describe('client', () => {
  it('falls back to the synchronous path where there is no Worker (Node, tests)', async () => {
    const client = createWorkerClient();
    const r = await client.inspect({
      text: TRAILING_CALL,
      name: '',
      format: null,
      provider: 'anthropic',
    });
    expect(r.ok && r.analysis.provider).toBe('anthropic');
    client.dispose();
  });

  it('the sync client answers the same as inspect', async () => {
    const req = { text: TRAILING_CALL, name: '', format: null, provider: null };
    const r = await createSyncClient().inspect(req);
    expect(r).toEqual(inspect(req));
  });
});
