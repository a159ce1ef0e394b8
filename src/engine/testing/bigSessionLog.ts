/**
 * Test support: a Claude Code session log larger than the page reads whole (`STREAM_MIN_BYTES`),
 * so the page hands it to the worker, which streams it and sends its messages as byte spans of
 * the file (issue 38). Shaped like a real log (one line per content block, a reply's lines sharing
 * its `message.id`, progress lines between): a prompt, a tool call whose result carries a long
 * build output (most of the file's bytes), then two more calls, the last one calling a tool that
 * nothing answers. Three model calls; every request is valid for Anthropic but the whole log (it
 * ends on an unanswered tool_use: A2). Content invented.
 */
import { chainedLines, pad } from '../../model/testing/chainedLines.ts';
import { STREAM_MIN_BYTES } from '../limits.ts';

/**
 * The log's text (JSON Lines, one record per line, ending with a newline).
 * @param padLine also write a `file-history-snapshot` line of about 3 MB after the third line
 *   (a record the parse skips, so only the byte offsets of the messages after it move)
 */
export function bigSessionLog(padLine = false): string {
  const log = chainedLines({
    base: {
      isSidechain: false,
      userType: 'external',
      cwd: '/srv/build',
      sessionId: '5d1e0c2f-7a6b-4e3d-8c9f-0a1b2c3d4e5f',
      version: '2.1.140',
    },
    uuid: (n) => `big-${pad(n, 4)}`,
    timestamp: (n) => `2026-11-21T10:00:${pad(n, 2)}.000Z`,
  });
  const push = (v: Record<string, unknown>) => void log.chain(v);
  const user = (content: unknown) => push({ type: 'user', message: { role: 'user', content } });
  const reply = (id: string, block: Record<string, unknown>, stop: string | null) =>
    push({
      type: 'assistant',
      requestId: `req_${id}`,
      message: {
        id: `msg_${id}`,
        type: 'message',
        role: 'assistant',
        model: 'claude-opus-4-7',
        content: [block],
        stop_reason: stop,
        usage: { input_tokens: 10, cache_read_input_tokens: 12_000, output_tokens: 40 },
      },
    });
  const progress = (tool: string) =>
    push({
      type: 'progress',
      data: { type: 'hook_progress', hookEvent: 'PostToolUse' },
      toolUseID: tool,
    });

  user('Why does the release build fail on the CI runner but not locally?');
  reply('A', { type: 'text', text: 'Let me run the build the way CI does.' }, null);
  if (padLine) log.raw({ type: 'file-history-snapshot', pad: 'z'.repeat(3 * 1024 * 1024) });
  reply(
    'A',
    { type: 'tool_use', id: 'toolu_B1build', name: 'Bash', input: { command: 'make release' } },
    'tool_use',
  );
  progress('toolu_B1build');
  // The build's output: about 1.2 × STREAM_MIN_BYTES of log lines.
  const out: string[] = [];
  for (let i = 0, size = 0; size < STREAM_MIN_BYTES * 1.2; i++) {
    const line = `[${String(i).padStart(6, '0')}] cc -O2 -c src/module_${i % 977}.c -o build/module_${i % 977}.o   # ok`;
    out.push(line);
    size += line.length + 1;
  }
  user([{ type: 'tool_result', tool_use_id: 'toolu_B1build', content: out.join('\n') }]);
  reply(
    'C',
    { type: 'text', text: 'The build passes; the CI runner must differ. Checking its image.' },
    null,
  );
  reply(
    'C',
    {
      type: 'tool_use',
      id: 'toolu_B2image',
      name: 'Bash',
      input: { command: 'cat ci/Dockerfile' },
    },
    'tool_use',
  );
  progress('toolu_B2image');
  user([
    {
      type: 'tool_result',
      tool_use_id: 'toolu_B2image',
      content: 'FROM debian:12\nRUN apt-get install -y gcc-12',
    },
  ]);
  reply('D', { type: 'text', text: 'CI builds with gcc 12. Trying that compiler here.' }, null);
  reply(
    'D',
    {
      type: 'tool_use',
      id: 'toolu_B3gcc',
      name: 'Bash',
      input: { command: 'CC=gcc-12 make release' },
    },
    'tool_use',
  );
  return log.text();
}
