/**
 * `--model` (issue 41): a verdict that says "pick a Claude model id" can be followed from the
 * command line, and a link's `m` (the page's Model picker) is read the same way.
 */
import { describe, expect, it } from 'vitest';
import { encodePermalink } from '../model/permalink/codec.ts';
import { defaultPermalinkState } from '../model/permalink/schema.ts';
import { cli } from './testing/index.ts';

/** A Bedrock Converse request that ends on the assistant's reply, and names no model. */
const bedrock = JSON.stringify({
  messages: [
    { role: 'user', content: [{ text: 'Hi' }] },
    { role: 'assistant', content: [{ text: 'Hello' }] },
  ],
});

describe('check --model', () => {
  it('without a model, Bedrock says to pick one under Model or with --model', async () => {
    const r = await cli(['check', 'b.json', '--provider', 'bedrock', '--json'], {
      'b.json': bedrock,
    });
    const j = JSON.parse(r.out);
    expect(j.valid).toBe(true);
    expect(j.notes.join(' ')).toContain('pick a Claude model id under Model, or --model');
  });

  it('--model with a Claude id runs the Anthropic checks on Bedrock (A12 on a model without prefill)', async () => {
    const r = await cli(
      [
        'check',
        'b.json',
        '--provider',
        'bedrock',
        '--model',
        'anthropic.claude-opus-4-6-v1',
        '--json',
      ],
      { 'b.json': bedrock },
    );
    const j = JSON.parse(r.out);
    expect(j.valid).toBe(false);
    expect(j.violations[0].code).toBe('A12');
    expect(j.warnings).toContain(
      'Judged as model anthropic.claude-opus-4-6-v1 (chosen under Model, --model); the input names no model.',
    );
  });

  it('a link carries the model (m=) and the CLI judges as it; --model overrides it', async () => {
    const state = defaultPermalinkState();
    state.source = { kind: 'inline', text: bedrock, redacted: false };
    state.view.provider = 'bedrock';
    state.view.model = 'anthropic.claude-opus-4-6-v1';
    const link = `http://localhost:5173/#${encodePermalink(state)}`;
    expect(link).toContain('m=anthropic.claude-opus-4-6-v1');
    const fromLink = await cli(['check', link, '--json'], {});
    expect(JSON.parse(fromLink.out).violations[0].code).toBe('A12');
    expect(fromLink.err).toContain('model anthropic.claude-opus-4-6-v1, from the link');
    const older = await cli(
      ['check', link, '--model', 'anthropic.claude-3-7-sonnet-20250219-v1:0', '--json'],
      {},
    );
    expect(JSON.parse(older.out).valid).toBe(true);
  });

  it('a malformed --model is a usage error (exit 2)', async () => {
    const r = await cli(['check', 'b.json', '--model', 'a b'], { 'b.json': bedrock });
    expect(r.code).toBe(2);
    expect(r.err).toContain('--model wants a model id');
  });
});

describe('--help', () => {
  it('lists the format and provider names --format and --provider take', async () => {
    const r = await cli(['--help'], {});
    expect(r.out).toMatch(/--format F: anthropic-messages, openai-chat, .*claude-code-jsonl/);
    expect(r.out).toMatch(/--provider P: anthropic, .*bedrock/);
    expect(r.out).toContain('--model M:');
  });
});
