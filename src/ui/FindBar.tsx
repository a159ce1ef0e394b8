/**
 * Find box (text, tool name, tool id) with match stepping, and role / block-type filters that dim.
 * Escape leaves the box for the element that had the focus before it (`onExit`).
 */
import { useRef } from 'react';
import { fmtInt } from './format.ts';
import { MODEL_BLOCK_WORDS, type BlockWords } from '../model/parse/registry.ts';
import type { BlockType, Role } from '../model/types.ts';
import { useAppStore } from '../state/store.ts';

const ROLES: Role[] = ['system', 'user', 'assistant', 'tool'];
const TYPES: BlockType[] = ['text', 'tool_use', 'tool_result', 'thinking'];

export interface FindBarProps {
  matchCount: number;
  /** Texts are still being read from the file: the count so far is a lower bound. */
  reading?: boolean;
  /** 1-based position of the selected match, or 0. */
  current: number;
  onStep: (dir: 1 | -1) => void;
  inputRef: React.RefObject<HTMLInputElement | null>;
  /** Escape: move the focus on, given the element focused before the box (null: none). */
  onExit: (cameFrom: HTMLElement | null) => void;
  /** What the transcript's format calls a call and a result (`blockWordsOf`): the filters' words. */
  words?: BlockWords;
}

function toggle<T>(list: readonly T[], v: T): T[] {
  return list.includes(v) ? list.filter((x) => x !== v) : [...list, v];
}

/** The find bar: the box, its match count and steps, and the filters. */
export function FindBar({
  matchCount,
  reading = false,
  current,
  onStep,
  inputRef,
  onExit,
  words = MODEL_BLOCK_WORDS,
}: FindBarProps) {
  const find = useAppStore((s) => s.find);
  const setFind = useAppStore((s) => s.setFind);
  // The element that had the focus before the find bar (`/`, a click or Tab): Escape returns there.
  const cameFrom = useRef<HTMLElement | null>(null);
  return (
    <div
      className="findbar"
      onFocus={(e) => {
        const from = e.relatedTarget;
        if (from instanceof HTMLElement && e.currentTarget.contains(from)) return;
        cameFrom.current = from instanceof HTMLElement ? from : null;
      }}
    >
      <input
        ref={inputRef}
        type="search"
        placeholder="Find text, tool name or id"
        aria-label="Find"
        data-testid="find"
        value={find}
        onChange={(e) => setFind(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            onStep(e.shiftKey ? -1 : 1);
          } else if (e.key === 'Escape') onExit(cameFrom.current);
        }}
      />
      <span className="find-count" data-testid="find-count">
        {!find.trim()
          ? ''
          : reading
            ? // Not "0 matches" while the file's texts are read: the count would only grow.
              `searching… ${fmtInt(matchCount)} so far`
            : `${current > 0 ? `${fmtInt(current)} of ` : ''}${fmtInt(matchCount)} match${matchCount === 1 ? '' : 'es'}`}
      </span>
      <button
        type="button"
        onClick={() => onStep(-1)}
        disabled={matchCount === 0}
        aria-label="Previous match"
      >
        ↑
      </button>
      <button
        type="button"
        onClick={() => onStep(1)}
        disabled={matchCount === 0}
        aria-label="Next match"
        data-testid="find-next"
      >
        ↓
      </button>
      <FindFilters words={words} />
    </div>
  );
}

/** The role and block-type filters: what they leave out is dimmed. */
function FindFilters({ words }: { words: BlockWords }) {
  const typeWord = (t: BlockType) =>
    t === 'tool_use' ? words.call : t === 'tool_result' ? words.result : t;
  const roleFilter = useAppStore((s) => s.roleFilter);
  const blockFilter = useAppStore((s) => s.blockFilter);
  const setRoleFilter = useAppStore((s) => s.setRoleFilter);
  const setBlockFilter = useAppStore((s) => s.setBlockFilter);
  return (
    <span className="filters" role="group" aria-labelledby="filters-label">
      <span className="filters-label" id="filters-label" data-testid="filters-label">
        Highlight (others dimmed):
      </span>
      {ROLES.map((r) => (
        <label key={r} className="filter">
          <input
            type="checkbox"
            checked={roleFilter.includes(r)}
            onChange={() => setRoleFilter(toggle(roleFilter, r))}
            data-testid={`filter-role-${r}`}
          />
          {r}
        </label>
      ))}
      <span className="sep">|</span>
      {TYPES.map((t) => (
        <label key={t} className="filter">
          <input
            type="checkbox"
            checked={blockFilter.includes(t)}
            onChange={() => setBlockFilter(toggle(blockFilter, t))}
            data-testid={`filter-block-${t}`}
          />
          {typeWord(t)}
        </label>
      ))}
    </span>
  );
}
