/**
 * Compaction inputs: the catalogue's compaction rules, one fixture each (./testing.ts says what
 * is checked); bodies with compaction blocks or items, cleared results and `context_management`
 * are valid; the rules fire on their broken variants and stay quiet on the sound ones.
 */
import { describe, expect, it } from 'vitest';
import { validateTranscript } from '../index.ts';
import { COMPACTION_RULES } from './compaction.ts';
import { body, expectFixtures, type Fixture } from '../../testing/catalogue.ts';

const SUMMARY = { type: 'compaction', content: 'Summary: the invoice total is 12.' };
const anthropic = (messages: unknown[], extra: Record<string, unknown> = {}) =>
  body({
    model: 'claude-sonnet-4-6',
    max_tokens: 100,
    context_management: { edits: [{ type: 'compact_20260112' }] },
    messages,
    ...extra,
  });
const COMPACT = { type: 'compaction', id: 'cmp_1', encrypted_content: 'gAAAAB…' };
const responses = (input: unknown[]) =>
  body({
    model: 'gpt-5',
    context_management: [{ type: 'compaction', compact_threshold: 200000 }],
    input,
  });
const ask = { role: 'user', content: 'go on' };

const FIXTURES: Record<string, Fixture> = {
  AC1: {
    provider: 'anthropic',
    t: () =>
      anthropic([
        { role: 'user', content: 'q' },
        { role: 'assistant', content: [{ type: 'text', text: 'before' }, SUMMARY] },
        ask,
      ]),
  },
  AC2: {
    provider: 'anthropic',
    t: () => anthropic([{ role: 'user', content: [SUMMARY, { type: 'text', text: 'go on' }] }]),
  },
  AC3: {
    provider: 'anthropic',
    t: () =>
      anthropic([
        { role: 'user', content: 'q' },
        { role: 'assistant', content: [{ type: 'compaction', content: '' }] },
        ask,
      ]),
  },
  AC4: {
    provider: 'anthropic',
    t: () => anthropic([{ role: 'assistant', content: [{ type: 'text', text: 'Done.' }] }, ask]),
  },
  RC1: {
    provider: 'openai-responses',
    t: () => responses([{ role: 'user', content: 'q' }, COMPACT, ask]),
  },
  RC2: {
    provider: 'openai-responses',
    t: () => responses([{ type: 'compaction', id: 'cmp_1' }, ask]),
  },
};

expectFixtures('compaction inputs', COMPACTION_RULES, FIXTURES);

const codes = (t: ReturnType<typeof body>, provider: 'anthropic' | 'openai-responses') =>
  validateTranscript(t, provider).violations.map((v) => v.code);

describe('bodies with compaction inputs are valid', () => {
  it('Anthropic: a compaction block opening the assistant message, context_management, no warning', () => {
    const t = anthropic([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: [SUMMARY] },
      ask,
    ]);
    expect(validateTranscript(t, 'anthropic').valid).toBe(true);
    expect(codes(t, 'anthropic')).toEqual([]);
  });
  it('Anthropic: the history before the block dropped by the client, the block kept: no warning', () => {
    const t = anthropic([
      { role: 'assistant', content: [SUMMARY, { type: 'text', text: 'ok' }] },
      ask,
    ]);
    expect(codes(t, 'anthropic')).toEqual([]);
  });
  it('Anthropic: cleared tool results (context editing placeholders) with clear_tool_uses are valid', () => {
    const t = body({
      model: 'claude-sonnet-4-6',
      max_tokens: 100,
      tools: [{ name: 'search', input_schema: { type: 'object' } }],
      context_management: {
        edits: [{ type: 'clear_tool_uses_20250919', keep: { type: 'tool_uses', value: 1 } }],
      },
      messages: [
        { role: 'user', content: 'q' },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'toolu_1', name: 'search', input: {} }],
        },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '[cleared]' }],
        },
        { role: 'assistant', content: 'done' },
        ask,
      ],
    });
    expect(validateTranscript(t, 'anthropic').valid).toBe(true);
  });
  it('Anthropic with thinking: an open tool loop whose turn opens with a compaction block then thinking is valid (T1 reads past it); without the thinking it is T1', () => {
    const msgs = (thinking: boolean) => [
      {
        role: 'assistant',
        content: [
          SUMMARY,
          ...(thinking ? [{ type: 'thinking', thinking: 't', signature: 'sig' }] : []),
          { type: 'tool_use', id: 'toolu_1', name: 'search', input: {} },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'x' }] },
    ];
    // The tool is defined: a complete body with tool blocks and no `tools` is A7 first (issue 35).
    const extra = {
      thinking: { type: 'enabled', budget_tokens: 2000 },
      tools: [{ name: 'search', input_schema: { type: 'object' } }],
    };
    expect(validateTranscript(anthropic(msgs(true), extra), 'anthropic').valid).toBe(true);
    const broken = validateTranscript(anthropic(msgs(false), extra), 'anthropic');
    expect(broken.violations[0]?.code).toBe('T1');
    expect(broken.violations[0]?.providerPath).toBe('messages.0.content.1.type');
  });
  it('Responses: a compaction item first, then the conversation, is valid and quiet', () => {
    const t = responses([COMPACT, ask]);
    expect(validateTranscript(t, 'openai-responses').valid).toBe(true);
    expect(codes(t, 'openai-responses')).toEqual([]);
  });
  it('Responses: only the latest compaction item counts (RC1 names it, once)', () => {
    const t = responses([ask, COMPACT, ask, { ...COMPACT, id: 'cmp_2' }, ask]);
    const v = validateTranscript(t, 'openai-responses').violations.filter((x) => x.code === 'RC1');
    expect(v).toHaveLength(1);
    expect(v[0]?.index).toBe(3);
    expect(v[0]?.message).toContain('3 items');
  });
});
