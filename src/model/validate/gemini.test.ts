import { describe, expect, it } from 'vitest';
import { parseDocument } from '../parse/index.ts';
import {
  assistant,
  call,
  geminiCliWrongIdSession,
  parsed as parsedAny,
  result,
  tool,
  transcript,
  user,
} from '../testing/index.ts';
import type { Transcript } from '../types.ts';
import { validateTranscript } from './index.ts';

function parsed(body: unknown): Transcript {
  const r = parseDocument({ kind: 'json', value: body }, { format: 'gemini' });
  if (!r.ok) throw new Error(r.error.message);
  return r.value.transcript;
}
const envelope = (message: string) => ({
  error: { code: 400, message, status: 'INVALID_ARGUMENT' },
});
const errors = (t: Transcript, opts?: Parameters<typeof validateTranscript>[2]) =>
  validateTranscript(t, 'gemini', opts).violations.filter((v) => v.severity === 'error');

const G1 =
  'Please ensure that function response turn comes immediately after a function call turn.';
const G2 =
  'Please ensure that function call turn comes immediately after a user turn or after a function response turn.';
const G3 =
  'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.';

const u = (text: string) => ({ role: 'user', parts: [{ text }] });
const m = (text: string) => ({ role: 'model', parts: [{ text }] });
const calls = (...names: string[]) => ({
  role: 'model',
  parts: names.map((n, i) => ({ functionCall: { id: `gc_${n}`, name: n, args: { i } } })),
});
const responses = (...names: string[]) => ({
  role: 'user',
  parts: names.map((n) => ({
    functionResponse: { id: `gc_${n}`, name: n, response: { output: 'ok' } },
  })),
});

describe('gemini validator: one test per rule, exact text and envelope (G1–G10)', () => {
  it('G1: a function response turn not right after a call turn', () => {
    const [v] = errors(parsed({ contents: [responses('read_file'), m('ok'), u('next')] }));
    expect(v).toMatchObject({
      rule: 'orphan_tool_result',
      code: 'G1',
      messageIndex: 0,
      blockIndex: 0,
      ids: ['gc_read_file'],
      providerPath: null,
      status: 400,
      message: G1,
    });
    expect(v?.error).toEqual(envelope(G1));
    // A text message between call and response also breaks it (G3 on the call turn first).
    expect(
      errors(parsed({ contents: [u('a'), calls('ls'), u('wait'), responses('ls')] })).map((x) => [
        x.code,
        x.messageIndex,
      ]),
    ).toEqual([
      ['G3', 1],
      ['G1', 3],
    ]);
  });

  it('G2: a call turn first, or right after another model turn', () => {
    const [v] = errors(
      parsed({ contents: [calls('build'), responses('build'), m('built'), u('again?')] }),
    );
    expect(v).toMatchObject({
      rule: 'role_order',
      code: 'G2',
      messageIndex: 0,
      blockIndex: 0,
      ids: ['gc_build'],
      message: G2,
    });
    expect(v?.error).toEqual(envelope(G2));
    const two = errors(
      parsed({ contents: [u('a'), m('Thinking out loud.'), calls('ls'), responses('ls')] }),
    );
    expect(two.map((x) => [x.rule, x.messageIndex])).toEqual([['role_order', 2]]);
  });

  it('G3: part counts differ (none, fewer, more)', () => {
    const none = errors(parsed({ contents: [u('a'), calls('ls', 'cat'), u('new prompt')] }));
    expect(none.map((x) => [x.rule, x.code, x.messageIndex, x.blockIndex, x.ids])).toEqual([
      ['unanswered_tool_use', 'G3', 1, 0, ['gc_ls', 'gc_cat']],
    ]);
    expect(none[0]?.error).toEqual(envelope(G3));
    const fewer = errors(parsed({ contents: [u('a'), calls('ls', 'cat'), responses('cat')] }));
    expect(fewer.map((x) => [x.rule, x.messageIndex, x.blockIndex, x.ids])).toEqual([
      ['partial_answer', 1, 0, ['gc_ls']],
    ]);
    const more = errors(parsed({ contents: [u('a'), calls('ls'), responses('ls', 'cat')] }));
    expect(more.map((x) => [x.rule, x.messageIndex, x.blockIndex])).toEqual([
      ['count_mismatch', 2, 1],
    ]);
  });

  it('G3 without ids: the unanswered calls are the last ones by position', () => {
    const t = parsed({
      contents: [
        u('a'),
        {
          role: 'model',
          parts: [
            { functionCall: { name: 'ls', args: {} } },
            { functionCall: { name: 'cat', args: {} } },
          ],
        },
        { role: 'user', parts: [{ functionResponse: { name: 'ls', response: {} } }] },
      ],
    });
    expect(errors(t).map((x) => [x.rule, x.messageIndex, x.blockIndex, x.ids])).toEqual([
      ['partial_answer', 1, 1, []],
    ]);
  });

  it('G4: Gemini 3 needs the thought signature on the first call of each step of the current turn', () => {
    const body = (sig: boolean) => ({
      model: 'gemini-3-pro-preview',
      contents: [
        u('old question'),
        { role: 'model', parts: [{ functionCall: { name: 'old', args: {} } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'old', response: {} } }] },
        m('old answer'),
        u('Deploy it.'),
        {
          role: 'model',
          parts: [
            {
              functionCall: { name: 'shell', args: { cmd: 'make' } },
              ...(sig ? { thoughtSignature: 'c2ln' } : {}),
            },
            { functionCall: { name: 'shell', args: { cmd: 'ls' } } },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { name: 'shell', response: {} } },
            { functionResponse: { name: 'shell', response: {} } },
          ],
        },
      ],
    });
    const vs = errors(parsed(body(false)));
    const msg =
      'Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call `default_api:shell` , position 6. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.';
    expect(vs.map((x) => [x.rule, x.code, x.messageIndex, x.blockIndex, x.message])).toEqual([
      ['thought_signature_missing', 'G4', 5, 0, msg],
    ]);
    expect(vs[0]?.error).toEqual(envelope(msg));
    // With the signature on the first part (parallel siblings carry none) it is accepted; the old
    // turn without signatures is not checked.
    expect(errors(parsed(body(true)))).toEqual([]);
    // Not Gemini 3: not checked, with a note.
    const old = validateTranscript(parsed({ ...body(false), model: 'gemini-2.5-pro' }), 'gemini');
    expect(old.valid).toBe(true);
    expect(old.notes.join(' ')).toMatch(/G4/);
  });

  it('G10: a functionResponse whose name is empty or missing (langflow-ai/langflow#9437)', () => {
    const named = responses('read_file', 'ls');
    const empty = structuredClone(named);
    (empty.parts[1]?.functionResponse as { name?: string }).name = '';
    const [v, ...rest] = errors(
      parsed({ contents: [u('a'), calls('read_file', 'ls'), empty, m('ok'), u('next')] }),
    );
    const text =
      '* GenerateContentRequest.contents[2].parts[1].function_response.name: Name cannot be empty.\n';
    expect(rest).toEqual([]);
    expect(v).toMatchObject({
      rule: 'tool_result_unnamed',
      code: 'G10',
      messageIndex: 2,
      blockIndex: 1,
      ids: ['gc_ls'],
      providerPath: 'contents[2].parts[1].function_response.name',
      status: 400,
      message: text,
    });
    expect(v?.error).toEqual(envelope(text));
    // Missing counts as empty; the first content it is in comes first.
    const missing = structuredClone(named);
    delete (missing.parts[0]?.functionResponse as { name?: string }).name;
    expect(
      errors(
        parsed({ contents: [u('a'), calls('read_file', 'ls'), missing, m('ok'), u('n')] }),
      ).map((x) => [x.code, x.providerPath]),
    ).toEqual([['G10', 'contents[2].parts[0].function_response.name']]);
    // Named responses pass; a Chat Completions tool message (no name field) is named by the
    // converter that renders it for Gemini, so no G10 there.
    expect(
      errors(parsed({ contents: [u('a'), calls('read_file', 'ls'), named, m('ok'), u('n')] })),
    ).toEqual([]);
    // From another format, a result whose call is not in the request (trimmed away) has no name
    // to be given: G10, listed before the turn checks' G1 (the proto's field errors come first);
    // the result is merged into the user's content before it, as its second part.
    const cut = transcript('openai-chat', [user('q'), tool('call_9'), assistant('ok'), user('n')]);
    expect(errors(cut).map((x) => [x.code, x.providerPath])).toEqual([
      ['G10', 'contents[0].parts[1].function_response.name'],
      ['G1', null],
    ]);
    const chat = transcript('openai-chat', [
      user('q'),
      assistant(call('call_1', 'ls')),
      tool('call_1'),
      user('n'),
    ]);
    expect(errors(chat)).toEqual([]);
  });

  it('G6/G7 are warnings only (historic / unconfirmed)', () => {
    const v = validateTranscript(parsed({ contents: [u('a'), u('b'), m('c')] }), 'gemini');
    expect(v.valid).toBe(true);
    expect(v.violations.map((x) => [x.code, x.severity, x.error])).toEqual([
      ['G6', 'warning', null],
      ['G7', 'warning', null],
    ]);
  });

  it('works on a transcript from another format and on message subsets', () => {
    const t = transcript('openai-chat', [
      user('q'),
      assistant(call('call_1', 'ls'), call('call_2', 'cat')),
      tool('call_1'),
      tool('call_2'),
      assistant('done'),
      user('thanks'),
    ]);
    expect(validateTranscript(t, 'gemini').valid).toBe(true);
    const kept = t.messages.filter((_, i) => i !== 3);
    expect(errors(t, { messages: kept }).map((x) => [x.rule, x.messageIndex, x.ids])).toEqual([
      ['partial_answer', 1, ['call_2']],
    ]);
    const responses = parseDocument({
      kind: 'json',
      value: {
        input: [
          { role: 'user', content: 'q' },
          { type: 'reasoning', id: 'rs_1', summary: [] },
          { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' },
          { type: 'function_call', call_id: 'c2', name: 'f', arguments: '{}' },
          { type: 'function_call_output', call_id: 'c1', output: 'a' },
          { type: 'function_call_output', call_id: 'c2', output: 'b' },
        ],
      },
    });
    expect(
      responses.ok && validateTranscript(responses.value.transcript, 'gemini').violations,
    ).toEqual([]);
    const anth = transcript('anthropic-messages', [
      user('q'),
      assistant(call('toolu_1')),
      user(result('toolu_1')),
      assistant('ok'),
    ]);
    expect(
      errors(anth, { messages: anth.messages.slice(1) }).map((x) => [x.rule, x.messageIndex]),
    ).toEqual([['role_order', 1]]);
  });
});

/** Our fixtures of reported case 12 (both steps of its story; content rewritten; the corpus suite checks the case itself). */
describe('gemini: fixtures derived from shared case 12 (side-call slice)', () => {
  it('step 2: the slice starts with a model functionCall turn → G2 at 0', () => {
    const body = {
      contents: [
        {
          role: 'model',
          parts: [{ functionCall: { id: 'lc_2', name: 'run_tests', args: { suite: 'unit' } } }],
        },
        {
          role: 'user',
          parts: [
            {
              functionResponse: {
                id: 'lc_2',
                name: 'run_tests',
                response: { output: '312 passed' },
              },
            },
          ],
        },
        { role: 'model', parts: [{ text: 'Unit tests pass. Next: integration tests.' }] },
        { role: 'user', parts: [{ text: 'Is the assistant repeating itself?' }] },
      ],
    };
    const r = parseDocument({ kind: 'json', value: body });
    expect(r.ok && r.value.transcript.format).toBe('gemini');
    if (!r.ok) return;
    const v = validateTranscript(r.value.transcript);
    expect(v.valid).toBe(false);
    expect(
      v.violations
        .filter((x) => x.severity === 'error')
        .map((x) => ({
          rule: x.rule,
          messageIndex: x.messageIndex,
          ids: x.ids,
          message: x.message,
        })),
    ).toEqual([{ rule: 'role_order', messageIndex: 0, ids: ['lc_2'], message: G2 }]);
  });
  it('step 1: the slice starts with a functionResponse turn → G1 at 0', () => {
    const body = {
      contents: [
        {
          role: 'user',
          parts: [
            { functionResponse: { id: 'lc_1', name: 'read_file', response: { output: '{}' } } },
          ],
        },
        { role: 'model', parts: [{ functionCall: { id: 'lc_2', name: 'run_tests', args: {} } }] },
        {
          role: 'user',
          parts: [
            { functionResponse: { id: 'lc_2', name: 'run_tests', response: { output: 'ok' } } },
          ],
        },
      ],
    };
    const v = validateTranscript(parsed(body));
    expect(
      v.violations
        .filter((x) => x.severity === 'error')
        .map((x) => [x.rule, x.messageIndex, x.ids, x.message]),
    ).toEqual([['orphan_tool_result', 0, ['lc_1'], G1]]);
  });
});

describe('Gemini order where raw indices repeat', () => {
  /** Our own Gemini CLI session on Gemini 3: turn g1 becomes two of ours (the call, the stored results). */
  const session = geminiCliWrongIdSession({ model: 'gemini-3-pro-preview' });

  it('sorts by our index: the call turn (G4) before its stored results (GW1 id warning)', () => {
    const t = parsedAny(session).transcript;
    expect(t.format).toBe('gemini-cli');
    expect(t.messages.map((m) => [m.rawIndex, m.role])).toEqual([
      [0, 'user'],
      [1, 'assistant'],
      [1, 'user'],
      [2, 'assistant'],
    ]);
    const vs = validateTranscript(t, 'gemini').violations;
    // Contents: user, model (call), user (results), model. By content position: G4 on content 1,
    // the id warning on content 2; the trailing model turn of a session log is history (no G7).
    expect(vs.map((v) => [v.code, v.rule, v.index])).toEqual([
      ['G4', 'thought_signature_missing', 1],
      ['GW1', 'tool_result_wrong_id', 2],
    ]);
    // The same order as with distinct raw indices.
    const distinct = { ...t, messages: t.messages.map((m, i) => ({ ...m, rawIndex: i })) };
    expect(validateTranscript(distinct, 'gemini').violations.map((v) => v.code)).toEqual(
      vs.map((v) => v.code),
    );
  });
});

describe('a session log ends on the reply: history, not a prefill (as A12 on Claude Code logs)', () => {
  it('a Gemini CLI log that ends on a model turn gets no G7, and says why', () => {
    const t = parsedAny(geminiCliWrongIdSession({ model: 'gemini-3-pro-preview' })).transcript;
    const v = validateTranscript(t, 'gemini');
    expect(v.violations.map((x) => x.code)).not.toContain('G7');
    expect(v.notes).toContain(
      'This is a session log: its last assistant message is history, not a prefill, so G7 was not checked.',
    );
    // The same contents as a request (not a log) still end on a model turn: G7.
    const asRequest = { ...t, format: 'gemini' as const };
    expect(validateTranscript(asRequest, 'gemini').violations.map((x) => x.code)).toContain('G7');
  });
});
