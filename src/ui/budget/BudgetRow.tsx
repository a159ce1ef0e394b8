/**
 * The simulator's budget row: the slider in tokens (arrow keys step one token, Shift+arrow a
 * hundredth of the total, PageUp/PageDown a tenth), the typed value, Reset, and the context
 * window reading ("compact at N % of the window").
 */
import { useState } from 'react';
import { fmtInt } from '../format.ts';
import { BudgetInput } from './BudgetInput.tsx';
import {
  CUSTOM_WINDOW,
  defaultWindowFor,
  windowsFor,
  windowReadingText,
} from './contextWindows.ts';

export interface BudgetRowProps {
  /** The store's budget (null = no budget: Reset is disabled). */
  storeBudget: number | null;
  /** The budget shown, clamped to 0…total, in tokens. */
  shownBudget: number;
  /** The transcript's total tokens (the slider's maximum). */
  total: number;
  /** True when token counts are estimates (`≈`). */
  approx: boolean;
  /** Sets a budget, rounded and clamped to 0…total. */
  setClamped: (v: number) => void;
  /** Clears the budget (nothing evicted). */
  onReset: () => void;
  /** The transcript's model name and the provider id, for the default context window. */
  model: string | undefined;
  provider: string;
}

/**
 * The step a slider key moves the budget, in tokens (signed), or null for a key the slider
 * handles natively (a plain arrow steps one token).
 */
function sliderKeyStep(key: string, shiftKey: boolean, total: number): number | null {
  if (key === 'PageUp' || key === 'PageDown') {
    const step = Math.max(1, Math.round(total / 10));
    return key === 'PageUp' ? step : -step;
  }
  if (shiftKey && (key === 'ArrowLeft' || key === 'ArrowRight')) {
    // A hundredth of the total: one token is too fine on a long log.
    const step = Math.max(1, Math.round(total / 100));
    return key === 'ArrowRight' ? step : -step;
  }
  return null;
}

/** The budget slider, its typed value, Reset and the window reading. */
export function BudgetRow({
  storeBudget,
  shownBudget,
  total,
  approx,
  setClamped,
  onReset,
  model,
  provider,
}: BudgetRowProps) {
  return (
    <div className="budget-row">
      <label className="budget-label" htmlFor="budget-slider">
        Budget
      </label>
      <input
        id="budget-slider"
        type="range"
        className="budget-slider"
        data-testid="budget-slider"
        min={0}
        max={total}
        step={1}
        value={shownBudget}
        aria-valuetext={`${fmtInt(shownBudget)} tokens`}
        onChange={(e) => setClamped(Number(e.target.value))}
        onKeyDown={(e) => {
          const step = sliderKeyStep(e.key, e.shiftKey, total);
          if (step === null) return;
          e.preventDefault();
          setClamped(shownBudget + step);
        }}
      />
      <BudgetInput value={shownBudget} total={total} onCommit={setClamped} />
      <span className="muted">
        / {approx ? '≈' : ''}
        {fmtInt(total)} tokens
      </span>
      <button
        type="button"
        data-testid="budget-reset"
        disabled={storeBudget === null}
        onClick={onReset}
        title="No budget: nothing evicted"
      >
        Reset
      </button>
      <WindowReading model={model} provider={provider} budget={shownBudget} />
    </div>
  );
}

/** The context window (a small per-model table or a typed value) and the budget as a share of it. */
function WindowReading({
  model,
  provider,
  budget,
}: {
  model: string | undefined;
  provider: string;
  budget: number;
}) {
  const windows = windowsFor(provider);
  const preset = defaultWindowFor(model, provider);
  const [choice, setChoice] = useState<string | null>(null);
  const [custom, setCustom] = useState(200_000);
  // A choice made under another provider that this one does not offer falls back to its preset.
  const chosen =
    choice === CUSTOM_WINDOW ? undefined : windows.find((w) => w.id === (choice ?? preset?.id));
  const id = chosen?.id ?? (choice === CUSTOM_WINDOW || !preset ? CUSTOM_WINDOW : preset.id);
  const windowTokens = id === CUSTOM_WINDOW ? custom : ((chosen ?? preset)?.tokens ?? custom);
  return (
    <span className="window-reading">
      <label>
        window{' '}
        <select
          data-testid="window-select"
          aria-label="Context window"
          value={id}
          onChange={(e) => setChoice(e.target.value)}
        >
          {windows.map((w) => (
            <option key={w.id} value={w.id} title={`${w.source} (as of ${w.asOf})`}>
              {w.label}
            </option>
          ))}
          <option value={CUSTOM_WINDOW}>type a value…</option>
        </select>
      </label>
      {id === CUSTOM_WINDOW && (
        <input
          type="number"
          className="window-input"
          aria-label="Context window in tokens"
          min={1}
          value={custom}
          onChange={(e) => setCustom(Math.max(1, Math.floor(Number(e.target.value) || 1)))}
        />
      )}
      <span data-testid="window-percent">{windowReadingText(budget, windowTokens)}</span>
    </span>
  );
}
