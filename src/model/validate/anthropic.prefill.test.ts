import { describe, expect, it } from 'vitest';
import { PARSERS } from '../parse/registry.ts';
import { assistant, transcript, user } from '../testing/index.ts';
import type { Message, Transcript } from '../types.ts';
import { rejectsPrefill } from './anthropic.ts';
import { validateTranscript } from './index.ts';
import { load } from '../testing/faults.fixtures.ts';

const t = (messages: Message[], extra: Partial<Transcript> = {}) =>
  transcript('anthropic-messages', messages, extra);
const first = (tr: Transcript) => validateTranscript(tr, 'anthropic').violations[0];

describe('anthropic validator: A12 (a trailing assistant message, prefill)', () => {
  it('A12: trailing assistant message depends on the model', () => {
    const msgs = [user('q'), assistant('The answer is ')];
    expect(first(t(msgs, { settings: { model: 'claude-3-5-sonnet-20241022' } }))?.message).toBe(
      'messages: final assistant content cannot end with trailing whitespace',
    );
    expect(
      first(t([user('q'), assistant('The answer is')], { settings: { model: 'claude-opus-4-6' } }))
        ?.message,
    ).toBe('Prefilling assistant messages is not supported for this model.');
    expect(
      first(t([user('q'), assistant('{')], { settings: { toolChoiceForced: true } }))?.message,
    ).toBe(
      'Your API request included an `assistant` message in the final position, which would pre-fill the `assistant` response. When using tools, pre-filling the `assistant` response is not supported.',
    );
    expect(
      validateTranscript(
        t([user('q'), assistant('{')], { settings: { model: 'claude-sonnet-4-5' } }),
        'anthropic',
      ).valid,
    ).toBe(true);
  });

  it('A12 is not checked on session logs (every log format of the registry): their last assistant message is history', () => {
    const logs = PARSERS.filter((p) => p.category === 'log').map((p) => p.id);
    expect(logs).toEqual(
      expect.arrayContaining(['claude-code-jsonl', 'codex-jsonl', 'gemini-cli']),
    );
    for (const format of logs) {
      const log = transcript(format, [user('q'), assistant('done')], {
        settings: { model: 'claude-opus-4-7' },
      });
      const v = validateTranscript(log, 'anthropic');
      expect(v.valid, format).toBe(true);
      expect(v.notes.join(' '), format).toContain('A12 was not checked');
    }
    // A request body with the same messages is a prefill, which this model rejects.
    const body = transcript('anthropic-messages', [user('q'), assistant('done')], {
      settings: { model: 'claude-opus-4-7' },
    });
    expect(validateTranscript(body, 'anthropic').violations.map((x) => x.code)).toContain('A12');
  });

  it('rejectsPrefill follows the model families of the errors page', () => {
    expect(rejectsPrefill('claude-opus-4-6')).toBe(true);
    expect(rejectsPrefill('claude-sonnet-4-6-20260101')).toBe(true);
    expect(rejectsPrefill('claude-opus-5')).toBe(true);
    expect(rejectsPrefill('claude-sonnet-4-5-20250929')).toBe(false);
    expect(rejectsPrefill('claude-3-7-sonnet-20250219')).toBe(false);
    expect(rejectsPrefill(undefined)).toBe(false);
  });
});

describe('notes when another API’s body is judged as Anthropic (newcomer)', () => {
  const chatBody = {
    model: 'gpt-4.1',
    messages: [
      { role: 'user', content: 'ping' },
      { role: 'assistant', content: 'pong' },
    ],
  };

  it('a Chat body: the thinking note says the body has no `thinking` setting, not that none was given', () => {
    const tr = load(chatBody);
    expect(tr.format).toBe('openai-chat');
    const notes = validateTranscript(tr, 'anthropic').notes.join('\n');
    expect(notes).not.toMatch(/no request body/);
    expect(notes).toMatch(
      /thinking is enabled is unknown \(the request body is OpenAI Chat Completions, which has no Anthropic `thinking` setting\)/,
    );
  });

  it('a bare message list still says no request body was given', () => {
    const tr = load(chatBody.messages);
    expect(validateTranscript(tr, 'anthropic').notes.join('\n')).toMatch(
      /unknown \(no request body: a message list alone\)/,
    );
  });

  it('a model that is not a Claude model is not said to accept a prefill', () => {
    const notes = validateTranscript(load(chatBody), 'anthropic').notes.join('\n');
    expect(notes).not.toMatch(/accepted as prefill for model gpt-4\.1/);
    expect(notes).toMatch(
      /gpt-4\.1 is not a Claude model, so A12 was judged as for the older Claude models/,
    );
    // A Claude model keeps its own verdict.
    expect(
      validateTranscript(load({ ...chatBody, model: 'claude-3-5-sonnet-20241022' }), 'anthropic')
        .notes,
    ).toContain(
      'A trailing assistant message is accepted as prefill for model claude-3-5-sonnet-20241022 (A12).',
    );
  });
});
