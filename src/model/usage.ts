/**
 * Usage figures against what the messages account for.
 *
 * Log formats (Claude Code, Codex) record the provider's usage per API call but not the whole
 * request: the system prompt, tool definitions and memory injections are missing. The real input
 * of a call is `input + cache read + cache write` (Anthropic's buckets are disjoint, see
 * docs/formats.md#usage); what the transcript accounts for is the tokens of the
 * messages before the reply, from the start of the current context window (the last compaction
 * summary). The difference is the hidden overhead.
 */
import { parserFor } from './parse/registry.ts';
import type { TokenTable } from './tokens.ts';
import type { Transcript, UsageRecord } from './types.ts';

/** One API call's usage set against the messages that were its input. */
export interface UsageGapRow {
  /** Message index (ours) of the reply the usage belongs to. */
  messageIndex: number;
  /** Input the provider reported: input + cache read + cache write, in tokens. */
  reportedInput: number;
  /** Tokens of the messages (and top-level system prompt) that were that call's input. */
  counted: number;
  /** reportedInput − counted, in tokens; negative when our estimate overshoots. */
  gap: number;
}

/**
 * Input tokens a usage record reports, or null when it has none.
 * @param u a usage record. For OpenAI-style records (`inputTokens` includes cached tokens, see
 *   docs/formats.md#usage) pass `cacheIncluded: true` so the cache read is not added twice.
 */
export function reportedInput(u: UsageRecord, cacheIncluded = false): number | null {
  if (u.inputTokens === undefined) return null;
  return cacheIncluded
    ? u.inputTokens
    : u.inputTokens + (u.cacheReadTokens ?? 0) + (u.cacheWriteTokens ?? 0);
}

function contextStart(t: Transcript, i: number): number {
  const sidechain = t.messages[i]?.meta?.sidechain === true;
  for (let k = i - 1; k >= 0; k--) {
    const m = t.messages[k];
    if (!m) break;
    if (m.meta?.compactSummary) return k;
    if ((m.meta?.sidechain === true) !== sidechain) return k + 1;
  }
  return 0;
}

/**
 * The gap for every usage record that names its reply message.
 * @param t the transcript (its `usage`, in tokens)
 * @param table token counts of `t` (same messages, same order)
 * @returns one row per usable record, in record order
 */
export function usageGaps(t: Transcript, table: TokenTable): UsageGapRow[] {
  const cacheIncluded = parserFor(t.format)?.usageCacheApart !== true;
  const rows: UsageGapRow[] = [];
  for (const u of t.usage) {
    const i = u.messageIndex;
    const input = reportedInput(u, cacheIncluded);
    if (i === undefined || input === null || i >= table.perMessage.length) continue;
    const start = contextStart(t, i);
    const counted = (table.prefix[i] ?? 0) - (table.prefix[start] ?? 0) + table.system;
    rows.push({ messageIndex: i, reportedInput: input, counted, gap: input - counted });
  }
  return rows;
}

/**
 * Tokens the provider counted that are not in the transcript (system prompt, tool definitions,
 * injected context), measured at the last main-thread API call that has usage.
 * @param t the transcript
 * @param table its token counts
 * @returns the gap in tokens (negative when our estimate is above the reported input), or null
 *   when the transcript carries no usage tied to a message
 */
export function usageGap(t: Transcript, table: TokenTable): number | null {
  const rows = usageGaps(t, table);
  const main = rows.filter((r) => t.messages[r.messageIndex]?.meta?.sidechain !== true);
  const last = main[main.length - 1] ?? rows[rows.length - 1];
  return last ? last.gap : null;
}
