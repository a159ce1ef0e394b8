import { describe, expect, it } from 'vitest';
import { analyze } from './analyze.ts';
import { messageLabels } from './messageLabels.ts';
import { requestIndexText, type RequestRows } from './requestRows.ts';
import { assistant, call, result, transcript, user } from './testing/index.ts';
import type { Message, ProviderId } from './types.ts';
import { validatorFor } from './validate/index.ts';

/** The first error's note, as the verdict draws it for the transcript's rows. */
function firstNote(messages: Message[], provider: ProviderId = 'anthropic') {
  const t = transcript('anthropic-messages', messages);
  const a = analyze(t, provider);
  const v = a.validation.violations.find((x) => x.severity === 'error');
  if (!v) throw new Error('no error');
  const labels = messageLabels(t.messages);
  const turns = validatorFor(provider)?.requestTurns?.(t, t.messages);
  const request: RequestRows | null = turns ? { turns, labels } : null;
  const row = labels.of(v.pathIndex ?? v.index);
  return {
    v,
    text: requestIndexText(v.providerPath, row, request),
    bare: requestIndexText(v.providerPath, row, null),
  };
}

describe('requestIndexText: the request index in rows, said truly', () => {
  it('two assistant rows Anthropic sends as one message: the note names both, not "as the rows do"', () => {
    const { v, text } = firstNote([
      user('q'),
      assistant(call('toolu_a')),
      assistant('More to say.'),
      user('next'),
    ]);
    expect(v.providerPath).toMatch(/^messages\.1\b/);
    expect(text?.note).toBe('request message 1 = rows #1 and #2');
    expect(text?.explain).toContain('rows #1 and #2 are its message 1');
    expect(text?.explain).not.toContain('as the rows do');
  });

  it('rows merged after the one named: alike up to it, and says where the numbers part', () => {
    const { v, text } = firstNote([
      user('q'),
      assistant(call('toolu_a')),
      user('next'),
      assistant('One.'),
      assistant('Two.'),
      user('y'),
    ]);
    expect(v.index).toBe(1);
    expect(text?.note).toBe('request message 1 = row #1');
    expect(text?.explain).toContain('as the rows do up to here');
    expect(text?.explain).toContain('rows #3 and #4');
    expect(text?.explain).toContain('its message 3, so later numbers differ');
  });

  it('every row its own request message: "as the rows do"', () => {
    const { text } = firstNote([user('q'), assistant(call('toolu_a')), user('next')]);
    expect(text).toEqual({
      note: 'request message 1 = row #1',
      explain:
        '(the provider counts the messages of the request it received, from 0, as the rows do)',
    });
  });

  it('rows merged before the one named: the numbers differ, as before', () => {
    const { text } = firstNote([
      user('q'),
      assistant('a'),
      assistant('b'),
      user('x'),
      assistant(call('toolu_a')),
      user('next'),
    ]);
    expect(text?.note).toBe('request message 3 = row #4');
    expect(text?.explain).toContain('consecutive same-role rows are one message');
  });

  it('without the request (a cut request, a provider that does not say): only what the numbers show', () => {
    const { bare } = firstNote([
      user('q'),
      assistant(call('toolu_a')),
      assistant('More to say.'),
      user('next'),
    ]);
    expect(bare).toEqual({
      note: 'request message 1 = row #1',
      explain:
        '(the provider counts the messages of the request it received, from 0; here that is the row number)',
    });
  });

  it('Bedrock for a converted request merges as Anthropic does; a Converse body is not merged', () => {
    const t = transcript('anthropic-messages', [user('q'), assistant('a'), assistant('b')]);
    expect(validatorFor('bedrock')?.requestTurns?.(t, t.messages).count).toBe(2);
    const native = { ...t, format: 'bedrock-converse' as const };
    expect(validatorFor('bedrock')?.requestTurns?.(native, t.messages).count).toBe(3);
  });

  it('no note without an index or a row', () => {
    expect(requestIndexText('messages', '#1', null)).toBeNull();
    expect(requestIndexText('messages.1', null, null)).toBeNull();
    expect(requestIndexText(null, '#1', null)).toBeNull();
  });
});

// The cause is the second of two assistant rows sent as one message (A11: its text block is
// empty): the note names both rows of that message.
describe('requestIndexText when the cause is the second row of a merged message', () => {
  it('names both rows of the merged message', () => {
    const { v, text } = firstNote([
      user('q'),
      assistant(call('toolu_a')),
      user(result('toolu_a')),
      assistant('ok'),
      assistant(''),
      user('x'),
    ]);
    expect(v.index).toBe(4);
    expect(v.providerPath).toMatch(/^messages\.3\b/);
    expect(text?.note).toBe('request message 3 = rows #3 and #4');
  });
});
