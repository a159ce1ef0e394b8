/**
 * The trims reported in ../shared/cases, reproduced by the matching policy: our own fixtures
 * (shape and verdict of cases 01, 03 and 06, content rewritten), plus a check of the shared
 * cases themselves that skips when ../shared is absent.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTranscript } from '../parse/index.ts';
import { countTokens, type TokenTable } from '../tokens.ts';
import type { FormatId, ProviderId, Transcript } from '../types.ts';
import { validatorFor } from '../validate/index.ts';
import { prepareEviction, simulatePolicy } from './policies.ts';

function parse(body: unknown, format: FormatId): Transcript {
  const r = parseTranscript(JSON.stringify(body), { format });
  if (!r.ok) throw new Error(r.error.message);
  return r.value.transcript;
}

/** One token per message: the `token_counter=len` budgets the reports used. */
function perMessageTable(t: Transcript): TokenTable {
  const n = t.messages.length;
  const prefix = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) prefix[i + 1] = i + 1;
  return {
    perMessage: new Uint32Array(n).fill(1),
    prefix,
    system: 0,
    total: n,
    basis: { encoding: 'len', exact: true, label: '1 per message' },
  };
}

/** Index of a violation's message in the trimmed request (kept messages, as sent). */
function trimmedIndex(t: Transcript, kept: number[], rawIndex: number): number {
  return kept.findIndex((i) => t.messages[i]?.rawIndex === rawIndex);
}

describe('trims from public reports, reproduced by the `message` policy', () => {
  it('case 01 shape (LangChain trim_messages "last", 1 token per message): the kept window starts with a bare tool message', () => {
    const t = parse(
      {
        messages: [
          { role: 'user', content: 'What does ACME trade at?' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_px01',
                type: 'function',
                function: { name: 'get_quote', arguments: '{"ticker":"ACME"}' },
              },
            ],
          },
          { role: 'tool', tool_call_id: 'call_px01', content: '{"price": 41.2}' },
          { role: 'assistant', content: 'ACME trades at 41.2.' },
          { role: 'user', content: 'And a week ago?' },
          { role: 'assistant', content: 'About 39.' },
          { role: 'user', content: 'Plot both.' },
        ],
      },
      'openai-chat',
    );
    const table = perMessageTable(t);
    const ctx = prepareEviction(t, table, 'openai-chat');
    const r = simulatePolicy(ctx, 'message', 5);
    expect(r.kept).toEqual([2, 3, 4, 5, 6]);
    expect(r.firstError?.rule).toBe('orphan_tool_result');
    expect(r.firstError?.ids).toEqual(['call_px01']);
    expect(trimmedIndex(t, r.kept, r.firstError?.messageIndex ?? -1)).toBe(0);
    expect(r.firstError?.error).toEqual({
      error: {
        message:
          "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
        type: 'invalid_request_error',
        param: 'messages.[0].role',
        code: null,
      },
    });
    // The group-level trim keeps [user, assistant, user] and stays valid.
    const x = simulatePolicy(ctx, 'exchange', 5);
    expect(x.kept).toEqual([4, 5, 6]);
    expect(x.validation.valid).toBe(true);
  });

  it('case 03 shape (AutoGen history limiter, system kept): the orphan sits at messages.[1]', () => {
    const t = parse(
      {
        messages: [
          { role: 'system', content: 'You do arithmetic with a calculator tool.' },
          { role: 'user', content: 'What is 6 times 7?' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_mul1',
                type: 'function',
                function: { name: 'calc', arguments: '{"a":6,"b":7,"op":"*"}' },
              },
            ],
          },
          { role: 'tool', tool_call_id: 'call_mul1', content: '42' },
          { role: 'assistant', content: '6 times 7 is 42.' },
          { role: 'user', content: 'Halve it.' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_div1',
                type: 'function',
                function: { name: 'calc', arguments: '{"a":42,"b":2,"op":"/"}' },
              },
            ],
          },
          { role: 'tool', tool_call_id: 'call_div1', content: '21' },
        ],
      },
      'openai-chat',
    );
    const ctx = prepareEviction(t, perMessageTable(t), 'openai-chat');
    const r = simulatePolicy(ctx, 'message', 6); // the system message + the newest 5
    expect(r.kept).toEqual([0, 3, 4, 5, 6, 7]);
    expect(r.firstError?.rule).toBe('orphan_tool_result');
    expect(r.firstError?.ids).toEqual(['call_mul1']);
    expect(r.firstError?.providerPath).toBe('messages.[1].role');
    expect(trimmedIndex(t, r.kept, r.firstError?.messageIndex ?? -1)).toBe(1);
    expect(simulatePolicy(ctx, 'exchange', 6).validation.valid).toBe(true);
  });

  it('case 06 shape (CopilotKit oldest-first token trim, Anthropic): dropping the big first turn and the call orphans the result', async () => {
    const t = parse(
      {
        system: 'You help with a ticketing app.',
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Context dump: ' + 'incident line. '.repeat(300) },
              { type: 'text', text: 'List the open tickets.' },
            ],
          },
          {
            role: 'assistant',
            content: [
              {
                type: 'tool_use',
                id: 'toolu_01TKT',
                name: 'list_tickets',
                input: { status: 'open' },
              },
            ],
          },
          {
            role: 'user',
            content: [
              {
                type: 'tool_result',
                tool_use_id: 'toolu_01TKT',
                content: '[{"id": 7, "title": "Slow login"}, {"id": 9, "title": "CSV export"}]',
              },
            ],
          },
          {
            role: 'assistant',
            content: [{ type: 'text', text: 'Two tickets are open: #7 and #9.' }],
          },
          { role: 'user', content: [{ type: 'text', text: 'Which is older?' }] },
        ],
      },
      'anthropic-messages',
    );
    const table = countTokens(t, 'anthropic');
    const ctx = prepareEviction(t, table, 'anthropic');
    // A budget that dropping the first message alone does not meet, but dropping two does.
    const budget = table.total - (table.perMessage[0] as number) - 1;
    const r = simulatePolicy(ctx, 'message', budget);
    expect(r.evicted).toEqual([0, 1]);
    expect(r.firstError?.message).toBe(
      'messages.0.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_01TKT. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
    );
    expect(r.firstError?.providerPath).toBe('messages.0.content.0');
    const x = simulatePolicy(ctx, 'exchange', budget);
    expect(x.kept).toEqual([4]);
    expect(x.validation.valid).toBe(true);
    expect(x.overshoot).toBeGreaterThan(1);
  });
});

const SHARED = path.resolve(import.meta.dirname, '../../../../shared');
const CASES_DIR = path.join(SHARED, 'cases');
const hasShared = existsSync(CASES_DIR);
if (!hasShared) console.warn(`skipping shared trim cases: ${CASES_DIR} not found`);

interface SharedCase {
  format: FormatId;
  provider_api: string;
  transcript: unknown;
  before_trim?: unknown;
  trim?: { policy: string; keep_system?: boolean; keep?: number; drop?: number };
  expected: {
    valid: boolean;
    violations: { kind: string; message_index: number; ids: string[]; api_path?: string }[];
  };
}

const PROVIDER: Record<string, ProviderId> = {
  'openai-chat': 'openai-chat',
  'anthropic-messages': 'anthropic',
  'openai-responses': 'openai-responses',
  gemini: 'gemini',
  'bedrock-converse': 'bedrock',
};

describe.skipIf(!hasShared)('shared cases with before_trim and a prefix trim', () => {
  const files = hasShared ? readdirSync(CASES_DIR).filter((f) => f.endsWith('.json')) : [];
  const cases = files
    .map((f) => ({ f, c: JSON.parse(readFileSync(path.join(CASES_DIR, f), 'utf8')) as SharedCase }))
    .filter(
      ({ c }) =>
        c.before_trim &&
        c.trim &&
        (c.trim.policy === 'keep_last_messages' || c.trim.policy === 'drop_oldest_messages'),
    )
    .filter(
      ({ c }) =>
        PROVIDER[c.provider_api] !== undefined &&
        validatorFor(PROVIDER[c.provider_api] as ProviderId) !== undefined,
    );

  it('finds the prefix-trim cases (01, 03, 06)', () => {
    expect(cases.map(({ f }) => f.slice(0, 2)).sort()).toEqual(
      expect.arrayContaining(['01', '03', '06']),
    );
  });

  it.each(cases.map(({ f, c }) => [f, c] as const))(
    '%s: the message policy reproduces the trimmed request and its error',
    (_f, c) => {
      const provider = PROVIDER[c.provider_api] as ProviderId;
      const before = parse(c.before_trim, c.format);
      const after = parse(c.transcript, c.format);
      const table = perMessageTable(before);
      const ctx = prepareEviction(before, table, provider);
      const trim = c.trim as NonNullable<SharedCase['trim']>;
      const pinned = before.messages.filter(
        (m) => m.role === 'system' || m.role === 'developer',
      ).length;
      const budget =
        trim.policy === 'keep_last_messages'
          ? (trim.keep ?? 0) + (trim.keep_system ? pinned : 0)
          : table.total - (trim.drop ?? 0);
      const r = simulatePolicy(ctx, 'message', budget);
      expect(r.kept.map((i) => before.messages[i]?.raw)).toEqual(after.messages.map((m) => m.raw));
      const want = c.expected.violations[0];
      expect(r.validation.valid).toBe(c.expected.valid);
      expect(r.firstError?.rule).toBe(want?.kind);
      expect(r.firstError?.ids).toEqual(want?.ids);
      expect(trimmedIndex(before, r.kept, r.firstError?.messageIndex ?? -1)).toBe(
        want?.message_index,
      );
      if (want?.api_path) expect(r.firstError?.providerPath).toBe(want.api_path);
      // The same request validated on its own gives the same first error.
      const direct = prepareEviction(after, perMessageTable(after), provider);
      expect(simulatePolicy(direct, 'message', after.messages.length).firstError?.message).toBe(
        r.firstError?.message,
      );
    },
  );
});
