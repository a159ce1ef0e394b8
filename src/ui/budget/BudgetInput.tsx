/**
 * The typed budget box of the eviction simulator. It keeps a draft while the user types, so the
 * box can be cleared and retyped: an empty or partial value never snaps back to the store's.
 * A valid whole number is committed as it is typed (clamped to 0..total tokens); Enter and blur
 * commit the draft (an empty or invalid draft reverts to the committed value); Escape restores
 * the value from before the edit.
 */
import { useState } from 'react';

export interface BudgetInputProps {
  /** The committed budget shown, in tokens. */
  value: number;
  /** The transcript's total, in tokens (the box's maximum). */
  total: number;
  /** Commit a budget in tokens (the caller clamps it). */
  onCommit: (tokens: number) => void;
}

/** A typed value as a budget in tokens, or null when it is not a finite non-negative number. */
export function parseBudgetDraft(draft: string): number | null {
  if (!/\S/.test(draft)) return null;
  const v = Number(draft);
  return Number.isFinite(v) && v >= 0 ? v : null;
}

export function BudgetInput({ value, total, onCommit }: BudgetInputProps) {
  // null = no edit in progress: the box shows the committed value.
  const [draft, setDraft] = useState<string | null>(null);
  // The committed value when the edit began: Escape goes back to it.
  const [before, setBefore] = useState<number | null>(null);
  const commit = () => {
    if (draft === null) return;
    const v = parseBudgetDraft(draft);
    if (v !== null) onCommit(v);
    setDraft(null);
    setBefore(null);
  };
  return (
    <input
      type="number"
      className="budget-input"
      data-testid="budget-input"
      aria-label="Budget in tokens"
      min={0}
      max={total}
      step={1}
      value={draft ?? String(value)}
      onChange={(e) => {
        const text = e.target.value;
        if (draft === null) setBefore(value);
        setDraft(text);
        const v = parseBudgetDraft(text);
        if (v !== null) onCommit(v);
      }}
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          commit();
          e.preventDefault();
        } else if (e.key === 'Escape') {
          if (before !== null) onCommit(before);
          setDraft(null);
          setBefore(null);
          e.preventDefault();
          e.stopPropagation();
        }
      }}
      onBlur={commit}
    />
  );
}
