/**
 * The typed budget box of the eviction simulator. It shows the budget with thousands separators
 * (`fmtInt`, as every figure on the page) and takes a plain number or one typed with separators.
 * It keeps a draft while the user types, so the box can be cleared and retyped: an empty or
 * partial value never snaps back to the store's. A whole number of tokens within 0..total is
 * committed as it is typed. Anything else (`-5`, `abc`, `1e3`, more than the total) puts the
 * budget back to its value from before the edit as soon as it is typed, marks the box
 * `aria-invalid` and says what it takes in a note beside it (a polite status, the box's
 * description; a newcomer typed `abc` and, without Enter, saw nothing); the note goes when a
 * valid value is typed, or on Escape or blur, which restore the shown value. An empty draft
 * left by Enter or blur reverts to the committed value; Escape restores the value from before
 * the edit.
 * Up/Down step one token (Shift: a hundredth of the total), PageUp/PageDown a tenth, as the
 * slider does: a text box (a number box cannot show separators) with the spinbutton role.
 */
import { useId, useState } from 'react';
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
 * A typed value as a budget in tokens, or null when it is not a whole number of tokens written
 * in digits. Thousands separators are ignored: `150,000`, `150 000` and `150000` are the same
 * budget. Signs, decimals and exponents (`-5`, `1.5`, `1e3`) are refused: the box shows and takes
 * digits with separators, and `Number` alone would also have read `0x10` as 16.
 */
export function parseBudgetDraft(draft: string): number | null {
  const plain = draft.replace(SEPARATORS, '');
  if (!/^\d+$/.test(plain)) return null;
  const v = Number(plain);
  return Number.isSafeInteger(v) ? v : null;
}

/** A typed value as a budget within 0…total tokens, or null when the box refuses it. */
export function acceptedBudget(draft: string, total: number): number | null {
  const v = parseBudgetDraft(draft);
  return v !== null && v <= total ? v : null;
}

/** The note shown beside a refused value: what the box takes, and that the budget did not move. */
export function budgetRefusalText(total: number, kept: number): string {
  return `Type a whole number of tokens from 0 to ${fmtInt(total)}; the budget stays at ${fmtInt(kept)}.`;
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

/**
 * The box's edit: the draft, the committed value when the edit began, and the handlers that
 * move between them. A non-empty draft the box refuses is `refused` as it is typed.
 */
function useBudgetDraft({ value, total, onCommit }: BudgetInputProps) {
  // null = no edit in progress: the box shows the committed value.
  const [draft, setDraft] = useState<string | null>(null);
  // The committed value when the edit began: Escape (and a refused value) goes back to it.
  const [before, setBefore] = useState<number | null>(null);
  const done = () => {
    setDraft(null);
    setBefore(null);
  };
  // A typed value that is not a budget puts back the budget from before the edit (a prefix of
  // it may have been committed as it was typed: `2` of `2x`).
  const restore = (from: number | null = before) => {
    if (from !== null && from !== value) onCommit(from);
  };
  const onChange = (text: string) => {
    const from = draft === null ? value : before;
    if (draft === null) setBefore(value);
    setDraft(text);
    const v = acceptedBudget(text, total);
    if (v !== null) onCommit(v);
    else if (text.trim() !== '') restore(from);
  };
  const onEnter = () => {
    if (draft === null) return;
    const v = acceptedBudget(draft, total);
    if (v !== null) onCommit(v);
    else restore();
    if (v !== null || draft.trim() === '') done();
  };
  const onLeave = (escape: boolean) => {
    if (draft !== null) {
      const v = escape ? null : acceptedBudget(draft, total);
      if (v !== null) onCommit(v);
      else if (escape || draft.trim() !== '') restore();
    }
    done();
  };
  const onStep = (step: number) => {
    const from = (draft !== null ? parseBudgetDraft(draft) : null) ?? value;
    onCommit(Math.max(0, Math.min(total, Math.round(from) + step)));
    done();
  };
  const refused = draft !== null && draft.trim() !== '' && acceptedBudget(draft, total) === null;
  const note = refused ? budgetRefusalText(total, before ?? value) : '';
  return { draft, note, onChange, onEnter, onLeave, onStep };
}

/** The typed budget box and, beside it, the note on a refused value. */
export function BudgetInput(props: BudgetInputProps) {
  const { value, total } = props;
  const edit = useBudgetDraft(props);
  const noteId = useId();
  return (
    <>
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
        aria-invalid={edit.note ? true : undefined}
        aria-describedby={edit.note ? noteId : undefined}
        autoComplete="off"
        spellCheck={false}
        value={edit.draft ?? fmtInt(value)}
        onChange={(e) => edit.onChange(e.target.value)}
        onKeyDown={(e) => {
          const step = budgetKeyStep(e.key, e.shiftKey, total);
          if (step !== null) edit.onStep(step);
          else if (e.key === 'Enter') edit.onEnter();
          else if (e.key === 'Escape') {
            edit.onLeave(true);
            e.stopPropagation();
          } else return;
          e.preventDefault();
        }}
        onBlur={() => edit.onLeave(false)}
      />
      <span id={noteId} className="budget-note" role="status" data-testid="budget-note">
        {edit.note}
      </span>
    </>
  );
}
