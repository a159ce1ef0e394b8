/**
 * One message in the timeline: role, block chips, token bar; expanded, the full content and the
 * raw JSON. All transcript content is rendered as React text (never HTML).
 */
import { memo, type ReactNode } from 'react';
import type { ToolPair } from '../model/pairing.ts';
import type { PairsOfBlock } from '../state/selectors.ts';
import { PAIR_ERROR, PAIR_WARNING, pairWarningText, type PairSignals } from './arcs/pairSignals.ts';
import { answeredButRefused } from './arcs/verdictLabel.ts';
import type { Block, Message } from '../model/types.ts';
import { blockText, excerpt, findRanges, fmtInt, prettyJson } from './format.ts';

export interface MessageRowProps {
  message: Message;
  /** Row label (`#3`, or `#3.2` when several of ours share a raw index): `messageLabels`. */
  label: string;
  tokens: number;
  /** Largest per-message token count, for the bar's scale. */
  maxTokens: number;
  approx: boolean;
  expanded: boolean;
  selected: boolean;
  dimmed: boolean;
  /** `message:block` keys that match the find query. */
  matches: ReadonlySet<string>;
  /** The find query, marked inside the opened row's blocks ('' when the row has no match). */
  query: string;
  /** The pairs of each block (`selectPairsOfBlock`). */
  pairsOfBlock: PairsOfBlock;
  /**
   * The analysis's pair signals (`selectPairSignals`): a chip whose pair the verdict holds
   * against the request is red with the reason (the provider's rule when pairing says
   * `answered`); a pair pairing finds odd but no error names is a warning, with why.
   */
  signals?: PairSignals | undefined;
  /** Whether the verdict accepts the request (for the warning's words). */
  valid?: boolean;
  /** Pair keys highlighted (hovered or selected). */
  activePairs: ReadonlySet<string>;
  /** Rank of the worst violation pointing here, if any. */
  violation: 'first' | 'next' | 'warning' | null;
  onToggle: (index: number) => void;
  onSelect: (index: number) => void;
  onSelectPair: (key: string) => void;
  onHoverPair: (key: string | null) => void;
}

/** Width of the token bar for the largest message, px. */
const TOKEN_BAR_PX = 56;

const ROLE_LABEL: Record<Message['role'], string> = {
  system: 'system',
  developer: 'developer',
  user: 'user',
  assistant: 'assistant',
  tool: 'tool',
};

function chipLabel(b: Block): string {
  switch (b.type) {
    case 'text':
      return excerpt(b.text, 70) || '(empty text)';
    case 'thinking':
      return b.thinking.trim() ? `thinking · ${excerpt(b.thinking, 40)}` : 'thinking (empty)';
    case 'redacted_thinking':
      return 'redacted thinking';
    case 'tool_use':
      return `${b.server ? 'server ' : ''}tool_use ${b.name} · ${b.id ?? '(no id)'}`;
    case 'tool_result':
      return `tool_result${b.isError ? ' (error)' : ''} · ${b.toolUseId ?? '(no id)'}`;
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
type ChipState = { level: 'error' | 'warning' | null; note: string | null; why?: string };

const STATUS_NOTE: Record<ToolPair['status'], string> = {
  answered: 'answered',
  unanswered: 'no result',
  orphan: 'no matching call',
  answered_late: 'answered late',
  duplicate_id: 'duplicate id',
  duplicate_result: 'second result',
};

function chipState(
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

/** A text with the find query's occurrences in `<mark>` (React text nodes, never HTML). */
function Highlighted({ text, query }: { text: string; query: string }) {
  const ranges = query ? findRanges(text, query) : [];
  if (ranges.length === 0) return <>{text}</>;
  const out: ReactNode[] = [];
  let at = 0;
  for (const [a, b] of ranges) {
    if (a > at) out.push(text.slice(at, a));
    out.push(
      <mark key={a} className="find-mark" data-testid="find-mark">
        {text.slice(a, b)}
      </mark>,
    );
    at = b;
  }
  if (at < text.length) out.push(text.slice(at));
  return <>{out}</>;
}

export const MessageRow = memo(function MessageRow(p: MessageRowProps) {
  const m = p.message;
  const width = p.maxTokens > 0 ? Math.max(2, (p.tokens / p.maxTokens) * TOKEN_BAR_PX) : 0;
  return (
    <div
      className={`msg role-${m.role}${p.selected ? ' selected' : ''}${p.dimmed ? ' dimmed' : ''}${p.violation ? ` has-violation v-${p.violation}` : ''}`}
      data-testid="message-row"
      data-role={m.role}
    >
      {/* Cells of the timeline's treegrid row (Timeline.tsx owns the row and its focus). */}
      <div
        className="msg-head"
        onClick={() => p.onSelect(m.index)}
        onDoubleClick={() => p.onToggle(m.index)}
      >
        <span className="msg-lead" role="gridcell">
          <button
            type="button"
            className="expander"
            aria-expanded={p.expanded}
            aria-label={p.expanded ? 'Collapse message' : 'Expand message'}
            data-testid="expand"
            onClick={(e) => {
              e.stopPropagation();
              p.onToggle(m.index);
            }}
          >
            {p.expanded ? '▾' : '▸'}
          </button>
          <span className="role">{ROLE_LABEL[m.role]}</span>
          <span className="msg-index" title={`Position in the source: ${m.path}`}>
            {p.label}
          </span>
        </span>
        <span className="chips" role="gridcell">
          {m.blocks.length === 0 && <span className="chip empty">(no content)</span>}
          {m.blocks.map((b, bi) => {
            const k = `${m.index}:${bi}`;
            const pairs = p.pairsOfBlock.of(m.index, bi);
            const st = chipState(pairs, p.signals, p.valid ?? false);
            const active = pairs?.some((x) => p.activePairs.has(x.key)) ?? false;
            const pairKey = pairs?.[0]?.key;
            const err = b.type === 'tool_result' && b.isError;
            return (
              <span
                key={bi}
                className={`chip chip-${b.type}${st.level === 'error' ? ' broken' : st.level === 'warning' ? ' warned' : ''}${err ? ' is-error' : ''}${active ? ' active' : ''}${p.matches.has(k) ? ' match' : ''}`}
                data-testid="chip"
                data-block-type={b.type}
                title={st.why ?? st.note ?? undefined}
                onClick={
                  pairKey
                    ? (e) => {
                        e.stopPropagation();
                        p.onSelectPair(pairKey);
                      }
                    : undefined
                }
                onMouseEnter={pairKey ? () => p.onHoverPair(pairKey) : undefined}
                onMouseLeave={pairKey ? () => p.onHoverPair(null) : undefined}
              >
                {chipLabel(b)}
                {st.note && <span className="chip-note"> — {st.note}</span>}
              </span>
            );
          })}
        </span>
        <span
          className="tokens"
          role="gridcell"
          title={`${p.approx ? 'about ' : ''}${fmtInt(p.tokens)} tokens`}
        >
          <span className="token-bar" style={{ width: `${width}px` }} />
          <span className="token-num">
            {p.approx ? '≈' : ''}
            {fmtInt(p.tokens)}
          </span>
        </span>
      </div>
      {p.expanded && (
        <div className="msg-body" role="gridcell" data-testid="message-body">
          {m.blocks.map((b, bi) => (
            <section key={bi} className={`block block-${b.type}`}>
              <div className="block-title">
                {b.type === 'text' || b.type === 'thinking' ? b.type : chipLabel(b)}
              </div>
              <pre className="block-text" tabIndex={0}>
                <Highlighted
                  text={blockText(b)}
                  query={p.matches.has(`${m.index}:${bi}`) ? p.query : ''}
                />
              </pre>
            </section>
          ))}
          <details className="raw">
            <summary>Raw JSON ({m.path})</summary>
            <pre data-testid="raw-json" tabIndex={0}>
              {prettyJson(m.raw)}
            </pre>
          </details>
        </div>
      )}
    </div>
  );
});
