import { describe, expect, it } from 'vitest';
import { load } from '../testing/faults.fixtures.ts';
import { parseTranscript } from '../parse/index.ts';
import { repairTranscript } from '../repair.ts';
import { validateTranscript } from '../validate/index.ts';
import { writeTranscript } from '../write.ts';
import { expectRepaired, expectRoundTrip } from '../testing/repair.ts';

const ASK = { role: 'user', parts: [{ text: 'weather in Paris?' }] };

/** A functionCall part (with an id only when given: Gemini before 3 sends none). */
function fc(city: string, id?: string) {
  return { functionCall: { ...(id ? { id } : {}), name: 'get_weather', args: { city } } };
}

/** The repaired body, written back and read again as JSON. */
function body(t: ReturnType<typeof load>) {
  const r = repairTranscript(t, 'gemini');
  expectRepaired(t, r, 'gemini');
  expectRoundTrip(r, 'gemini');
  return { r, out: JSON.parse(writeTranscript(r.transcript)) as { contents: unknown[] } };
}

describe('repair of Gemini function calls (G3: counted, not matched by id)', () => {
  it('an unanswered call without an id gets an error functionResponse with its name, first in the next user turn', () => {
    const t = load({
      contents: [
        ASK,
        { role: 'model', parts: [fc('Paris')] },
        { role: 'user', parts: [{ text: 'hello?' }] },
      ],
    });
    expect(validateTranscript(t, 'gemini').violations[0]).toMatchObject({
      rule: 'unanswered_tool_use',
      code: 'G3',
    });
    const { r, out } = body(t);
    expect(r.changes).toMatchObject([
      { kind: 'error_result_added', ids: [], messageIndex: 1, outputIndex: 2, replaced: [2] },
    ]);
    expect(r.changes[0]?.note).toMatch(/get_weather/);
    expect(out.contents[2]).toEqual({
      role: 'user',
      parts: [
        {
          functionResponse: {
            name: 'get_weather',
            response: {
              error:
                "Error: the tool call was interrupted before it returned; the user's next message came first.",
            },
          },
        },
        { text: 'hello?' },
      ],
    });
    expect(out.contents.slice(0, 2)).toEqual(
      (JSON.parse(JSON.stringify(t.raw)) as { contents: unknown[] }).contents.slice(0, 2),
    );
  });

  it('a partial answer (two calls, one response, no ids) gets one error response beside the real one', () => {
    const t = load({
      contents: [
        ASK,
        { role: 'model', parts: [fc('Paris'), fc('Rome')] },
        {
          role: 'user',
          parts: [{ functionResponse: { name: 'get_weather', response: { output: '20 °C' } } }],
        },
        { role: 'model', parts: [{ text: 'Paris: 20 °C.' }] },
      ],
    });
    expect(validateTranscript(t, 'gemini').violations[0]).toMatchObject({
      rule: 'partial_answer',
      code: 'G3',
    });
    const { r, out } = body(t);
    expect(r.changes).toMatchObject([
      { kind: 'error_result_added', messageIndex: 1, outputIndex: 2 },
    ]);
    expect(out.contents[2]).toEqual({
      role: 'user',
      parts: [
        { functionResponse: { name: 'get_weather', response: { output: '20 °C' } } },
        {
          functionResponse: {
            name: 'get_weather',
            response: {
              error:
                'Error: no result was recorded for this call while its parallel siblings returned (it timed out or raised).',
            },
          },
        },
      ],
    });
  });

  it('calls with ids (Gemini 3) are answered by id, and the response carries the id', () => {
    const t = load({
      contents: [
        ASK,
        { role: 'model', parts: [fc('Paris', 'fc_1'), fc('Rome', 'fc_2')] },
        {
          role: 'user',
          parts: [
            {
              functionResponse: { id: 'fc_2', name: 'get_weather', response: { output: '25 °C' } },
            },
          ],
        },
      ],
    });
    const { r, out } = body(t);
    expect(r.changes).toMatchObject([{ kind: 'error_result_added', ids: ['fc_1'] }]);
    const parts = (out.contents[2] as { parts: { functionResponse: object }[] }).parts;
    expect(parts.map((p) => p.functionResponse)).toMatchObject([
      { id: 'fc_2', name: 'get_weather' },
      { id: 'fc_1', name: 'get_weather', response: { error: expect.stringMatching(/^Error: /) } },
    ]);
  });

  it('a call turn with and without ids mixed: every call left open is answered', () => {
    const t = load({
      contents: [
        ASK,
        { role: 'model', parts: [fc('Paris'), fc('Rome', 'fc_2')] },
        { role: 'user', parts: [{ text: 'hello?' }] },
      ],
    });
    const { out } = body(t);
    const parts = (out.contents[2] as { parts: object[] }).parts;
    expect(parts).toHaveLength(3);
  });

  it('a retry that stored a call turn without ids twice: the copy is removed, no result invented', () => {
    const t = load({
      contents: [
        ASK,
        { role: 'model', parts: [fc('Paris')] },
        { role: 'model', parts: [fc('Paris')] },
        {
          role: 'user',
          parts: [{ functionResponse: { name: 'get_weather', response: { output: '20 °C' } } }],
        },
      ],
    });
    const { r } = body(t);
    expect(r.changes).toMatchObject([{ kind: 'replayed_turn_removed', replaced: [2] }]);
    expect(r.transcript.messages).toEqual([t.messages[0], t.messages[1], t.messages[3]]);
  });

  it('the same for a Gemini CLI session: the error response rides in its call, the user line is kept', () => {
    const t = load({
      sessionId: 's',
      projectHash: 'p',
      messages: [
        { id: 'u1', type: 'user', content: 'List the files.' },
        {
          id: 'g1',
          type: 'gemini',
          content: 'Listing.',
          toolCalls: [{ name: 'list_directory', args: { path: '.' }, status: 'cancelled' }],
        },
        { id: 'u2', type: 'user', content: 'hello?' },
      ],
    });
    expect(t.format).toBe('gemini-cli');
    const { r } = body(t);
    const out = JSON.parse(writeTranscript(r.transcript)) as { messages: object[] };
    expect(out.messages[2]).toEqual({ id: 'u2', type: 'user', content: 'hello?' });
    expect(out.messages[1]).toMatchObject({
      id: 'g1',
      toolCalls: [
        {
          name: 'list_directory',
          status: 'error',
          result: [{ functionResponse: { name: 'list_directory' } }],
        },
      ],
    });
    const back = parseTranscript(JSON.stringify(out));
    expect(back.ok && validateTranscript(back.value.transcript, 'gemini').valid).toBe(true);
  });
});

describe('repair of orphan Gemini function responses (G1, G3: as an orphan tool_result is)', () => {
  const reply = { role: 'model', parts: [{ text: 'Hello.' }] };
  const resp = (name: string, id?: string) => ({
    functionResponse: { ...(id ? { id } : {}), name, response: { output: '20 °C' } },
  });

  it('a functionResponse without an id after a turn that calls nothing is removed, the text beside it stays', () => {
    const t = load({
      contents: [ASK, reply, { role: 'user', parts: [resp('get_weather'), { text: 'and Rome?' }] }],
    });
    expect(validateTranscript(t, 'gemini').violations).toMatchObject([
      { rule: 'orphan_tool_result', code: 'G1', ids: [] },
    ]);
    const { r, out } = body(t);
    expect(r.changes).toMatchObject([
      { kind: 'orphan_removed', rule: 'orphan_tool_result', messageIndex: 2, replaced: [2] },
    ]);
    expect(r.changes[0]?.note).toMatch(/get_weather/);
    expect(out.contents[2]).toEqual({ role: 'user', parts: [{ text: 'and Rome?' }] });
    expect(r.transcript.messages.slice(0, 2)).toEqual(t.messages.slice(0, 2));
  });

  it('a turn of orphan responses alone goes; with and without ids mixed, every one goes', () => {
    const alone = load({ contents: [ASK, reply, { role: 'user', parts: [resp('get_weather')] }] });
    expect(body(alone).r.transcript.messages).toEqual(alone.messages.slice(0, 2));
    const mixed = load({
      contents: [
        ASK,
        reply,
        { role: 'user', parts: [resp('get_weather'), resp('get_time', 'fc_2'), { text: 'and?' }] },
      ],
    });
    const { r, out } = body(mixed);
    expect(r.changes.map((c) => c.kind)).toEqual(['orphan_removed', 'orphan_removed']);
    expect(out.contents[2]).toEqual({ role: 'user', parts: [{ text: 'and?' }] });
  });

  it('more responses than calls, none with an id: the one no call stands for is removed, wherever it is', () => {
    const t = load({
      contents: [
        ASK,
        { role: 'model', parts: [fc('Paris')] },
        { role: 'user', parts: [resp('get_time'), resp('get_weather')] },
      ],
    });
    expect(validateTranscript(t, 'gemini').violations).toMatchObject([
      { rule: 'count_mismatch', code: 'G3', ids: [] },
    ]);
    const { r, out } = body(t);
    expect(r.changes).toMatchObject([{ kind: 'orphan_removed', rule: 'count_mismatch' }]);
    expect(r.changes[0]?.note).toMatch(/get_time/);
    expect(out.contents[2]).toEqual({ role: 'user', parts: [resp('get_weather')] });
  });

  it('a response cut off from its call by a user turn is re-attached by name, not replaced by an error', () => {
    const t = load({
      contents: [
        ASK,
        { role: 'model', parts: [fc('Paris')] },
        { role: 'user', parts: [{ text: 'hello?' }] },
        { role: 'user', parts: [resp('get_weather')] },
      ],
    });
    const { r, out } = body(t);
    expect(r.changes).toMatchObject([{ kind: 'result_reattached', messageIndex: 3 }]);
    expect(out.contents).toHaveLength(3);
    expect(out.contents[2]).toEqual({
      role: 'user',
      parts: [resp('get_weather'), { text: 'hello?' }],
    });
  });
});
