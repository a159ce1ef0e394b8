/**
 * What a message row's block chips say (MessageRow.tsx): a chip's label, and whether its pair is
 * an error (red) or a warning (amber) with a short note and the full reason. Pure strings; the
 * row renders them as text.
 */
import type { ToolPair } from '../model/pairing.ts';
import { MODEL_BLOCK_WORDS, type BlockWords } from '../model/parse/registry.ts';
import type { Block } from '../model/types.ts';
import { PAIR_ERROR, PAIR_WARNING, pairWarningText, type PairSignals } from './arcs/pairSignals.ts';
import { answeredButRefused } from './arcs/verdictLabel.ts';
import { excerpt } from './format.ts';

/** Whitespace as a JSON string (`"\n\n"`), cut at 30 characters. */
function escapedBlank(text: string): string {
  const q = JSON.stringify(text);
  return q.length > 30 ? `${q.slice(0, 29)}…` : q;
}

/**
 * A block's chip label: an excerpt of its text, or its kind with the tool name and ids, the kind
 * in the format's words (`blockWordsOf`: `tool_call` and `tool` for Chat Completions).
 */
export function chipLabel(b: Block, words: BlockWords = MODEL_BLOCK_WORDS): string {
  switch (b.type) {
    case 'text':
      // Whitespace is shown as written (escaped): `"\n\n"` is not `""` to a provider (A11, B12).
      if (b.text === '') return '(empty text)';
      return excerpt(b.text, 70) || `(blank text: ${escapedBlank(b.text)})`;
    case 'thinking':
      return b.thinking.trim() ? `thinking · ${excerpt(b.thinking, 40)}` : 'thinking (empty)';
    case 'redacted_thinking':
      return 'redacted thinking';
    case 'tool_use':
      return `${b.server ? 'server ' : ''}${words.call} ${b.name} · ${b.id ?? '(no id)'}`;
    case 'tool_result':
      // The name where the format carries one (Gemini pairs by position: a wrong name shows).
      return `${words.result}${b.isError ? ' (error)' : ''}${b.name ? ` ${b.name}` : ''} · ${b.toolUseId ?? '(no id)'}`;
    case 'image':
    case 'document':
      return b.type;
    case 'other':
      return b.label;
  }
}

/**
 * What a chip shows: `error` (red), `warning` (amber) or neither; `note` follows the chip's text,
 * `why` is its title (the full reason).
 */
export type ChipState = { level: 'error' | 'warning' | null; note: string | null; why?: string };

const STATUS_NOTE: Record<ToolPair['status'], string> = {
  answered: 'answered',
  unanswered: 'no result',
  orphan: 'no matching call',
  answered_late: 'answered late',
  duplicate_id: 'duplicate id',
  duplicate_result: 'second result',
};

/**
 * A chip's state from its block's pairs: the first pair at PAIR_ERROR makes it red (with
 * pairing's status, or the provider's rule for an `answered` pair the verdict names); else a pair
 * at PAIR_WARNING makes it amber. Without signals, anything but `answered` is red.
 * @param pairs the block's pairs (`PairsOfBlock.of`), if any
 * @param valid whether the verdict accepts the request (for the warning's words)
 */
export function chipState(
  pairs: readonly ToolPair[] | undefined,
  signals: PairSignals | undefined,
  valid: boolean,
): ChipState {
  if (!pairs || pairs.length === 0) return { level: null, note: null };
  let warn: ToolPair | null = null;
  for (const p of pairs) {
    const lvl = signals ? signals.levelOf(p.key) : p.status === 'answered' ? 0 : PAIR_ERROR;
    if (lvl === PAIR_ERROR) {
      if (p.status !== 'answered') {
        const note =
          p.status === 'unanswered' && p.partial
            ? 'missing result (its sibling was answered)'
            : STATUS_NOTE[p.status];
        return { level: 'error', note };
      }
      // Answered by pairing, but the provider's verdict names it (Bedrock B2, Anthropic A3, …).
      const v = signals?.broken.violation(p.key);
      return {
        level: 'error',
        note: v ? answeredButRefused(signals?.broken.providerLabel ?? '', v) : null,
      };
    }
    if (lvl === PAIR_WARNING) warn ??= p;
  }
  if (warn && signals)
    return {
      level: 'warning',
      note: `${STATUS_NOTE[warn.status]} (warning)`,
      why: pairWarningText(warn.status, signals.broken.providerLabel, valid),
    };
  return { level: null, note: null };
}
