/**
 * A whole-number option in words: "keep newest [3] exchanges". One labelled number input (its
 * accessible name says the whole option), the words before and after it, and the count it
 * reports: a whole number, at least `min` (a blank or a non-number reads as `min`).
 */
import type { ReactNode } from 'react';

/** What typed text counts as: its whole part, at least `min` (blank or not a number: `min`). */
export function countOf(text: string, min: number): number {
  return Math.max(min, Math.floor(Number(text) || 0));
}

export interface CountFieldProps {
  /** The words before the input ("keep newest"). */
  before: ReactNode;
  /** The words after it ("exchanges"). */
  after: ReactNode;
  /** The input's accessible name: the whole option ("Keep the newest N exchanges"). */
  label: string;
  value: number;
  /** The least count (default 0). */
  min?: number;
  /** The arrows' step (default 1). */
  step?: number;
  onChange: (count: number) => void;
}

/** One count option in words, its input between them (`.small-num`, budget.css). */
export function CountField({
  before,
  after,
  label,
  value,
  min = 0,
  step = 1,
  onChange,
}: CountFieldProps) {
  return (
    <label>
      {before}{' '}
      <input
        type="number"
        min={min}
        step={step}
        className="small-num"
        aria-label={label}
        value={value}
        onChange={(e) => onChange(countOf(e.target.value, min))}
      />{' '}
      {after}
    </label>
  );
}
