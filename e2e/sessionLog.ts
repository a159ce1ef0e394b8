/**
 * A Claude Code session log with an automatic compaction in the middle of a tool exchange, built
 * the way Claude Code writes its JSONL (user/assistant lines chained by `parentUuid`, a
 * `system`/`compact_boundary` line with `compactMetadata`, then the summary as a user line with
 * `isCompactSummary`). Content invented. The boundary falls between a `tool_use` and its
 * `tool_result`, so the call after the compaction sends the result without its call: Anthropic's
 * 400 (A1). Used by the strip and diff e2e specs.
 */
export function compactedSessionLog(): string {
  const lines: string[] = [];
  let parent: string | null = null;
  let n = 0;
  const base = {
    isSidechain: false,
    userType: 'external',
    cwd: '/srv/dashboards',
    sessionId: '3f0c2d1e-8a7b-4c6d-9e5f-1a2b3c4d5e6f',
    version: '2.1.140',
    gitBranch: 'main',
  };
  const push = (v: Record<string, unknown>) => {
    n += 1;
    const uuid = `line-${String(n).padStart(3, '0')}`;
    lines.push(
      JSON.stringify({
        ...base,
        parentUuid: parent,
        uuid,
        timestamp: `2026-11-21T10:${String(n).padStart(2, '0')}:00.000Z`,
        ...v,
      }),
    );
    parent = uuid;
  };
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
  return `${lines.join('\n')}\n`;
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
