/**
 * One message in the timeline: role, block chips, token bar; expanded, the full content and the
 * raw JSON. All transcript content is rendered as React text (never HTML).
 */
import { memo } from 'react';
import type { ToolPair } from '../model/pairing.ts';
import type { BrokenPairs, PairsOfBlock } from '../state/selectors.ts';
import { answeredButRefused } from './arcs/verdictLabel.ts';
import type { Block, Message } from '../model/types.ts';
import { blockText, excerpt, fmtInt, prettyJson } from './format.ts';

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
  /** The pairs of each block (`selectPairsOfBlock`). */
  pairsOfBlock: PairsOfBlock;
  /**
   * The analysis's broken pairs (`selectBrokenPairs`): a chip whose pair an error violation of the
   * chosen provider names is marked broken with the rule, even when pairing says `answered`.
   */
  broken?: BrokenPairs | undefined;
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

function chipState(
  pairs: readonly ToolPair[] | undefined,
  verdicts: BrokenPairs | undefined,
): {
  broken: boolean;
  note: string | null;
} {
  if (!pairs || pairs.length === 0) return { broken: false, note: null };
  const bad = pairs.find((p) => p.status !== 'answered');
  if (!bad) {
    // Answered by pairing, but the provider's verdict names it (Bedrock B2, Anthropic A3, …).
    if (verdicts)
      for (const p of pairs) {
        const v = verdicts.violation(p.key);
        if (v) return { broken: true, note: answeredButRefused(verdicts.providerLabel, v) };
      }
    return { broken: false, note: null };
  }
  const note =
    bad.status === 'unanswered'
      ? bad.partial
        ? 'missing result (its sibling was answered)'
        : 'no result'
      : bad.status === 'orphan'
        ? 'no matching call'
        : bad.status === 'answered_late'
          ? 'answered late'
          : bad.status === 'duplicate_id'
            ? 'duplicate id'
            : 'second result';
  return { broken: true, note };
}

export const MessageRow = memo(function MessageRow(p: MessageRowProps) {
  const m = p.message;
  const width = p.maxTokens > 0 ? Math.max(2, (p.tokens / p.maxTokens) * TOKEN_BAR_PX) : 0;
  return (
    <div
      className={`msg role-${m.role}${p.selected ? ' selected' : ''}${p.dimmed ? ' dimmed' : ''}${p.violation ? ` has-violation v-${p.violation}` : ''}`}
      data-testid="message-row"
      data-role={m.role}
      aria-selected={p.selected}
    >
      <div
        className="msg-head"
        onClick={() => p.onSelect(m.index)}
        onDoubleClick={() => p.onToggle(m.index)}
      >
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
        <span className="chips">
          {m.blocks.length === 0 && <span className="chip empty">(no content)</span>}
          {m.blocks.map((b, bi) => {
            const k = `${m.index}:${bi}`;
            const pairs = p.pairsOfBlock.of(m.index, bi);
            const st = chipState(pairs, p.broken);
            const active = pairs?.some((x) => p.activePairs.has(x.key)) ?? false;
            const pairKey = pairs?.[0]?.key;
            const err = b.type === 'tool_result' && b.isError;
            return (
              <span
                key={bi}
                className={`chip chip-${b.type}${st.broken ? ' broken' : ''}${err ? ' is-error' : ''}${active ? ' active' : ''}${p.matches.has(k) ? ' match' : ''}`}
                data-testid="chip"
                data-block-type={b.type}
                title={st.note ?? undefined}
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
        <span className="tokens" title={`${p.approx ? 'about ' : ''}${fmtInt(p.tokens)} tokens`}>
          <span className="token-bar" style={{ width: `${width}px` }} />
          <span className="token-num">
            {p.approx ? '≈' : ''}
            {fmtInt(p.tokens)}
          </span>
        </span>
      </div>
      {p.expanded && (
        <div className="msg-body" data-testid="message-body">
          {m.blocks.map((b, bi) => (
            <section key={bi} className={`block block-${b.type}`}>
              <div className="block-title">
                {b.type === 'text' || b.type === 'thinking' ? b.type : chipLabel(b)}
              </div>
              <pre className="block-text">{blockText(b)}</pre>
            </section>
          ))}
          <details className="raw">
            <summary>Raw JSON ({m.path})</summary>
            <pre data-testid="raw-json">{prettyJson(m.raw)}</pre>
          </details>
        </div>
      )}
    </div>
  );
});
