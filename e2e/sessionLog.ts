import { chainedLines, pad } from '../src/model/testing/chainedLines.ts';

/**
 * A Claude Code session log with an automatic compaction in the middle of a tool exchange, built
 * the way Claude Code writes its JSONL (user/assistant lines chained by `parentUuid`, a
 * `system`/`compact_boundary` line with `compactMetadata`, then the summary as a user line with
 * `isCompactSummary`). Content invented. The boundary falls between a `tool_use` and its
 * `tool_result`, so the call after the compaction sends the result without its call: Anthropic's
 * 400 (A1). Used by the strip and diff e2e specs.
 */
export function compactedSessionLog(): string {
  const log = chainedLines({
    base: {
      isSidechain: false,
      userType: 'external',
      cwd: '/srv/dashboards',
      sessionId: '3f0c2d1e-8a7b-4c6d-9e5f-1a2b3c4d5e6f',
      version: '2.1.140',
      gitBranch: 'main',
    },
    uuid: (n) => `line-${pad(n, 3)}`,
    timestamp: (n) => `2026-11-21T10:${pad(n, 2)}:00.000Z`,
  });
  const push = (v: Record<string, unknown>) => void log.chain(v);
  let input = 14_000;
  const assistant = (id: string, content: unknown[]) => {
    input += 2_600;
    push({
      type: 'assistant',
      requestId: `req_${id}`,
      message: {
        id: `msg_${id}`,
        type: 'message',
        role: 'assistant',
        model: 'claude-opus-4-7',
        content,
        stop_reason: content.some((b) => (b as { type: string }).type === 'tool_use')
          ? 'tool_use'
          : 'end_turn',
        usage: { input_tokens: 12, cache_read_input_tokens: input, output_tokens: 180 },
      },
    });
  };
  const user = (content: unknown, extra: Record<string, unknown> = {}) =>
    push({ type: 'user', message: { role: 'user', content }, ...extra });

  conversation(user, assistant, push);
  return log.text();
}

type Line = (v: Record<string, unknown>) => void;

const use = (id: string, name: string, input: Record<string, unknown>) => ({
  type: 'tool_use',
  id,
  name,
  input,
});
const result = (id: string, text: string) => ({
  type: 'tool_result',
  tool_use_id: id,
  content: text,
});

/** The session's lines: four tool exchanges, the compaction inside the fourth, two more calls. */
function conversation(
  user: (content: unknown, extra?: Record<string, unknown>) => void,
  assistant: (id: string, content: unknown[]) => void,
  push: Line,
): void {
  user('The revenue dashboard shows zero for last week. Find out why and fix the query.');
  assistant('01', [
    { type: 'text', text: 'I will look at the dashboard query first.' },
    use('toolu_01Query', 'Read', { file_path: 'dashboards/revenue.sql' }),
  ]);
  user([
    result(
      'toolu_01Query',
      "SELECT sum(amount) FROM payments WHERE ts >= now() - 7d AND status = 'settled'",
    ),
  ]);
  assistant('02', [
    { type: 'text', text: 'The query filters on status = settled. Checking which statuses exist.' },
    use('toolu_02Status', 'Bash', {
      command: 'psql -c "select status, count(*) from payments group by 1"',
    }),
  ]);
  user([
    result(
      'toolu_02Status',
      'status    | count\n----------+------\nSETTLED   | 10412\npending   |   231',
    ),
  ]);
  assistant('03', [
    {
      type: 'text',
      text: 'The statuses were renamed to upper case last Monday. Looking for the migration.',
    },
    use('toolu_03Grep', 'Grep', { pattern: 'SETTLED', path: 'migrations/' }),
  ]);
  user([
    result(
      'toolu_03Grep',
      'migrations/0042_status_upper.sql:3: UPDATE payments SET status = upper(status);',
    ),
  ]);
  assistant('04', [
    { type: 'text', text: 'Found it. Fixing the dashboard query to compare case-insensitively.' },
    use('toolu_04Edit', 'Edit', {
      file_path: 'dashboards/revenue.sql',
      old_string: "status = 'settled'",
      new_string: "lower(status) = 'settled'",
    }),
  ]);
  // The context filled up: Claude Code compacted before the edit's result came back.
  push({
    type: 'system',
    subtype: 'compact_boundary',
    content: 'Conversation compacted',
    level: 'info',
    compactMetadata: { trigger: 'auto', preTokens: 167_766, postTokens: 6_977 },
  });
  user(
    'This session is being continued from a previous conversation that ran out of context. Summary: the revenue dashboard showed zero because migration 0042 upper-cased payment statuses; the query compared status to lower-case settled; an edit to compare case-insensitively was started.',
    { isCompactSummary: true, isVisibleInTranscriptOnly: true },
  );
  user([result('toolu_04Edit', 'The file dashboards/revenue.sql has been updated.')]);
  assistant('05', [
    { type: 'text', text: 'Running the query again to check the totals.' },
    use('toolu_05Run', 'Bash', { command: 'psql -f dashboards/revenue.sql' }),
  ]);
  user([result('toolu_05Run', ' sum\n--------\n 812340.55')]);
  assistant('06', [{ type: 'text', text: 'The dashboard shows 812,340.55 for last week again.' }]);
}

/**
 * A Claude Code log with the shape of a real one around an automatic compaction (the corpus's
 * posthog-dashboard-compaction.jsonl, of which nothing is copied; content invented): lines that
 * are not messages (`permission-mode`, `file-history-snapshot`, `attachment`, `last-prompt`,
 * `system` `turn_duration`), each reply written as one line per content block sharing the
 * message id (thinking, text, tool_use), tool results with `toolUseResult` and
 * `sourceToolAssistantUUID`; then the `compact_boundary` line with no parent but a
 * `logicalParentUuid`, `isMeta` and the compaction's metadata, the summary user line, an
 * attachment, and the calls after it. The compaction falls between two turns, so the call after
 * it is valid: the diff says the summary replaced the earlier messages.
 */
export function realShapedCompactionLog(): string {
  const w = realShapedWriter();
  const before = beforeCompaction(w);
  afterCompaction(w, before);
  return `${w.lines.join('\n')}\n`;
}

/** Writes lines as Claude Code does: chained messages, side lines, replies one line per block. */
function realShapedWriter() {
  const { lines, chain, side, count } = chainedLines({
    base: {
      isSidechain: false,
      userType: 'external',
      entrypoint: 'cli',
      cwd: '/home/user/ledger',
      sessionId: '9a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d',
      version: '2.1.120',
      gitBranch: 'main',
    },
    uuid: (n) => `u-${pad(n, 4)}`,
    timestamp: (n) => `2026-11-22T09:${pad(Math.floor(n / 60), 2)}:${pad(n % 60, 2)}.000Z`,
  });
  let context = 21_000;
  /** One reply: one line per block, all with the reply's message id. */
  const reply = (id: string, blocks: Record<string, unknown>[]) => {
    context += 1_900;
    let last = '';
    for (const b of blocks)
      last = chain({
        type: 'assistant',
        requestId: `req_${id}`,
        message: {
          model: 'claude-opus-4-7',
          id: `msg_${id}`,
          type: 'message',
          role: 'assistant',
          content: [b],
          stop_reason: b.type === 'tool_use' ? 'tool_use' : null,
          usage: { input_tokens: 6, cache_read_input_tokens: context, output_tokens: 240 },
        },
      });
    return last;
  };
  const prompt = (text: string) => {
    side({
      type: 'file-history-snapshot',
      messageId: `snap-${count()}`,
      snapshot: {},
      isSnapshotUpdate: false,
    });
    chain({
      type: 'user',
      promptId: `p-${count()}`,
      permissionMode: 'default',
      message: { role: 'user', content: text },
    });
  };
  const result = (from: string, id: string, text: string) =>
    chain({
      type: 'user',
      sourceToolAssistantUUID: from,
      toolUseResult: { stdout: text, stderr: '', interrupted: false },
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: text }] },
    });
  return { lines, side, chain, reply, prompt, result };
}

type Writer = ReturnType<typeof realShapedWriter>;

const thinking = { type: 'thinking', thinking: '', signature: 'sig-invented-0001' };
const text = (t: string) => ({ type: 'text', text: t });

/** Two turns with four tool pairs; returns the last reply's line (the boundary's logical parent). */
function beforeCompaction(w: Writer): string {
  const { side, chain, reply, prompt, result } = w;
  side({ type: 'permission-mode', permissionMode: 'default' });
  prompt('The monthly ledger export double-counts refunds. Find out why.');
  chain({
    type: 'attachment',
    attachment: { type: 'deferred_tools_delta', addedNames: ['WebFetch'] },
  });
  let from = reply('A1', [
    thinking,
    use('toolu_A1read', 'Read', { file_path: 'export/ledger.py' }),
  ]);
  result(
    from,
    'toolu_A1read',
    'def rows(): return payments + refunds + [r for r in refunds if r.partial]',
  );
  from = reply('A2', [
    text('Partial refunds are added twice. Checking the tests.'),
    use('toolu_A2grep', 'Grep', { pattern: 'partial', path: 'tests/' }),
  ]);
  result(from, 'toolu_A2grep', 'tests/test_ledger.py:12: def test_partial_refund():');
  reply('A3', [
    thinking,
    text('Partial refunds are listed in refunds and again in the comprehension. Shall I fix it?'),
  ]);
  chain({
    type: 'system',
    subtype: 'turn_duration',
    durationMs: 41_000,
    messageCount: 8,
    isMeta: false,
  });
  side({
    type: 'last-prompt',
    lastPrompt: 'The monthly ledger export double-counts refunds. Find out why.',
  });
  prompt('Yes, fix it and run the tests.');
  from = reply('A4', [
    use('toolu_A4edit', 'Edit', {
      file_path: 'export/ledger.py',
      old_string: ' + [r for r in refunds if r.partial]',
      new_string: '',
    }),
  ]);
  result(from, 'toolu_A4edit', 'The file export/ledger.py has been updated.');
  from = reply('A5', [use('toolu_A5test', 'Bash', { command: 'pytest tests/test_ledger.py' })]);
  result(from, 'toolu_A5test', '3 passed in 0.41s');
  const before = reply('A6', [text('Fixed: partial refunds are counted once and the tests pass.')]);
  return before;
}

/** The compaction between two turns, its summary, and one more turn. */
function afterCompaction(w: Writer, before: string): void {
  const { side, chain, reply, prompt, result } = w;
  side({ type: 'permission-mode', permissionMode: 'default' });
  // The context filled up: Claude Code compacted between two turns.
  chain(
    {
      type: 'system',
      subtype: 'compact_boundary',
      content: 'Conversation compacted',
      isMeta: false,
      level: 'info',
      logicalParentUuid: before,
      compactMetadata: {
        trigger: 'auto',
        preTokens: 181_402,
        postTokens: 5_310,
        durationMs: 48_200,
      },
    },
    null,
  );
  chain({
    type: 'user',
    isCompactSummary: true,
    isVisibleInTranscriptOnly: true,
    message: {
      role: 'user',
      content:
        'This session is being continued from a previous conversation that ran out of context. Summary: the ledger export added partial refunds twice; the comprehension in export/ledger.py was removed and the ledger tests pass.',
    },
  });
  chain({ type: 'attachment', attachment: { type: 'todo', content: [] } });
  prompt('Now add a test for a month with only partial refunds.');
  const from = reply('A7', [
    thinking,
    use('toolu_A7write', 'Edit', {
      file_path: 'tests/test_ledger.py',
      old_string: '',
      new_string: 'def test_only_partial(): ...',
    }),
  ]);
  result(from, 'toolu_A7write', 'The file tests/test_ledger.py has been updated.');
  reply('A8', [text('Added test_only_partial.')]);
}

/**
 * A long Claude Code session log: `calls` model calls, each a tool exchange (a Read and its
 * result), with an automatic compaction inside the exchange before call `broken` (1-based), so
 * that call is the first to send a tool_result without its call (A1). Content invented. Used to
 * check that the strip scrolls a chosen call's mark into view (e2e/stripScroll.spec.ts).
 */
export function longSessionLog(calls: number, broken: number): string {
  const log = chainedLines({
    base: {
      isSidechain: false,
      userType: 'external',
      cwd: '/srv/reports',
      sessionId: '5d4c3b2a-1f0e-4d9c-8b7a-6e5f4d3c2b1a',
      version: '2.1.140',
      gitBranch: 'main',
    },
    uuid: (n) => `long-${pad(n, 4)}`,
    timestamp: (n) => `2026-11-23T${pad(8 + Math.floor(n / 60), 2)}:${pad(n % 60, 2)}:00.000Z`,
  });
  const push = (v: Record<string, unknown>) => void log.chain(v);
  push({
    type: 'user',
    message: { role: 'user', content: 'Summarise every report in reports/ into one table.' },
  });
  for (let c = 1; c <= calls; c += 1) {
    const id = `toolu_${String(c).padStart(3, '0')}Read`;
    push({
      type: 'assistant',
      requestId: `req_long_${c}`,
      message: {
        id: `msg_long_${c}`,
        type: 'message',
        role: 'assistant',
        model: 'claude-opus-4-7',
        content: [
          { type: 'text', text: `Reading report ${c}.` },
          use(id, 'Read', { file_path: `reports/r${c}.md` }),
        ],
        stop_reason: 'tool_use',
        usage: { input_tokens: 12, cache_read_input_tokens: 9_000 + c * 400, output_tokens: 60 },
      },
    });
    if (c + 1 === broken)
      push({
        type: 'system',
        subtype: 'compact_boundary',
        content: 'Conversation compacted',
        level: 'info',
        compactMetadata: { trigger: 'auto', preTokens: 160_000, postTokens: 5_000 },
      });
    push({
      type: 'user',
      message: { role: 'user', content: [result(id, `Report ${c}: 12 rows, total 4${c}0.00`)] },
    });
  }
  return log.text();
}
