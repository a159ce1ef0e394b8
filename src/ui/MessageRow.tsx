/**
 * One message in the timeline: role, block chips, token bar; expanded, the full content and the
 * raw JSON. All transcript content is rendered as React text (never HTML).
 */
import { memo, type ReactNode } from 'react';
import type { ToolPair } from '../model/pairing.ts';
import { rowNumberTitle } from '../model/messageLabels.ts';
import type { PairsOfBlock } from '../state/selectors.ts';
import type { PairSignals } from './arcs/pairSignals.ts';
import type { BlockWords } from '../model/parse/registry.ts';
import type { Block, Message } from '../model/types.ts';
import { blockText, findRanges, fmtInt, prettyJson, visibleBidi } from './format.ts';
import { chipLabel, chipState } from './messageChips.ts';
import { textPending } from '../engine/client.ts';
import { useSession } from './useSession.ts';

export interface MessageRowProps {
  message: Message;
  /**
   * Whether the row's own controls (Expand) are in the tab order: only the timeline's tabbable
   * row's are, so Tab leaves the treegrid instead of visiting every mounted row's buttons.
   */
  inTabOrder: boolean;
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
  /** What the transcript's format calls a call and a result (`blockWordsOf`), for the chips. */
  words: BlockWords;
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

/** A text with the find query's occurrences in `<mark>` (React text nodes, never HTML). */
function Highlighted({ text, query }: { text: string; query: string }) {
  // Bidirectional controls are shown, not obeyed (`visibleBidi`), after the matches are found.
  const ranges = query ? findRanges(text, query) : [];
  if (ranges.length === 0) return <>{visibleBidi(text)}</>;
  const out: ReactNode[] = [];
  let at = 0;
  for (const [a, b] of ranges) {
    if (a > at) out.push(visibleBidi(text.slice(at, a)));
    out.push(
      <mark key={a} className="find-mark" data-testid="find-mark">
        {visibleBidi(text.slice(a, b))}
      </mark>,
    );
    at = b;
  }
  if (at < text.length) out.push(visibleBidi(text.slice(at)));
  return <>{out}</>;
}

/**
 * One block's chip: its label, red or amber with a note when its pair is, and its pair selected
 * on click and highlighted on hover.
 */
function BlockChip({
  block: b,
  words,
  pairs,
  signals,
  valid,
  activePairs,
  matched,
  onSelectPair,
  onHoverPair,
}: {
  block: Block;
  words: BlockWords;
  /** The block's pairs (`PairsOfBlock.of`), if any. */
  pairs: readonly ToolPair[] | undefined;
  signals: PairSignals | undefined;
  valid: boolean;
  activePairs: ReadonlySet<string>;
  /** Whether the block matches the find query. */
  matched: boolean;
  onSelectPair: (key: string) => void;
  onHoverPair: (key: string | null) => void;
}) {
  const st = chipState(pairs, signals, valid);
  const active = pairs?.some((x) => activePairs.has(x.key)) ?? false;
  const pairKey = pairs?.[0]?.key;
  const err = b.type === 'tool_result' && b.isError;
  return (
    <span
      className={`chip chip-${b.type}${st.level === 'error' ? ' broken' : st.level === 'warning' ? ' warned' : ''}${err ? ' is-error' : ''}${active ? ' active' : ''}${matched ? ' match' : ''}`}
      data-testid="chip"
      data-block-type={b.type}
      title={st.why ?? st.note ?? undefined}
      onClick={
        pairKey
          ? (e) => {
              e.stopPropagation();
              onSelectPair(pairKey);
            }
          : undefined
      }
      onMouseEnter={pairKey ? () => onHoverPair(pairKey) : undefined}
      onMouseLeave={pairKey ? () => onHoverPair(null) : undefined}
    >
      {chipLabel(b, words)}
      {st.note && <span className="chip-note"> — {st.note}</span>}
    </span>
  );
}

/** The token cell: a bar scaled to the largest message, and the count (≈ when estimated). */
function TokenCell({
  tokens,
  maxTokens,
  approx,
}: {
  tokens: number;
  maxTokens: number;
  approx: boolean;
}) {
  const width = maxTokens > 0 ? Math.max(2, (tokens / maxTokens) * TOKEN_BAR_PX) : 0;
  return (
    <span
      className="tokens"
      role="gridcell"
      title={`${approx ? 'about ' : ''}${fmtInt(tokens)} tokens`}
    >
      <span className="token-bar" style={{ width: `${width}px` }} />
      <span className="token-num">
        {approx ? '≈' : ''}
        {fmtInt(tokens)}
      </span>
    </span>
  );
}

/**
 * An opened row's body: each block's full text (the find query marked where the block matches)
 * and the message's raw JSON. Its boxes and the Raw JSON disclosure are Tab stops only on the
 * timeline's tabbable row (the selected one): Tab leaves the timeline after that row, not through
 * every other opened row (newcomer); j/k select a row, and its body then joins the Tab order.
 */
function MessageBody({
  message: m,
  words,
  matches,
  query,
  inTabOrder,
}: {
  message: Message;
  words: BlockWords;
  matches: ReadonlySet<string>;
  query: string;
  inTabOrder: boolean;
}) {
  const tab = inTabOrder ? 0 : -1;
  if (textPending(m))
    return (
      <div className="msg-body" role="gridcell" data-testid="message-body">
        <p className="reading" data-testid="reading-text">
          reading…
        </p>
      </div>
    );
  return (
    <div className="msg-body" role="gridcell" data-testid="message-body">
      {m.blocks.map((b, bi) => (
        <section key={bi} className={`block block-${b.type}`}>
          <div className="block-title">
            {b.type === 'text' || b.type === 'thinking' ? b.type : chipLabel(b, words)}
          </div>
          <pre className="block-text" tabIndex={tab}>
            <Highlighted text={blockText(b)} query={matches.has(`${m.index}:${bi}`) ? query : ''} />
          </pre>
        </section>
      ))}
      <details className="raw">
        <summary tabIndex={tab}>Raw JSON ({m.path})</summary>
        <pre data-testid="raw-json" tabIndex={tab}>
          {prettyJson(m.raw)}
        </pre>
      </details>
    </div>
  );
}

/**
 * One message row's cells (memoised: the timeline re-renders its rows on every scroll frame and
 * key press; a row whose props are the same is skipped).
 */
export const MessageRow = memo(function MessageRow(p: MessageRowProps) {
  const m = p.message;
  // A large file's message whose text is still being read from the file (issue 38): drawn again
  // when texts arrive; reading its blocks asks for it.
  const reading = textPending(m);
  useSession((s) => (reading ? s.textRead : 0));
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
            tabIndex={p.inTabOrder ? 0 : -1}
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
          <span className="msg-index" title={rowNumberTitle(m, p.label)}>
            {p.label}
          </span>
        </span>
        <span className="chips" role="gridcell">
          {reading && <span className="chip reading">reading…</span>}
          {!reading && m.blocks.length === 0 && <span className="chip empty">(no content)</span>}
          {(reading ? [] : m.blocks).map((b, bi) => (
            <BlockChip
              key={bi}
              block={b}
              words={p.words}
              pairs={p.pairsOfBlock.of(m.index, bi)}
              signals={p.signals}
              valid={p.valid ?? false}
              activePairs={p.activePairs}
              matched={p.matches.has(`${m.index}:${bi}`)}
              onSelectPair={p.onSelectPair}
              onHoverPair={p.onHoverPair}
            />
          ))}
        </span>
        <TokenCell tokens={p.tokens} maxTokens={p.maxTokens} approx={p.approx} />
      </div>
      {p.expanded && (
        <MessageBody
          message={m}
          words={p.words}
          matches={p.matches}
          query={p.query}
          inTabOrder={p.inTabOrder}
        />
      )}
    </div>
  );
});
