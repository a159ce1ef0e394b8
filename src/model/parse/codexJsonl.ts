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
import type { Block, Message, Result, Role, Transcript, UsageRecord } from '../types.ts';
import type { SourceDoc } from './json.ts';
import type { FormatParser } from './registry.ts';
import { arr, isObject, type Json, parseArguments, shapeError, str } from './util.ts';
import { writeCodex } from './codexWrite.ts';

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

const ROLES: Record<string, Role> = {
  user: 'user',
  assistant: 'assistant',
  developer: 'developer',
  system: 'system',
};

function contentPart(p: unknown): Block {
  if (typeof p === 'string') return { type: 'text', text: p };
  if (!isObject(p)) return { type: 'other', label: typeof p, raw: p };
  if (
    (p.type === 'input_text' || p.type === 'output_text' || p.type === 'text') &&
    typeof p.text === 'string'
  )
    return { type: 'text', text: p.text };
  if (p.type === 'input_image') return { type: 'image' };
  if (p.type === 'input_file') return { type: 'document' };
  if (p.type === 'refusal') return { type: 'text', text: str(p.refusal) ?? '' };
  return { type: 'other', label: str(p.type) ?? 'unknown', raw: p };
}

function outputBlocks(o: unknown): Block[] {
  if (typeof o === 'string') return [{ type: 'text', text: o }];
  const list = arr(o);
  if (list) return list.map(contentPart);
  if (o === undefined || o === null) return [];
  return [{ type: 'other', label: 'output', raw: o }];
}

/** Normalise one Responses-shaped item (a rollout `response_item` payload). */
function itemMessage(p: Json): { role: Role; blocks: Block[]; sourceId?: string } {
  const id = str(p.id);
  const withId = id ? { sourceId: id } : {};
  switch (p.type) {
    case 'message': {
      const c = p.content;
      const blocks =
        typeof c === 'string'
          ? [{ type: 'text' as const, text: c }]
          : (arr(c) ?? []).map(contentPart);
      return { role: ROLES[str(p.role) ?? ''] ?? 'user', blocks, ...withId };
    }
    case 'function_call':
    case 'custom_tool_call':
    case 'local_shell_call':
    case 'tool_search_call': {
      const input =
        p.type === 'function_call'
          ? parseArguments(p.arguments)
          : p.type === 'custom_tool_call'
            ? p.input
            : (p.action ?? p.arguments);
      const name =
        str(p.name) ??
        (p.type === 'local_shell_call'
          ? 'local_shell'
          : p.type === 'tool_search_call'
            ? 'tool_search'
            : '');
      return {
        role: 'assistant',
        blocks: [
          {
            type: 'tool_use',
            id: str(p.call_id) ?? null,
            name,
            input,
            ...(id ? { itemId: id } : {}),
          },
        ],
        ...withId,
      };
    }
    case 'function_call_output':
    case 'custom_tool_call_output':
    case 'local_shell_call_output':
    case 'tool_search_output':
      return {
        role: 'tool',
        blocks: [
          {
            type: 'tool_result',
            toolUseId: str(p.call_id) ?? null,
            isError: false,
            content: outputBlocks(p.output),
          },
        ],
        ...withId,
      };
    case 'reasoning': {
      const blocks: Block[] = [];
      const summary = (arr(p.summary) ?? [])
        .map((s) => (isObject(s) ? (str(s.text) ?? '') : ''))
        .filter((s) => s.length > 0);
      const content = (arr(p.content) ?? [])
        .map((s) => (isObject(s) ? (str(s.text) ?? '') : ''))
        .filter((s) => s.length > 0);
      if (summary.length > 0 || content.length > 0)
        blocks.push({ type: 'thinking', thinking: [...summary, ...content].join('\n\n') });
      if (typeof p.encrypted_content === 'string')
        blocks.push({
          type: 'redacted_thinking',
          bytes: p.encrypted_content.length,
          ...(id ? { itemId: id } : {}),
        });
      return { role: 'assistant', blocks, ...withId };
    }
    default:
      // web_search_call, image_generation_call, compaction, … kept verbatim.
      return {
        role: 'assistant',
        blocks: [{ type: 'other', label: str(p.type) ?? 'item', raw: p }],
        ...withId,
      };
  }
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

function parse(doc: SourceDoc): Result<Transcript> {
  if (doc.kind !== 'jsonl')
    return shapeError(
      'A Codex rollout is JSON Lines (one object per line), not one JSON document.',
    );
  const messages: Message[] = [];
  const usage: UsageRecord[] = [];
  const warnings: string[] = [];
  const system: Transcript['system'] = [];
  /** Message count at the start of each turn (for rollbacks). */
  const turnStarts: number[] = [];
  let model: string | undefined;
  let lastTotal: Usage4 | null = null;
  let pendingTurn = false;

  doc.lines.forEach((l, pos) => {
    const v = l.value;
    if (!isObject(v) || !isObject(v.payload)) return;
    const p = v.payload;
    switch (v.type) {
      case 'session_meta': {
        const bi = isObject(p.base_instructions) ? str(p.base_instructions.text) : undefined;
        if (bi) system.push({ text: bi, path: `line ${l.line} payload.base_instructions.text` });
        return;
      }
      case 'turn_context':
        if (str(p.model)) model = str(p.model);
        if (!pendingTurn) turnStarts.push(messages.length);
        pendingTurn = false;
        return;
      case 'compacted':
        messages.push({
          index: messages.length,
          rawIndex: pos,
          path: `line ${l.line}`,
          role: 'user',
          blocks: [{ type: 'text', text: str(p.message) ?? '' }],
          raw: v,
          meta: {
            compactSummary: true,
            ...(str(v.timestamp) ? { timestamp: str(v.timestamp) as string } : {}),
          },
        });
        warnings.push(
          `Line ${l.line}: the conversation was compacted; the summary replaced the earlier items in the model's context.`,
        );
        return;
      case 'event_msg':
        if (p.type === 'task_started') {
          turnStarts.push(messages.length);
          pendingTurn = true;
        } else if (p.type === 'token_count' && isObject(p.info)) {
          const total = usage4(p.info.total_token_usage);
          const last = usage4(p.info.last_token_usage);
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
            lastTotal = total;
          } else delta = last;
          if (!delta) return;
          usage.push({
            ...(messages.length > 0 ? { messageIndex: messages.length - 1 } : {}),
            inputTokens: delta.input,
            cacheReadTokens: delta.cached,
            outputTokens: delta.output,
            reasoningTokens: delta.reasoning,
          });
        } else if (p.type === 'thread_rolled_back') {
          const n = typeof p.num_turns === 'number' ? p.num_turns : 1;
          const cut = turnStarts.length >= n ? (turnStarts[turnStarts.length - n] as number) : 0;
          const dropped = messages.length - cut;
          messages.length = cut;
          turnStarts.length = Math.max(0, turnStarts.length - n);
          for (let k = usage.length - 1; k >= 0; k--)
            if ((usage[k]?.messageIndex ?? -1) >= cut) usage.splice(k, 1);
          warnings.push(
            `Line ${l.line}: the thread was rolled back by ${n} turn(s); ${dropped} item(s) before it left the context and are not shown.`,
          );
        } else if (p.type === 'turn_aborted') {
          warnings.push(
            `Line ${l.line}: the turn was aborted (${str(p.reason) ?? 'no reason given'}).`,
          );
        }
        return;
      case 'response_item': {
        const { role, blocks, sourceId } = itemMessage(p);
        messages.push({
          index: messages.length,
          rawIndex: pos,
          path: `line ${l.line}`,
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
        return;
      }
      default:
        return;
    }
  });
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
      system,
      tools: null,
      settings: model ? { model } : {},
      usage,
      messages,
      warnings,
      listKey: 'lines',
      raw: doc.lines.map((x) => x.value),
    },
  };
}

export const codexJsonlParser: FormatParser = {
  id: 'codex-jsonl',
  label: 'Codex CLI rollout',
  provider: 'openai-responses',
  category: 'log',
  resultStyle: 'tool',
  itemIds: true,
  expected:
    'JSON Lines of `{timestamp, type, payload}` with `type` session_meta / response_item / event_msg / turn_context / compacted',
  jsonl: true,
  sniff,
  parse,
  write: writeCodex,
};
