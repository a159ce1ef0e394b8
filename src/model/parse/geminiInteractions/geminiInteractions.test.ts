/** Gemini Interactions: steps as messages, pairs by call_id, signatures, usage, detection. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../analyze.ts';
import { repairTranscript } from '../../repair.ts';
import { writeTranscript } from '../../write.ts';
import type { Transcript } from '../../types.ts';
import { detectFormats, parseTranscript } from '../index.ts';

const SAMPLES = path.resolve(import.meta.dirname, '../../../../public/samples');

function read(v: unknown): Transcript {
  const r = parseTranscript(typeof v === 'string' ? v : JSON.stringify(v));
  if (!r.ok) throw new Error(r.error.message);
  return r.value.transcript;
}

const sample = (f: string) => read(readFileSync(path.join(SAMPLES, f), 'utf8'));

describe('Gemini Interactions', () => {
  it('an Interaction: one message per step, a server pair in one turn, usage from `usage`', () => {
    const t = sample('gemini-interactions-oncall.json');
    expect(t.format).toBe('gemini-interactions');
    expect(
      t.messages.map((m) => `${m.path} ${m.role}: ${m.blocks.map((b) => b.type).join(', ')}`),
    ).toEqual([
      'steps.0 user: text',
      'steps.1 assistant: thinking',
      'steps.2 assistant: tool_use',
      'steps.3 assistant: tool_use',
      'steps.4 tool: tool_result',
      'steps.5 tool: tool_result',
      'steps.6–7 assistant: tool_use, tool_result',
      'steps.8 assistant: text',
    ]);
    expect(t.settings.model).toBe('gemini-3-flash');
    expect(t.usage).toEqual([
      {
        messageIndex: 7,
        inputTokens: 612,
        outputTokens: 48,
        cacheReadTokens: 0,
        reasoningTokens: 40,
      },
    ]);
    const a = analyze(t);
    expect(a.provider).toBe('gemini');
    expect(a.pairs.map((p) => [p.id, p.status, p.server])).toEqual([
      ['call_logs1', 'answered', false],
      ['call_deps1', 'answered', false],
      ['gs_1', 'answered', true],
    ]);
    expect(a.validation.violations.filter((v) => v.severity === 'error')).toEqual([]);
  });

  it("the thought's signature is kept and carried by the function calls of its turn (never counted as text)", () => {
    const t = sample('gemini-interactions-oncall.json');
    expect(t.messages[1]?.blocks[0]).toEqual({
      type: 'thinking',
      thinking: 'Look at the error logs and the recent deploys.',
      signature: 'EqQBCkYIBxgCKkDk9oncallsig',
    });
    const calls = t.messages
      .flatMap((m) => m.blocks)
      .filter((b) => b.type === 'tool_use' && !b.server);
    expect(calls.map((b) => (b.type === 'tool_use' ? b.signature : null))).toEqual([
      'EqQBCkYIBxgCKkDk9oncallsig',
      'EqQBCkYIBxgCKkDk9oncallsig',
    ]);
  });

  it('an empty thought signature stays empty (js-genai#1735: it breaks the tool continuation)', () => {
    const t = read({
      model: 'gemini-2.5-flash',
      input: [
        { type: 'user_input', content: [{ type: 'text', text: 'Ping payments-db.' }] },
        { type: 'thought', summary: [{ type: 'text', text: 'Use ping.' }], signature: '' },
        { type: 'function_call', id: 'c1', name: 'ping', arguments: {} },
        { type: 'function_result', call_id: 'c1', result: 'pong' },
      ],
    });
    expect(t.messages[1]?.blocks[0]).toMatchObject({ type: 'thinking', signature: '' });
    expect(t.messages[2]?.blocks[0]).not.toHaveProperty('signature');
  });

  it('an empty thought signature before a call is a warning (GW2: a June 2026 400, accepted since)', () => {
    const steps = (signature: string) => ({
      model: 'gemini-2.5-flash',
      input: [
        { type: 'user_input', content: [{ type: 'text', text: 'Ping payments-db.' }] },
        { type: 'thought', summary: [{ type: 'text', text: 'Use ping.' }], signature },
        { type: 'function_call', id: 'c1', name: 'ping', arguments: {} },
        { type: 'function_result', call_id: 'c1', result: 'pong' },
      ],
    });
    const unsigned = analyze(read(steps(''))).validation;
    expect(unsigned.valid).toBe(true);
    expect(unsigned.violations.map((v) => [v.code, v.severity, v.ids])).toEqual([
      ['GW2', 'warning', ['c1']],
    ]);
    const signed = analyze(read(steps('EqQBCkYsig'))).validation;
    expect(signed.violations).toEqual([]);
  });

  it('a create body whose parallel call lost its result gets the Gemini 400', () => {
    const t = sample('broken-gemini-interactions-lost-result.json');
    expect(t.system).toEqual([
      { text: 'You are the on-call assistant for the payments team.', path: 'system_instruction' },
    ]);
    const a = analyze(t);
    const first = a.validation.violations.find((v) => v.severity === 'error');
    expect(first?.ids).toEqual(['call_deps1']);
    expect(first?.error).toEqual({
      error: {
        code: 400,
        message:
          'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.',
        status: 'INVALID_ARGUMENT',
      },
    });
  });

  it('results as parts, errors, media counted in bytes, and a continued interaction said', () => {
    const t = read({
      model: 'gemini-3-flash',
      previous_interaction_id: 'int_prev',
      input: [
        {
          type: 'function_result',
          call_id: 'c9',
          name: 'screenshot',
          is_error: true,
          result: [{ type: 'image', mime_type: 'image/png', data: 'iVBORw0KGgo'.repeat(40) }],
        },
      ],
    });
    expect(t.messages[0]?.blocks[0]).toEqual({
      type: 'tool_result',
      toolUseId: 'c9',
      isError: true,
      name: 'screenshot',
      content: [{ type: 'image', mediaType: 'image/png', bytes: 330 }],
    });
    expect(t.warnings).toEqual([
      'This request continues interaction int_prev: the earlier steps are kept by the server and are not shown.',
    ]);
  });

  it('detection: steps or typed input only; OpenAI Responses input is not taken', () => {
    expect(
      detectFormats({ kind: 'json', value: [{ type: 'user_input', content: 'hi' }] })[0]?.format,
    ).toBe('gemini-interactions');
    const responses = {
      model: 'gpt-5',
      input: [
        { type: 'message', role: 'user', content: 'hi' },
        { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' },
        { type: 'function_call_output', call_id: 'c1', output: 'x' },
      ],
    };
    const found = detectFormats({ kind: 'json', value: responses }).map((c) => c.format);
    expect(found).not.toContain('gemini-interactions');
    expect(found[0]).toBe('openai-responses');
  });

  it('a string input is one user turn; a value without steps says what is expected', () => {
    const plain = parseTranscript('{"model":"gemini-3-flash","input":"hello"}', {
      format: 'gemini-interactions',
    });
    expect(plain.ok && plain.value.transcript.messages.map((m) => m.role)).toEqual(['user']);
    const r = parseTranscript('{"model":"gemini-3-flash","input":42}', {
      format: 'gemini-interactions',
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.message).toBe(
      'Expected a Gemini Interaction: an object with `steps` (or a create body with `input`) listing typed steps.',
    );
  });

  it('a repaired call answered by nothing but a new prompt reads back as the same steps (results are steps of their own)', () => {
    const t = read({
      model: 'gemini-2.5-flash',
      input: [
        { type: 'user_input', content: [{ type: 'text', text: 'Ping payments-db.' }] },
        { type: 'function_call', id: 'c1', name: 'ping', arguments: {} },
        { type: 'user_input', content: [{ type: 'text', text: 'Never mind.' }] },
      ],
    });
    const repaired = repairTranscript(t).transcript;
    const back = read(JSON.parse(writeTranscript(repaired)));
    expect(back.messages.map((m) => [m.role, m.blocks.map((b) => b.type)])).toEqual(
      repaired.messages.map((m) => [m.role, m.blocks.map((b) => b.type)]),
    );
    expect(analyze(back).validation.valid).toBe(true);
  });

  it('repair writes the lost call an error result as a function_result step, and the body is valid', () => {
    const t = sample('broken-gemini-interactions-lost-result.json');
    const r = repairTranscript(t);
    const text = writeTranscript(r.transcript);
    const body = JSON.parse(text) as { model: string; input: { type: string; call_id?: string }[] };
    expect(body.model).toBe('gemini-3-flash');
    expect(body.input.map((s) => `${s.type}${s.call_id ? ` ${s.call_id}` : ''}`)).toEqual([
      'user_input',
      'thought',
      'function_call',
      'function_call',
      'function_result call_logs1',
      'function_result call_deps1',
      'user_input',
    ]);
    expect(body.input[5]).toMatchObject({ is_error: true });
    const again = parseTranscript(text);
    expect(again.ok && analyze(again.value.transcript).validation.valid).toBe(true);
  });

  it('an untouched Interaction writes back step for step', () => {
    const text = readFileSync(path.join(SAMPLES, 'gemini-interactions-oncall.json'), 'utf8');
    expect(JSON.parse(writeTranscript(read(text)))).toEqual(JSON.parse(text));
  });
});
