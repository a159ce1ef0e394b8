/**
 * A small writer of Claude Code session logs for tests: JSON lines chained by `parentUuid` as
 * Claude Code writes them (uuids `u0`, `u1`, …; session `s`, timestamp `t`), with user and
 * assistant lines and a compaction (a `system`/`compact_boundary` line with `compactMetadata`,
 * then the summary as a user line with `isCompactSummary`). Content is the caller's.
 */
export interface ClaudeCodeLogWriter {
  /** A user line; `extra` goes on the line (e.g. `{ isCompactSummary: true }`). */
  user(content: unknown, extra?: Record<string, unknown>): void;
  /** An assistant line of one API message `id` (`claude-opus-4-7`). */
  assistant(id: string, content: unknown[]): void;
  /** A compaction: its boundary line, then `summary` as the compact summary's user line. */
  compaction(trigger: 'manual' | 'auto', summary: string): void;
  /** A line of Claude Code's own, outside the chain (`{ type: 'queue-operation' }`), as given. */
  other(v: Record<string, unknown>): void;
  /** The log so far, one JSON object per line. */
  text(): string;
}

/**
 * A new log writer.
 * @param base fields every line carries after the chain's own (e.g. `{ cwd: '/x' }`)
 */
export function claudeCodeLog(base: Record<string, unknown> = {}): ClaudeCodeLogWriter {
  const lines: string[] = [];
  let parent: string | null = null;
  let n = 0;
  const line = (v: Record<string, unknown>) => {
    const uuid = `u${n++}`;
    lines.push(
      JSON.stringify({ parentUuid: parent, uuid, sessionId: 's', timestamp: 't', ...base, ...v }),
    );
    parent = uuid;
  };
  const user = (content: unknown, extra: Record<string, unknown> = {}) =>
    line({ type: 'user', message: { role: 'user', content }, ...extra });
  return {
    user,
    assistant: (id, content) =>
      line({
        type: 'assistant',
        message: { id, role: 'assistant', model: 'claude-opus-4-7', content },
      }),
    compaction: (trigger, summary) => {
      line({
        type: 'system',
        subtype: 'compact_boundary',
        compactMetadata: { trigger, preTokens: 900, postTokens: 90 },
      });
      user(summary, { isCompactSummary: true });
    },
    other: (v) => lines.push(JSON.stringify(v)),
    text: () => lines.join('\n'),
  };
}

/** A Claude Code log of three calls, the third after a compaction. */
export function compactedThreeCallLog(): string {
  const w = claudeCodeLog();
  const call = { type: 'tool_use', id: 'toolu_1', name: 'read', input: { path: 'src/main.ts' } };
  w.user('Read the main file and tell me what the dashboard query does with empty weeks.');
  w.assistant('msg_1', [call]);
  w.user([
    { type: 'tool_result', tool_use_id: 'toolu_1', content: 'export const q = sum(rows) ?? 0;' },
  ]);
  w.assistant('msg_2', [{ type: 'text', text: 'It sums the rows and falls back to zero.' }]);
  w.user('Next.');
  w.compaction('manual', 'Summary of the conversation so far.');
  w.assistant('msg_3', [{ type: 'text', text: 'Going on.' }]);
  return w.text();
}

/**
 * A Claude Code log of four calls where only the last fails: the third call's `tool_use` gets a
 * result for another id (Anthropic's 400 for the fourth call's request: an orphan result, an
 * unanswered call). The first three pass.
 */
export function lastCallFailsLog(): string {
  const w = claudeCodeLog({ cwd: '/srv/dashboards' });
  const read = (id: string, path: string) => ({
    type: 'tool_use',
    id,
    name: 'read',
    input: { path },
  });
  w.user('Read the main file and tell me what the dashboard query does with empty weeks.');
  w.assistant('msg_1', [read('toolu_1', 'src/main.ts')]);
  w.user([
    { type: 'tool_result', tool_use_id: 'toolu_1', content: 'export const q = sum(rows) ?? 0;' },
  ]);
  w.assistant('msg_2', [{ type: 'text', text: 'It sums the rows and falls back to zero.' }]);
  w.user('Now check the tests for that query.');
  w.assistant('msg_3', [read('toolu_2', 'src/main.test.ts')]);
  w.user([{ type: 'tool_result', tool_use_id: 'toolu_9', content: 'expect(q([])).toBe(0);' }]);
  w.assistant('msg_4', [{ type: 'text', text: 'The test expects zero for an empty week.' }]);
  return w.text();
}

/**
 * A Claude Code log with many lines of Claude Code's own (queue operations) before and after its
 * first messages, as in a long real session, then a compaction: the log is detected (its first
 * messages are within the 50 lines its detector reads), but the context of a call after the
 * compaction, written with the log's other lines, has no message among its first 50 lines. Its
 * first call passes; the third fails (an unanswered `tool_use`: its result came back for another
 * id).
 */
export function queuedCompactedLog(): string {
  const w = claudeCodeLog({ cwd: '/srv/dashboards' });
  const queue = (k: number) =>
    w.other({ type: 'queue-operation', operation: 'enqueue', sessionId: 's', timestamp: `q${k}` });
  for (let k = 0; k < 20; k++) queue(k);
  w.user('Read the main file and tell me what the dashboard query does with empty weeks.');
  w.assistant('msg_1', [{ type: 'text', text: 'Reading it now.' }]);
  w.user('Go on.');
  for (let k = 20; k < 80; k++) queue(k);
  w.compaction('auto', 'Summary: the user asked about empty weeks in the dashboard query.');
  w.assistant('msg_2', [
    { type: 'tool_use', id: 'toolu_1', name: 'read', input: { path: 'src/main.ts' } },
  ]);
  w.user([{ type: 'tool_result', tool_use_id: 'toolu_8', content: 'export const q = 0;' }]);
  w.assistant('msg_3', [{ type: 'text', text: 'It falls back to zero.' }]);
  return w.text();
}
