import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../analyze.ts';
import { pairCounts } from '../../pairing.ts';
import { countTokens } from '../../tokens.ts';
import { usageGap, usageGaps } from '../../usage.ts';
import { writeTranscript } from '../../write.ts';
import { redactTranscript } from '../../redact.ts';
import { inParentOrder } from './claudeCodeOrder.ts';
import { parsedText } from '../../testing/index.ts';
import { parseTranscript } from '../index.ts';

const samples = path.resolve(import.meta.dirname, '../../../../public/samples');
const sample = (f: string) => readFileSync(path.join(samples, f), 'utf8');
const jsonl = (lines: unknown[]) => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';

const env = {
  isSidechain: false,
  userType: 'external',
  cwd: '/w',
  sessionId: 's1',
  version: '2.1.0',
};
const userLine = (
  uuid: string,
  parentUuid: string | null,
  content: unknown,
  extra: object = {},
) => ({ type: 'user', uuid, parentUuid, ...env, message: { role: 'user', content }, ...extra });
const asstLine = (
  uuid: string,
  parentUuid: string | null,
  id: string,
  block: unknown,
  output = 10,
  extra: object = {},
) => ({
  type: 'assistant',
  uuid,
  parentUuid,
  ...env,
  requestId: `req_${id}`,
  message: {
    id,
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-5',
    content: [block],
    usage: {
      input_tokens: 5,
      cache_creation_input_tokens: 100,
      cache_read_input_tokens: 1000,
      output_tokens: output,
    },
  },
  ...extra,
});

describe('claude-code-jsonl: the valid sample', () => {
  const p = parsedText(sample('claude-code-session.jsonl'));
  const t = p.transcript;

  it('is detected without a hint and merges reply lines by message.id', () => {
    expect(t.format).toBe('claude-code-jsonl');
    expect(p.candidates[0]?.format).toBe('claude-code-jsonl');
    // 13 message lines in the file → 6 assistant replies + 7 user lines.
    expect(t.messages.map((m) => m.role).join(' ')).toBe(
      'user assistant user user assistant user assistant user assistant user assistant user assistant',
    );
    const first = t.messages[1];
    expect(first?.blocks.map((b) => b.type)).toEqual(['thinking', 'text', 'tool_use', 'tool_use']);
    // Its four lines are named as lines (1-based); its row number is its message number (from 0);
    // `rawLine` is its first record's position among the parsed lines (for the writer).
    expect(first?.path).toBe('lines 3–6');
    expect(first?.rawIndex).toBe(1);
    expect(first?.rawLine).toBe(2);
    expect(t.messages.map((m) => m.rawIndex)).toEqual(t.messages.map((_, i) => i));
    expect(Array.isArray(first?.raw) && first.raw.length).toBe(4);
  });

  it('pairs 5 calls (2 parallel, one error result) and groups 2 exchanges', () => {
    const a = analyze(t);
    expect(pairCounts(a.pairs)).toMatchObject({ answered: 5, unanswered: 0, orphan: 0 });
    expect(a.grouping.exchanges).toHaveLength(2);
    const errorResults = t.messages
      .flatMap((m) => m.blocks)
      .filter((b) => b.type === 'tool_result' && b.isError);
    expect(errorResults).toHaveLength(1);
    expect(a.validation.valid).toBe(true);
  });

  it('counts usage once per reply (the largest output_tokens) and ignores toolUseResult copies', () => {
    expect(t.usage).toHaveLength(6);
    expect(t.usage[0]).toEqual({
      messageIndex: 1,
      inputTokens: 8,
      cacheWriteTokens: 2400,
      cacheReadTokens: 15800,
      outputTokens: 141,
    });
    expect(t.messages[1]?.meta?.usageOutputTokens).toBe(141);
    const resultText = t.messages[2]?.blocks[0];
    expect(resultText?.type === 'tool_result' && resultText.content).toEqual([
      { type: 'text', text: '<tool_use_error>File does not exist.</tool_use_error>' },
    ]);
  });

  it('warns that the system prompt and tools are absent and shows the summary line', () => {
    expect(t.warnings[0]).toMatch(/neither the system prompt nor the tool definitions/);
    expect(
      t.warnings.some((w) =>
        w.includes('session summary "Invoice export: disk full on /mnt/exports"'),
      ),
    ).toBe(true);
    expect(t.system).toEqual([]);
    expect(t.tools).toBeNull();
  });

  it('usageGap: reported input minus the messages before the last reply', () => {
    const table = countTokens(t, 'anthropic');
    const gap = usageGap(t, table);
    const last = t.usage[t.usage.length - 1];
    const i = last?.messageIndex as number;
    expect(gap).toBe(6 + 190 + 19530 - (table.prefix[i] as number));
    expect(gap).toBeGreaterThan(0);
    expect(usageGaps(t, table)).toHaveLength(6);
  });

  it('writes back line for line when nothing changed', () => {
    expect(writeTranscript(t)).toBe(sample('claude-code-session.jsonl'));
  });

  it('writes without a removed reply and re-parses to the same messages minus it', () => {
    const kept = t.messages.filter((_, i) => i !== 11 && i !== 12);
    const again = parsedText(writeTranscript({ ...t, messages: kept }), {
      name: 'x.jsonl',
    }).transcript;
    expect(again.messages.map((m) => m.blocks)).toEqual(kept.map((m) => m.blocks));
  });

  it('renders a new message as a line chained to the one before it', () => {
    const added = {
      index: t.messages.length,
      rawIndex: -1,
      path: 'new',
      role: 'user' as const,
      blocks: [{ type: 'text' as const, text: 'and now?' }],
      raw: undefined,
      stringContent: true,
    };
    const text = writeTranscript({ ...t, messages: [...t.messages, added] });
    const again = parsedText(text, { name: 'x.jsonl' }).transcript;
    expect(again.messages.at(-1)?.blocks).toEqual([{ type: 'text', text: 'and now?' }]);
    expect(again.messages).toHaveLength(t.messages.length + 1);
  });
});

describe('claude-code-jsonl: the broken sample', () => {
  it('gets Anthropic A2 for the parallel calls left without results', () => {
    const t = parsedText(sample('broken-claude-code-escape.jsonl')).transcript;
    const v = analyze(t).validation;
    expect(v.valid).toBe(false);
    expect(v.violations[0]?.error).toEqual({
      type: 'error',
      error: {
        type: 'invalid_request_error',
        message:
          'messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_01EscTests, toolu_01EscLint. Each `tool_use` block must have a corresponding `tool_result` block in the next message.',
      },
    });
  });
});

describe('claude-code-jsonl: line handling', () => {
  it('case 08 (anthropics/claude-code#1956) as a log: A2 at messages.3 with the three ids', () => {
    const lines = [
      userLine('u1', null, 'What test runner does this project use?'),
      asstLine('a1', 'u1', 'msg_1', { type: 'text', text: 'It uses pytest.' }),
      userLine('u2', 'a1', 'Run the tests, the linter and the type checker, then fix what fails.'),
      asstLine('a2', 'u2', 'msg_2', {
        type: 'text',
        text: 'Running all three checks in parallel.',
      }),
      asstLine('a3', 'a2', 'msg_2', {
        type: 'tool_use',
        id: 'toolu_01ESA',
        name: 'bash',
        input: { command: 'pytest -q' },
      }),
      asstLine('a4', 'a3', 'msg_2', {
        type: 'tool_use',
        id: 'toolu_01ESB',
        name: 'bash',
        input: { command: 'ruff check .' },
      }),
      asstLine('a5', 'a4', 'msg_2', {
        type: 'tool_use',
        id: 'toolu_01ESC',
        name: 'bash',
        input: { command: 'mypy src' },
      }),
      userLine('u3', 'a5', 'Stop — only run the unit tests, the others take too long.'),
    ];
    const t = parsedText(jsonl(lines)).transcript;
    expect(t.messages).toHaveLength(5);
    const v = analyze(t).validation.violations[0];
    expect(v?.rule).toBe('unanswered_tool_use');
    expect(v?.ids).toEqual(['toolu_01ESA', 'toolu_01ESB', 'toolu_01ESC']);
    expect(v?.providerPath).toBe('messages.3');
    expect(v?.messageIndex).toBe(3);
  });

  it('puts a line after its parent even when written first, and keeps results interleaved with one reply after it', () => {
    const lines = [
      userLine('u1', null, 'go'),
      asstLine('a1', 'u1', 'msg_1', { type: 'tool_use', id: 't1', name: 'x', input: {} }),
      // The result of t2 was written before the line carrying t2.
      userLine('r1', 'a1', [{ type: 'tool_result', tool_use_id: 't1', content: 'one' }]),
      userLine('r2', 'a2', [{ type: 'tool_result', tool_use_id: 't2', content: 'two' }]),
      asstLine('a2', 'r1', 'msg_1', { type: 'tool_use', id: 't2', name: 'x', input: {} }),
    ];
    const t = parsedText(jsonl(lines)).transcript;
    expect(t.messages.map((m) => `${m.role}:${m.blocks.length}`)).toEqual([
      'user:1',
      'assistant:2',
      'user:1',
      'user:1',
    ]);
    // The reply's two lines are both named (the result written between them is not).
    expect(t.messages.map((m) => m.path)).toEqual(['line 1', 'lines 2, 5', 'line 3', 'line 4']);
    const a = analyze(t);
    expect(pairCounts(a.pairs).answered).toBe(2);
    expect(a.validation.valid).toBe(true);
  });

  it('marks sidechain lines and lists their thread after the main thread', () => {
    const lines = [
      userLine('u1', null, 'main question'),
      userLine('s1', null, 'sub-agent task', { isSidechain: true }),
      asstLine('s2', 's1', 'msg_s', { type: 'text', text: 'sub-agent answer' }, 5, {
        isSidechain: true,
      }),
      asstLine('a1', 'u1', 'msg_m', { type: 'text', text: 'main answer' }),
    ];
    const t = parsedText(jsonl(lines)).transcript;
    expect(t.messages.map((m) => [m.path, m.meta?.sidechain === true])).toEqual([
      ['line 1', false],
      ['line 4', false],
      ['line 2', true],
      ['line 3', true],
    ]);
    expect(t.warnings.some((w) => w.includes('2 sidechain message(s)'))).toBe(true);
  });

  it("the structure-only copy keeps a compact boundary's trigger (auto / manual: vocabulary, not content)", () => {
    const line = {
      type: 'system',
      subtype: 'compact_boundary',
      uuid: 'c1',
      parentUuid: null,
      ...env,
      content: 'Conversation compacted',
      compactMetadata: { trigger: 'auto', preTokens: 155025 },
    };
    const t = parsedText(jsonl([userLine('u1', null, 'old question'), line])).transcript;
    const copy = parsedText(writeTranscript(redactTranscript(t))).transcript;
    expect(copy.warnings.some((w) => w.includes('(auto trigger'))).toBe(true);
    expect(copy.warnings.some((w) => w.includes('xxxx trigger'))).toBe(false);
  });

  it('compaction: a boundary warning and the summary message marked compactSummary', () => {
    const lines = [
      userLine('u1', null, 'old question'),
      {
        type: 'system',
        subtype: 'compact_boundary',
        uuid: 'c1',
        parentUuid: null,
        logicalParentUuid: 'u1',
        ...env,
        content: 'Conversation compacted',
        compactMetadata: { trigger: 'auto', preTokens: 155025 },
      },
      userLine(
        'cs',
        'c1',
        'This session is being continued from a previous conversation. Summary: …',
        { isCompactSummary: true, isVisibleInTranscriptOnly: true },
      ),
    ];
    const t = parsedText(jsonl(lines)).transcript;
    expect(t.messages[1]?.meta?.compactSummary).toBe(true);
    expect(
      t.warnings.some((w) =>
        w.startsWith('Line 2: the conversation was compacted (auto trigger, 155025 tokens before)'),
      ),
    ).toBe(true);
  });

  it('lists broken lines and parses the rest', () => {
    const text =
      jsonl([userLine('u1', null, 'hi')]) +
      '{"type":"assistant", broken\n' +
      jsonl([asstLine('a1', 'u1', 'm1', { type: 'text', text: 'hello' })]);
    const p = parsedText(text, { name: 'session.jsonl' });
    expect(p.transcript.messages).toHaveLength(2);
    expect(
      p.transcript.warnings.some((w) => w.includes('not valid JSON and were skipped: 2')),
    ).toBe(true);
    // A broken line before others that parse: not a cut file.
    expect(p.transcript.warnings.some((w) => w.includes('cut off'))).toBe(false);
  });

  it('a last line that does not parse (a log cut mid-line) says the file looks cut off', () => {
    const whole = jsonl([
      userLine('u1', null, 'hi'),
      asstLine('a1', 'u1', 'm1', { type: 'text', text: 'hello' }),
    ]);
    // Cut in the middle of the last record, no newline after it (a copy stopped short).
    const text = whole.slice(0, whole.lastIndexOf('"text"'));
    const p = parsedText(text, { name: 'session.jsonl' });
    expect(p.transcript.messages).toHaveLength(1);
    expect(p.transcript.warnings).toContain(
      "1 line(s) are not valid JSON and were skipped: 2. Line 2 is the file's last and does not parse: the file looks cut off (a log still being written, or a truncated copy), so its end is missing and calls answered after the cut show as unanswered.",
    );
  });

  it('junk lines never throw', () => {
    const text = jsonl([
      userLine('u1', 'u1', 42),
      { type: 'assistant', uuid: 'z', sessionId: 's', message: { content: 'x' } },
      [1, 2],
      null,
      asstLine('a', 'missing', 'm', null),
    ]);
    const p = parseTranscript(text, { format: 'claude-code-jsonl' });
    expect(p.ok).toBe(true);
  });
});

describe('claude-code-jsonl: parent cycles', () => {
  it('lines whose parents form a cycle are kept, in file order', () => {
    const lines = [
      userLine('u1', 'a1', 'one'),
      asstLine('a1', 'u1', 'm1', { type: 'text', text: 'two' }),
    ];
    const t = parsedText(jsonl(lines)).transcript;
    expect(t.messages.map((m) => m.path)).toEqual(['line 1', 'line 2']);
  });
});

describe('claude-code-jsonl: parent order', () => {
  /** The slow definition: a map of every uuid's first line, then every parent checked. */
  function referenceInOrder(values: { uuid?: string; parentUuid?: string | null }[]): boolean {
    const first = new Map<string, number>();
    values.forEach((v, i) => {
      if (typeof v.uuid === 'string' && !first.has(v.uuid)) first.set(v.uuid, i);
    });
    return values.every((v, i) =>
      typeof v.parentUuid === 'string' ? (first.get(v.parentUuid) ?? -1) < i : true,
    );
  }
  const arbLines = fc.array(
    fc.record({
      uuid: fc.option(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'), { nil: undefined }),
      parentUuid: fc.option(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'missing'), {
        nil: null,
      }),
    }),
    { maxLength: 12 },
  );

  it('the fast check (only parents other than the previous line looked up) agrees with a map of every uuid', () => {
    fc.assert(
      fc.property(arbLines, (values) => {
        expect(inParentOrder(values.map((value) => ({ value })))).toBe(referenceInOrder(values));
      }),
      { numRuns: 2000 },
    );
  }, 30_000); // 2,000 runs: over vitest's 5 s default on a loaded 2-core machine

  it('a chain written in file order is in order; a child written before its parent is not', () => {
    const chain = ['a', 'b', 'c'].map((u, i) => ({ uuid: u, parentUuid: i ? 'abc'[i - 1] : null }));
    const lines = chain.map((value) => ({ value }));
    expect(inParentOrder(lines)).toBe(true);
    expect(inParentOrder([lines[1], lines[0], lines[2]] as typeof lines)).toBe(false);
  });
});
