/**
 * OpenAI Codex CLI rollouts (`~/.codex/sessions/…/rollout-*.jsonl`).
 * Source of the shape: what the Codex CLI's rollout recorder writes (docs/formats.md#codex-jsonl).
 *
 * - Only `response_item` lines become messages (`event_msg` `user_message` / `agent_message`
 *   repeat them). Each item is one message, as in a Responses `input` array: `function_call`
 *   items are call-only assistant messages, outputs are role `tool` messages paired by `call_id`.
 * - `reasoning` items: the summary is a `thinking` block, `encrypted_content` a
 *   `redacted_thinking` block (never tokenised).
 * - `token_count` events carry cumulative totals: one usage record per change of the total,
 *   holding the delta (the per-call figure), tied to the last message before the event.
 * - `thread_rolled_back` removes the last N turns (from `task_started`/`turn_context`) from the
 *   context, as Codex does; `compacted` becomes a user message with `meta.compactSummary`.
 * - `session_meta.base_instructions.text` is the system prompt; the model is in `turn_context`.
 */
import { sourceLines } from '../../messageLabels.ts';
import type { Message, Result, Transcript, UsageRecord } from '../../types.ts';
import type { JsonlLine, SourceDoc } from '../json.ts';
import { codexCalls, withoutRollbacks } from './codexCalls.ts';
import type { FormatParser } from '../registry.ts';
import { isObject, type Json, shapeError, str } from '../util.ts';
import { writeCodex } from './codexWrite.ts';
import { itemMessage } from './codexItems.ts';

const LINE_TYPES = new Set([
  'session_meta',
  'response_item',
  'event_msg',
  'turn_context',
  'compacted',
]);

/** Sniff: lines with `timestamp`, a known `type` and an object `payload`. */
function sniff(v: unknown): number {
  if (!Array.isArray(v) || v.length === 0) return 0;
  const sample = v.slice(0, 50);
  let ok = 0;
  let items = 0;
  for (const l of sample) {
    if (
      !isObject(l) ||
      !isObject(l.payload) ||
      typeof l.type !== 'string' ||
      !LINE_TYPES.has(l.type)
    )
      continue;
    ok++;
    if (l.type === 'response_item' || l.type === 'session_meta') items++;
  }
  if (items === 0) return 0;
  return ok / sample.length >= 0.6 ? 0.95 : 0.5;
}

interface Usage4 {
  input: number;
  cached: number;
  output: number;
  reasoning: number;
}

function usage4(u: unknown): Usage4 | null {
  if (!isObject(u)) return null;
  const n = (k: string) => (typeof u[k] === 'number' ? (u[k] as number) : 0);
  return {
    input: n('input_tokens'),
    cached: n('cached_input_tokens'),
    output: n('output_tokens'),
    reasoning: n('reasoning_output_tokens'),
  };
}

/** What the parse carries from line to line (one object per parse). */
interface RolloutState {
  messages: Message[];
  usage: UsageRecord[];
  warnings: string[];
  system: Transcript['system'];
  /** Message count at the start of each turn (for rollbacks). */
  turnStarts: number[];
  model: string | undefined;
  /** The last cumulative `token_count` total. */
  lastTotal: Usage4 | null;
  /** A `task_started` opened the turn; its `turn_context` does not open another. */
  pendingTurn: boolean;
}

/**
 * A `token_count` event: one usage record per change of the cumulative total, holding the delta
 * (or the event's `last_token_usage` when the total went down or is missing), tied to the last
 * message so far.
 */
function tokenCount(s: RolloutState, info: Json) {
  const total = usage4(info.total_token_usage);
  const last = usage4(info.last_token_usage);
  const lastTotal = s.lastTotal;
  let delta: Usage4 | null = null;
  if (total) {
    if (
      lastTotal &&
      total.input === lastTotal.input &&
      total.output === lastTotal.output &&
      total.cached === lastTotal.cached
    )
      return; // repeated event
    delta =
      lastTotal && total.input >= lastTotal.input
        ? {
            input: total.input - lastTotal.input,
            cached: total.cached - lastTotal.cached,
            output: total.output - lastTotal.output,
            reasoning: total.reasoning - lastTotal.reasoning,
          }
        : (last ?? total);
    s.lastTotal = total;
  } else delta = last;
  if (!delta) return;
  s.usage.push({
    ...(s.messages.length > 0 ? { messageIndex: s.messages.length - 1 } : {}),
    inputTokens: delta.input,
    cacheReadTokens: delta.cached,
    outputTokens: delta.output,
    reasoningTokens: delta.reasoning,
  });
}

/** `thread_rolled_back`: the last `num_turns` turns (default 1) and their usage leave the context. */
function rolledBack(s: RolloutState, p: Json, line: number) {
  const { messages, turnStarts, usage } = s;
  const n = typeof p.num_turns === 'number' ? p.num_turns : 1;
  const cut = turnStarts.length >= n ? (turnStarts[turnStarts.length - n] as number) : 0;
  const dropped = messages.length - cut;
  messages.length = cut;
  turnStarts.length = Math.max(0, turnStarts.length - n);
  for (let k = usage.length - 1; k >= 0; k--)
    if ((usage[k]?.messageIndex ?? -1) >= cut) usage.splice(k, 1);
  s.warnings.push(
    `Line ${line}: the thread was rolled back by ${n} turn(s); ${dropped} item(s) before it left the context and are not shown.`,
  );
}

/** An `event_msg` line: turn starts, token counts, rollbacks and aborted turns. */
function eventMsg(s: RolloutState, p: Json, line: number) {
  if (p.type === 'task_started') {
    s.turnStarts.push(s.messages.length);
    s.pendingTurn = true;
  } else if (p.type === 'token_count' && isObject(p.info)) tokenCount(s, p.info);
  else if (p.type === 'thread_rolled_back') rolledBack(s, p, line);
  else if (p.type === 'turn_aborted')
    s.warnings.push(`Line ${line}: the turn was aborted (${str(p.reason) ?? 'no reason given'}).`);
}

/** A `compacted` line: the summary as a user message with `meta.compactSummary`, and a warning. */
function compacted(s: RolloutState, v: Json, p: Json, line: number, pos: number) {
  s.messages.push({
    index: s.messages.length,
    rawIndex: s.messages.length,
    rawLine: pos,
    path: sourceLines([line]),
    role: 'user',
    blocks: [{ type: 'text', text: str(p.message) ?? '' }],
    raw: v,
    meta: {
      compactSummary: true,
      ...(str(v.timestamp) ? { timestamp: str(v.timestamp) as string } : {}),
    },
  });
  s.warnings.push(
    `Line ${line}: the conversation was compacted; the summary replaced the earlier items in the model's context.`,
  );
}

/** A `response_item` line: one message, as in a Responses `input` array. */
function responseItem(s: RolloutState, v: Json, p: Json, line: number, pos: number) {
  const { role, blocks, sourceId } = itemMessage(p);
  s.messages.push({
    index: s.messages.length,
    rawIndex: s.messages.length,
    rawLine: pos,
    path: sourceLines([line]),
    role,
    blocks,
    raw: v,
    ...(sourceId || str(v.timestamp)
      ? {
          meta: {
            ...(sourceId ? { sourceId } : {}),
            ...(str(v.timestamp) ? { timestamp: str(v.timestamp) as string } : {}),
          },
        }
      : {}),
  });
}

/** One rollout line, by its `type`. */
function readLine(s: RolloutState, v: Json, p: Json, line: number, pos: number) {
  switch (v.type) {
    case 'session_meta': {
      const bi = isObject(p.base_instructions) ? str(p.base_instructions.text) : undefined;
      if (bi) s.system.push({ text: bi, path: `line ${line} payload.base_instructions.text` });
      return;
    }
    case 'turn_context':
      if (str(p.model)) s.model = str(p.model);
      if (!s.pendingTurn) s.turnStarts.push(s.messages.length);
      s.pendingTurn = false;
      return;
    case 'compacted':
      return compacted(s, v, p, line, pos);
    case 'event_msg':
      return eventMsg(s, p, line);
    case 'response_item':
      return responseItem(s, v, p, line, pos);
  }
}

function parse(doc: SourceDoc): Result<Transcript> {
  if (doc.kind !== 'jsonl')
    return shapeError(
      'A Codex rollout is JSON Lines (one object per line), not one JSON document.',
    );
  const s: RolloutState = {
    messages: [],
    usage: [],
    warnings: [],
    system: [],
    turnStarts: [],
    model: undefined,
    lastTotal: null,
    pendingTurn: false,
  };
  const lines = doc.lines;
  for (let pos = 0; pos < lines.length; pos++) {
    const l = lines[pos] as JsonlLine;
    const v = l.value;
    if (isObject(v) && isObject(v.payload)) readLine(s, v, v.payload, l.line, pos);
  }
  const { messages, usage, warnings } = s;
  for (const u of usage) {
    const m = u.messageIndex !== undefined ? messages[u.messageIndex] : undefined;
    if (m && u.outputTokens !== undefined)
      m.meta = { ...m.meta, usageOutputTokens: u.outputTokens };
  }
  warnings.unshift(
    'Codex rollouts hold no tool definitions; the system prompt is shown only when `session_meta` carries `base_instructions`.',
  );
  return {
    ok: true,
    value: {
      format: 'codex-jsonl',
      system: s.system,
      tools: null,
      settings: s.model ? { model: s.model } : {},
      usage,
      messages,
      warnings,
      listKey: 'lines',
      raw: lines.map((x) => x.value),
    },
  };
}

export const codexJsonlParser: FormatParser = {
  id: 'codex-jsonl',
  label: 'Codex CLI rollout',
  provider: 'openai-responses',
  category: 'log',
  resultStyle: 'tool',
  // Responses items, as Codex logs them.
  blockWords: { call: 'function_call', result: 'function_call_output' },
  itemIds: true,
  expected:
    'JSON Lines of `{timestamp, type, payload}` with `type` session_meta / response_item / event_msg / turn_context / compacted',
  jsonl: true,
  sniff,
  parse,
  write: writeCodex,
  sessionCalls: (doc, t) => {
    const all = withoutRollbacks(doc);
    if (all === doc) return codexCalls(doc, t);
    const r = parse(all);
    return codexCalls(doc, r.ok ? r.value : t);
  },
};
