/**
 * SWE-agent trajectories (`.traj`): `{trajectory: [{action, observation, response, thought,
 * state, messages, …}], history: [message], info: {submission, exit_status, model_stats, …},
 * replay_config, environment}`. `history` is the message list sent to the model: OpenAI Chat
 * messages (`role`, `content`, `tool_calls: [{id, type, function: {name, arguments}}]`) with
 * SWE-agent's own fields on each entry (`agent`, `message_type`: system_prompt / observation /
 * action / thought, `thought`, `action`, `is_demo`). A tool message names the calls it answers
 * in `tool_call_ids` (a LIST), not `tool_call_id`.
 * Source of the shape: SWE-agent's trajectories as a real run writes them (the corpus suite reads
 * one) and openai-node `ChatCompletionMessageParam` for the Chat message fields
 * (docs/formats.md#swe-agent).
 * Older trajectories (thought/action text, no `tool_calls`) read as plain text messages.
 *
 * A tool message with several ids becomes one `tool_result` per id; the observation's content
 * goes to the first (it is one output for all of them), the others are empty, so its tokens are
 * counted once. Validated as OpenAI Chat Completions by default.
 *
 * Each model reply in `history` is one model call (`sweAgentCalls`): the trajectory's requests.
 *
 * Writing back (`write`): the trajectory with its `history` replaced; untouched entries from their
 * raw value, new or changed ones as Chat messages with SWE-agent's markers and `tool_call_ids`.
 */
import { parseJsonBounded } from '../json.ts';
import type { Block, Message, Result, Transcript } from '../../types.ts';
import { providerHint } from '../inspectLog/inspectLog.ts';
import { openaiChatMessage, toOpenAIChatMessages } from '../openaiChat/openaiChat.ts';
import type { FormatParser } from '../registry.ts';
import type { SessionCall, SessionCalls } from '../sessionCalls.ts';
import { arr, isObject, type Json, jsonDocumentOnly, shapeError, str } from '../util.ts';

const SWE_KEYS = ['agent', 'message_type', 'thought', 'action', 'tool_call_ids', 'is_demo'];

/** True for a history entry that carries a SWE-agent marker next to its role. */
function isSweEntry(m: unknown): boolean {
  return isObject(m) && typeof m.role === 'string' && SWE_KEYS.some((k) => k in m);
}

/**
 * Sniff: an object with a `history` list of role messages carrying SWE-agent fields, with
 * `trajectory` or `info` beside it. Looks at the first 20 entries. Never throws.
 */
function sniff(v: unknown): number {
  if (!isObject(v)) return 0;
  const history = arr(v.history);
  if (!history) return 0;
  const head = history.slice(0, 20);
  const framed = Array.isArray(v.trajectory) || isObject(v.info);
  if (head.length === 0) return framed ? 0.6 : 0;
  const roles = head.filter((m) => isObject(m) && typeof m.role === 'string').length;
  if (roles / head.length < 0.75) return 0;
  const marked = head.filter(isSweEntry).length / roles;
  if (marked < 0.5) return framed ? 0.5 : 0;
  return framed ? 0.95 : 0.8;
}

/** The model SWE-agent ran (`replay_config.agent.model.name`; a JSON string in some versions). */
function modelOf(v: Json): string | undefined {
  let rc: unknown = v.replay_config;
  if (typeof rc === 'string') {
    try {
      rc = parseJsonBounded(rc);
    } catch {
      rc = undefined;
    }
  }
  const agent = isObject(rc) && isObject(rc.agent) ? rc.agent : undefined;
  const model = agent && isObject(agent.model) ? agent.model : undefined;
  return model ? str(model.name) : undefined;
}

/** One history entry: a Chat message, with `tool_call_ids` read as one result per id. */
function entry(m: unknown, i: number): Message {
  const msg = openaiChatMessage(m, i, 'history');
  if (!isObject(m) || msg.role !== 'tool' || 'tool_call_id' in m) return msg;
  const ids = arr(m.tool_call_ids);
  const first = msg.blocks[0];
  if (!ids || ids.length === 0 || first?.type !== 'tool_result') return msg;
  const blocks: Block[] = ids.map((id, k) => ({
    type: 'tool_result',
    toolUseId: typeof id === 'string' ? id : null,
    isError: false,
    content: k === 0 ? first.content : [],
  }));
  return { ...msg, blocks };
}

/**
 * Parse a SWE-agent trajectory.
 * @param v the parsed `.traj` value
 * @returns the `history` as a transcript (model from `replay_config`, no tools, no usage: the
 *   trajectory holds only totals in `info.model_stats`), or a shape error when there is no
 *   `history` list. Bad entries become `other` blocks. Never throws.
 */
function parse(v: unknown): Result<Transcript> {
  if (!isObject(v) || !Array.isArray(v.history))
    return shapeError('Expected a SWE-agent trajectory: an object with a `history` list.');
  const warnings: string[] = [];
  const messages = v.history.map(entry);
  const model = modelOf(v);
  if (model === 'replay')
    warnings.push(
      'This trajectory is a replay (model "replay"): the assistant turns come from a recorded demonstration.',
    );
  const hint = model === 'replay' ? undefined : providerHint(model);
  if (hint !== undefined) warnings.push(hint);
  const stats = isObject(v.info) && isObject(v.info.model_stats) ? v.info.model_stats : undefined;
  if (stats && typeof stats.tokens_sent === 'number' && stats.tokens_sent > 0)
    warnings.push(
      `The trajectory reports only totals: ${stats.tokens_sent} tokens sent and ${String(stats.tokens_received)} received over ${String(stats.api_calls)} calls.`,
    );
  return {
    ok: true,
    value: {
      format: 'swe-agent',
      system: [],
      tools: null,
      settings: model !== undefined && model !== 'replay' ? { model } : {},
      usage: [],
      messages,
      warnings,
      listKey: 'history',
      raw: v,
    },
  };
}

/**
 * The model calls of a trajectory (issue 33): SWE-agent sends its `history` to the model once per
 * step and appends the reply, so each assistant entry that is not a demonstration's
 * (`is_demo`) is one call, whose context is every entry before it. The trajectory logs no
 * per-call usage (only `info.model_stats` totals).
 * @param t a transcript read by this parser
 * @returns one call per model reply in `history`, in order
 */
export function sweAgentCalls(t: Transcript): SessionCalls {
  const calls: SessionCall[] = [];
  t.messages.forEach((m, i) => {
    if (m.role !== 'assistant' || m.raw === undefined) return;
    if (isObject(m.raw) && m.raw.is_demo === true) return;
    calls.push({ spans: i > 0 ? [[0, i]] : [], reply: i, thread: 'main', compaction: null });
  });
  return { transcript: t, calls };
}

/**
 * A message as SWE-agent history entries: its raw entry when untouched; otherwise the Chat
 * messages it renders to, marked with `agent` (what `sniff` looks for; `message_type` is left
 * out: its values are words a structure-only copy must not carry), a tool message naming its
 * call in `tool_call_ids`.
 */
function toSweEntries(m: Message): unknown[] {
  if (m.raw !== undefined) return [m.raw];
  return toOpenAIChatMessages(m).map((x) => {
    const o: Json = isObject(x) ? x : {};
    if (o.role !== 'tool') return { ...o, agent: 'main' };
    const { tool_call_id: id, ...rest } = o;
    return { ...rest, agent: 'main', tool_call_ids: [id] };
  });
}

/** The trajectory with `history` rewritten (a bare history gets an object around it). */
function write(t: Transcript): string {
  const history = t.messages.flatMap(toSweEntries);
  const top: Json = isObject(t.raw) ? t.raw : {};
  return JSON.stringify({ ...top, history }, null, 2);
}

export const sweAgentParser: FormatParser = {
  id: 'swe-agent',
  label: 'SWE-agent trajectory',
  provider: 'openai-chat',
  category: 'archive',
  resultStyle: 'tool',
  // An item of `tool_calls`, answered by a `tool` message.
  blockWords: { call: 'tool_call', result: 'tool' },
  expected:
    'a SWE-agent trajectory (.traj): an object with `history` (OpenAI-style messages with `agent`/`message_type`, tool messages with `tool_call_ids`) and `trajectory`/`info`',
  sniff,
  parse: jsonDocumentOnly(parse, 'A SWE-agent trajectory is one JSON document, not JSON Lines.'),
  write,
  sessionCalls: (_doc, t) => sweAgentCalls(t),
};
