/**
 * The typed budget box of the eviction simulator. It shows the budget with thousands separators
 * (`fmtInt`, as every figure on the page) and takes a plain number or one typed with separators.
 * It keeps a draft while the user types, so the box can be cleared and retyped: an empty or
 * partial value never snaps back to the store's. A valid number is committed as it is typed
 * (clamped to 0..total tokens by the caller); Enter and blur commit the draft (an empty or
 * invalid draft reverts to the committed value); Escape restores the value from before the edit.
 * Up/Down step one token (Shift: a hundredth of the total), PageUp/PageDown a tenth, as the
 * slider does: a text box (a number box cannot show separators) with the spinbutton role.
 */
import { useState } from 'react';
import { fmtInt } from '../format.ts';

export interface BudgetInputProps {
  /** The committed budget shown, in tokens. */
  value: number;
  /** The transcript's total, in tokens (the box's maximum). */
  total: number;
  /** Commit a budget in tokens (the caller clamps it). */
  onCommit: (tokens: number) => void;
}

/** Thousands separators a typed budget may carry: comma, spaces (also no-break, thin), _ and '. */
const SEPARATORS = /[,\s_'’\u00a0\u2009\u202f]/g;

/**
 * A typed value as a budget in tokens, or null when it is not a finite non-negative number.
 * Thousands separators are ignored: `150,000`, `150 000` and `150000` are the same budget.
 */
export function parseBudgetDraft(draft: string): number | null {
  const plain = draft.replace(SEPARATORS, '');
  if (plain === '') return null;
  const v = Number(plain);
  return Number.isFinite(v) && v >= 0 ? v : null;
}

/**
 * The step a key moves the budget, in tokens (signed), or null for a key the box leaves alone:
 * Up/Down one token (Shift: a hundredth of the total), PageUp/PageDown a tenth.
 */
export function budgetKeyStep(key: string, shiftKey: boolean, total: number): number | null {
  const sign = key === 'ArrowUp' || key === 'PageUp' ? 1 : -1;
  if (key === 'PageUp' || key === 'PageDown') return sign * Math.max(1, Math.round(total / 10));
  if (key === 'ArrowUp' || key === 'ArrowDown')
    return sign * (shiftKey ? Math.max(1, Math.round(total / 100)) : 1);
  return null;
}

export function BudgetInput({ value, total, onCommit }: BudgetInputProps) {
  // null = no edit in progress: the box shows the committed value.
  const [draft, setDraft] = useState<string | null>(null);
  // The committed value when the edit began: Escape goes back to it.
  const [before, setBefore] = useState<number | null>(null);
  const done = () => {
    setDraft(null);
    setBefore(null);
  };
  const commit = () => {
    if (draft === null) return;
    const v = parseBudgetDraft(draft);
    if (v !== null) onCommit(v);
    done();
  };
  return (
    <input
      type="text"
      inputMode="numeric"
      role="spinbutton"
      className="budget-input"
      data-testid="budget-input"
      aria-label="Budget in tokens"
      aria-valuemin={0}
      aria-valuemax={total}
      aria-valuenow={value}
      aria-valuetext={`${fmtInt(value)} tokens`}
      autoComplete="off"
      spellCheck={false}
      value={draft ?? fmtInt(value)}
      onChange={(e) => {
        const text = e.target.value;
        if (draft === null) setBefore(value);
        setDraft(text);
        const v = parseBudgetDraft(text);
        if (v !== null) onCommit(v);
      }}
      onKeyDown={(e) => {
        const step = budgetKeyStep(e.key, e.shiftKey, total);
        if (step !== null) {
          const from = (draft !== null ? parseBudgetDraft(draft) : null) ?? value;
          onCommit(Math.max(0, Math.min(total, Math.round(from) + step)));
          done();
          e.preventDefault();
        } else if (e.key === 'Enter') {
          commit();
          e.preventDefault();
        } else if (e.key === 'Escape') {
          if (before !== null) onCommit(before);
          done();
          e.preventDefault();
          e.stopPropagation();
        }
      }}
      onBlur={commit}
    />
  );
}
