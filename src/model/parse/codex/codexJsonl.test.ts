import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../analyze.ts';
import { pairCounts } from '../../pairing.ts';
import { writeTranscript } from '../../write.ts';
import { parsedText } from '../../testing/index.ts';
import { parseTranscript } from '../index.ts';

const samples = path.resolve(import.meta.dirname, '../../../../public/samples');
const sample = (f: string) => readFileSync(path.join(samples, f), 'utf8');
const jsonl = (lines: unknown[]) => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
const line = (type: string, payload: unknown) => ({
  timestamp: '2026-11-28T14:08:00.000Z',
  type,
  payload,
});
const item = (payload: unknown) => line('response_item', payload);
const tokens = (input: number, cached: number, output: number, reasoning: number) =>
  line('event_msg', {
    type: 'token_count',
    info: {
      total_token_usage: {
        input_tokens: input,
        cached_input_tokens: cached,
        output_tokens: output,
        reasoning_output_tokens: reasoning,
        total_tokens: input + output,
      },
      last_token_usage: null,
    },
    rate_limits: null,
  });

describe('codex-jsonl: the valid sample', () => {
  const p = parsedText(sample('codex-rollout.jsonl'));
  const t = p.transcript;

  it('is detected without a hint; only response_item lines become messages', () => {
    expect(p.candidates[0]?.format).toBe('codex-jsonl');
    expect(t.format).toBe('codex-jsonl');
    // 9 response_item lines; the event_msg user_message / agent_message copies are not messages.
    expect(t.messages).toHaveLength(9);
    expect(t.messages.map((m) => m.role)).toEqual([
      'developer',
      'user',
      'assistant',
      'assistant',
      'assistant',
      'tool',
      'tool',
      'assistant',
      'assistant',
    ]);
    expect(t.settings.model).toBe('gpt-5.1-codex');
    expect(t.system[0]?.text).toMatch(/^You are Codex/);
    expect(t.messages[1]?.path).toBe('line 5');
  });

  it('reasoning: summary as thinking, encrypted content as redacted_thinking (not text)', () => {
    expect(t.messages[2]?.blocks).toEqual([
      { type: 'thinking', thinking: '**Reading both configs**' },
      { type: 'redacted_thinking', bytes: 28 },
    ]);
  });

  it('pairs the two parallel function calls by call_id; one exchange; valid for Responses', () => {
    const a = analyze(t);
    expect(a.provider).toBe('openai-responses');
    expect(pairCounts(a.pairs)).toMatchObject({ answered: 2, unanswered: 0, orphan: 0 });
    expect(a.grouping.exchanges.filter((x) => !x.leading)).toHaveLength(1);
    expect(a.validation.valid).toBe(true);
  });

  it('turns cumulative token counts into per-call deltas and skips repeats and null info', () => {
    expect(t.usage).toEqual([
      {
        messageIndex: 6,
        inputTokens: 10480,
        cacheReadTokens: 9216,
        outputTokens: 236,
        reasoningTokens: 160,
      },
      {
        messageIndex: 8,
        inputTokens: 10910,
        cacheReadTokens: 10624,
        outputTokens: 82,
        reasoningTokens: 10,
      },
    ]);
  });

  it('writes back line for line when nothing changed, and drops a removed item', () => {
    expect(writeTranscript(t)).toBe(sample('codex-rollout.jsonl'));
    const without = writeTranscript({ ...t, messages: t.messages.filter((_, i) => i !== 8) });
    const again = parsedText(without).transcript;
    expect(again.messages).toHaveLength(8);
    expect(without.split('\n').length).toBe(sample('codex-rollout.jsonl').split('\n').length - 1);
  });
});

describe('codex-jsonl: the broken sample', () => {
  it("gets the Responses API's R2 for the interrupted call", () => {
    const t = parsedText(sample('broken-codex-interrupt.jsonl')).transcript;
    const v = analyze(t).validation;
    expect(v.valid).toBe(false);
    expect(v.violations[0]?.message).toBe('No tool output found for function call call_dlqList7.');
    expect(v.violations[0]?.error).toEqual({
      error: {
        message: 'No tool output found for function call call_dlqList7.',
        type: 'invalid_request_error',
        param: 'input',
        code: null,
      },
    });
    expect(t.warnings.some((w) => w.includes('the turn was aborted (interrupted)'))).toBe(true);
  });
});

describe('codex-jsonl: line handling', () => {
  it('case 09 (openai/codex#394) as a rollout: the pending call is unanswered', () => {
    const t = parsedText(
      jsonl([
        line('session_meta', {
          id: 'x',
          cwd: '/w',
          originator: 'codex_cli_rs',
          cli_version: '0.1.0',
        }),
        item({
          type: 'message',
          role: 'user',
          content: [{ type: 'input_text', text: 'List the open pull requests.' }],
        }),
        item({
          type: 'function_call',
          call_id: 'call_sh01',
          name: 'shell',
          arguments: '{"command": ["gh", "pr", "list"]}',
        }),
        item({
          type: 'message',
          role: 'user',
          content: [{ type: 'input_text', text: 'Approval mode changed; please try that again.' }],
        }),
      ]),
    ).transcript;
    const a = analyze(t);
    expect(a.pairs).toHaveLength(1);
    expect(a.pairs[0]).toMatchObject({ id: 'call_sh01', status: 'unanswered' });
    // Message 1 of the rollout as read (the row #1), on line 3 of the file.
    expect(a.validation.violations[0]).toMatchObject({
      rule: 'unanswered_tool_use',
      messageIndex: 1,
      ids: ['call_sh01'],
    });
    expect(t.messages[1]?.path).toBe('line 3');
  });

  it('a rollback removes the last turn from the context', () => {
    const t = parsedText(
      jsonl([
        line('session_meta', { id: 'x' }),
        line('event_msg', { type: 'task_started', turn_id: 't1' }),
        item({
          type: 'message',
          role: 'user',
          content: [{ type: 'input_text', text: 'first try' }],
        }),
        item({ type: 'function_call', call_id: 'c1', name: 'shell', arguments: '{}' }),
        line('event_msg', { type: 'turn_aborted', reason: 'interrupted' }),
        line('event_msg', { type: 'thread_rolled_back', num_turns: 1 }),
        line('event_msg', { type: 'task_started', turn_id: 't2' }),
        item({
          type: 'message',
          role: 'user',
          content: [{ type: 'input_text', text: 'second try' }],
        }),
      ]),
    ).transcript;
    expect(t.messages.map((m) => m.blocks)).toEqual([[{ type: 'text', text: 'second try' }]]);
    expect(t.warnings.some((w) => w.includes('rolled back by 1 turn(s); 2 item(s)'))).toBe(true);
  });

  it('a compacted line becomes a summary message; custom tool calls pair by call_id', () => {
    const t = parsedText(
      jsonl([
        line('session_meta', { id: 'x' }),
        item({
          type: 'custom_tool_call',
          call_id: 'c9',
          name: 'apply_patch',
          input: '*** Begin Patch',
          status: 'completed',
        }),
        item({ type: 'custom_tool_call_output', call_id: 'c9', output: 'Done' }),
        line('compacted', { message: 'Summary: patched the config.' }),
        tokens(100, 0, 10, 0),
      ]),
    ).transcript;
    expect(t.messages[2]?.meta?.compactSummary).toBe(true);
    expect(pairCounts(analyze(t).pairs).answered).toBe(1);
  });

  it('is not detected as a Claude Code log, and junk payloads never throw', () => {
    const p = parseTranscript(
      jsonl([
        line('session_meta', {}),
        item(null),
        item({ type: 'function_call', arguments: 5 }),
        line('event_msg', { type: 'token_count', info: { total_token_usage: 'x' } }),
      ]),
    );
    expect(p.ok && p.value.candidates.map((c) => c.format)).toEqual(['codex-jsonl']);
  });
});
