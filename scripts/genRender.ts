/**
 * What the generator builds (turns: a user prompt, an assistant turn with calls, results) and how
 * each format writes it (scripts/gen.ts builds them).
 */

/** The tools the generated agent calls (and the requests declare). */
export const TOOLS = ['Read', 'Bash', 'Grep', 'Edit', 'Glob'];

export interface Call {
  id: string;
  name: string;
  input: Record<string, unknown>;
}
export interface Res {
  id: string;
  text: string;
  isError: boolean;
}
export type Turn =
  | { kind: 'user'; text: string }
  | { kind: 'assistant'; thinking: string | null; text: string | null; calls: Call[] }
  | { kind: 'results'; results: Res[]; textFirst: string | null };

/** The random source a renderer draws ids and figures from (gen.ts's Writer). */
export interface Random {
  int(lo: number, hi: number): number;
  id(prefix: string): string;
}

export function renderAnthropic(turns: Turn[]): string {
  const messages = turns.map((t) => {
    if (t.kind === 'user') return { role: 'user', content: t.text };
    if (t.kind === 'results') {
      const blocks: unknown[] = t.results.map((r) => ({
        type: 'tool_result',
        tool_use_id: r.id,
        content: r.text,
        ...(r.isError ? { is_error: true } : {}),
      }));
      if (t.textFirst) blocks.unshift({ type: 'text', text: t.textFirst });
      return { role: 'user', content: blocks };
    }
    const content: unknown[] = [];
    if (t.thinking)
      content.push({
        type: 'thinking',
        thinking: t.thinking,
        signature: 'EqQBCkYIBRgCKkD' + 'x'.repeat(40),
      });
    if (t.text) content.push({ type: 'text', text: t.text });
    for (const c of t.calls)
      content.push({ type: 'tool_use', id: c.id, name: c.name, input: c.input });
    return { role: 'assistant', content };
  });
  const tools = TOOLS.map((name) => ({
    name,
    description: `The ${name} tool.`,
    input_schema: { type: 'object', properties: {} },
  }));
  return JSON.stringify({
    model: 'claude-sonnet-4-5',
    max_tokens: 8192,
    thinking: { type: 'enabled', budget_tokens: 4096 },
    system: 'You are a coding agent working in a repository.',
    tools,
    messages,
  });
}

export function renderOpenAI(turns: Turn[]): string {
  const messages: unknown[] = [
    { role: 'system', content: 'You are a coding agent working in a repository.' },
  ];
  for (const t of turns) {
    if (t.kind === 'user') messages.push({ role: 'user', content: t.text });
    else if (t.kind === 'results') {
      if (t.textFirst) messages.push({ role: 'user', content: t.textFirst });
      for (const r of t.results)
        messages.push({ role: 'tool', tool_call_id: r.id, content: r.text });
    } else {
      messages.push({
        role: 'assistant',
        content: t.text,
        ...(t.calls.length > 0
          ? {
              tool_calls: t.calls.map((c) => ({
                id: c.id,
                type: 'function',
                function: { name: c.name, arguments: JSON.stringify(c.input) },
              })),
            }
          : {}),
      });
    }
  }
  const tools = TOOLS.map((name) => ({
    type: 'function',
    function: {
      name,
      description: `The ${name} tool.`,
      parameters: { type: 'object', properties: {} },
    },
  }));
  return JSON.stringify({ model: 'gpt-4.1', tools, messages });
}

/**
 * The lines of one assistant turn in a Claude Code log: one line per content block, all sharing
 * the message id, request id and usage (as Claude Code writes a streamed message).
 */
function claudeCodeAssistant(
  t: Extract<Turn, { kind: 'assistant' }>,
  w: Random,
): Record<string, unknown>[] {
  const id = w.id('msg_');
  const requestId = w.id('req_');
  const blocks: unknown[] = [];
  if (t.thinking)
    blocks.push({
      type: 'thinking',
      thinking: t.thinking,
      signature: 'EpMCopaque' + 'x'.repeat(40),
    });
  if (t.text) blocks.push({ type: 'text', text: t.text });
  for (const c of t.calls)
    blocks.push({ type: 'tool_use', id: c.id, name: c.name, input: c.input });
  const usage = {
    input_tokens: w.int(3, 40),
    cache_creation_input_tokens: w.int(0, 4000),
    cache_read_input_tokens: w.int(1000, 150000),
    output_tokens: w.int(20, 900),
    service_tier: 'standard',
  };
  return blocks.map((b, i) => ({
    type: 'assistant',
    requestId,
    message: {
      id,
      type: 'message',
      role: 'assistant',
      model: 'claude-opus-4-7',
      content: [b],
      stop_reason: i === blocks.length - 1 ? (t.calls.length ? 'tool_use' : 'end_turn') : null,
      stop_sequence: null,
      usage,
    },
  }));
}

export function renderClaudeCode(turns: Turn[], w: Random): string {
  const sessionId =
    '5e21a0c4-7b1d-4c55-9a51-' + (w.int(0, 0xffffff).toString(16) + '000000000000').slice(0, 12);
  const base = {
    isSidechain: false,
    userType: 'external',
    cwd: '/srv/checkout',
    sessionId,
    version: '2.1.301',
    gitBranch: 'main',
  };
  let time = Date.UTC(2026, 10, 28, 14, 0, 0);
  let parent: string | null = null;
  let n = 0;
  const lines: string[] = [];
  const emit = (o: Record<string, unknown>) => {
    const uuid = `u${(n++).toString(16).padStart(8, '0')}-0000-4000-8000-000000000000`;
    time += w.int(200, 4000);
    lines.push(
      JSON.stringify({
        ...o,
        uuid,
        parentUuid: parent,
        ...base,
        timestamp: new Date(time).toISOString(),
      }),
    );
    parent = uuid;
  };
  for (const t of turns) {
    if (t.kind === 'user') emit({ type: 'user', message: { role: 'user', content: t.text } });
    else if (t.kind === 'results') {
      if (t.textFirst) emit({ type: 'user', message: { role: 'user', content: t.textFirst } });
      for (const r of t.results)
        emit({
          type: 'user',
          message: {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: r.id, content: r.text, is_error: r.isError },
            ],
          },
          toolUseResult: {
            stdout: r.text.slice(0, 200),
            stderr: '',
            interrupted: false,
            isImage: false,
          },
        });
    } else for (const line of claudeCodeAssistant(t, w)) emit(line);
  }
  return lines.join('\n') + '\n';
}
