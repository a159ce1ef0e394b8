import { isPinned } from '../exchanges.ts';
import { quoteIds } from '../limits.ts';
import type { Block, Message, ToolUseBlock } from '../types.ts';
import type { RenderedMessage, RuleId, Violation } from './types.ts';

/** Input for a violation: everything but the fields filled in by the provider's envelope. */
export interface ViolationInput {
  rule: RuleId;
  code: string;
  /** Raw index (`Message.rawIndex`) of the message holding the cause, for display. */
  messageIndex: number;
  /** Our index (`Message.index`) of that message, for lookups; see `Violation.index`. */
  index: number;
  blockIndex: number | null;
  ids: string[];
  providerPath: string | null;
  message: string;
  title: string;
  why: string;
  confidence: Violation['confidence'];
  severity?: Violation['severity'];
}

/**
 * Build a violation with a provider's error envelope. Its message (and so its error body) quotes
 * a huge id by its two ends only, and is at most `MAX_MESSAGE_CHARS` long (limits.ts `quoteIds`).
 */
export function violation(
  v: ViolationInput,
  envelope: (message: string, v: ViolationInput) => unknown,
): Violation {
  const severity = v.severity ?? 'error';
  const message = quoteIds(v.message, v.ids);
  return {
    ...v,
    message,
    severity,
    status: severity === 'error' ? 400 : null,
    error: severity === 'error' ? envelope(message, v) : null,
  };
}

/** True for a tool_use the client runs (not an Anthropic server tool). */
export function isClientToolUse(b: Block): b is ToolUseBlock {
  return b.type === 'tool_use' && b.server !== true;
}

/** Short list of ids for messages: `a, b, c`. */
export function idList(ids: readonly string[]): string {
  return ids.join(', ');
}

/** Sort violations by the provider's scan order (message, then block); stable. */
export function byScanOrder<T extends { order: number }>(list: T[]): T[] {
  return list
    .map((v, i) => ({ v, i }))
    .sort((a, b) => a.v.order - b.v.order || a.i - b.i)
    .map((x) => x.v);
}

/**
 * Render messages as provider turns: system/developer messages leave the list, every other role
 * but assistant becomes `user`, and (unless `merge` is false) consecutive messages of the same
 * role become one turn, as converters do for providers that demand alternation.
 * @param assistantRole the provider's name for the assistant role (`assistant`, `model`)
 */
export function renderTurns(
  messages: readonly Message[],
  assistantRole: string,
  merge: boolean,
): RenderedMessage[] {
  const out: RenderedMessage[] = [];
  for (const m of messages) {
    if (isPinned(m)) continue;
    const items = m.blocks.map((block, blockIndex) => ({ block, msg: m, blockIndex }));
    const role = m.role === 'assistant' ? assistantRole : 'user';
    const last = out[out.length - 1];
    if (merge && last && last.role === role) {
      last.items.push(...items);
      last.sources.push(m);
      continue;
    }
    out.push({ role, items, sources: [m] });
  }
  return out;
}
