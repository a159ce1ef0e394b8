/**
 * The eviction simulator panel (issue 4): a budget slider in tokens (0 to the transcript's total;
 * arrow keys step one token, Shift+arrow a hundredth, PageUp/PageDown a tenth; and a typed value),
 * the context window and the "compact at N % of the window" reading, the two compared policies
 * side by side, and the sweep chart with the rate calculator. The timeline shows the same
 * eviction (greyed rows, two lanes, red arcs, cut markers) from the same `SimulatorModel`.
 */
import { useState } from 'react';
import type { TokenTable } from '../../model/tokens.ts';
import type { Transcript } from '../../model/types.ts';
import { useAppStore } from '../../state/store.ts';
import { fmtInt } from '../format.ts';
import {
  CONTEXT_WINDOWS,
  CUSTOM_WINDOW,
  defaultWindowFor,
  windowReadingText,
} from './contextWindows.ts';
import { BudgetInput } from './BudgetInput.tsx';
import { PolicyCard } from './PolicyCard.tsx';
import { policyVerdict, verdictClass } from './policyVerdict.ts';
import { SimulatorLostMeaning } from './SimulatorLostMeaning.tsx';
import { SweepChart } from './SweepChart.tsx';
import type { SimulatorModel } from './useEviction.ts';
import './budget.css';
import './rowMarks.css';

export interface EvictionSimulatorProps {
  model: SimulatorModel;
  transcript: Transcript;
  tokens: TokenTable;
  providerLabel: string;
  onJump: (message: number) => void;
  /** Whether the panel is open (the page keeps the choice; collapsed by default on narrow screens). */
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  /**
   * The file still being read when the rows shown are its first messages (`partialLoadName`):
   * the policy verdicts wait for the whole file; null/undefined = complete.
   */
  provisional?: string | null | undefined;
}

export function EvictionSimulator({
  model,
  transcript,
  tokens,
  providerLabel,
  onJump,
  open = true,
  onOpenChange,
  provisional,
}: EvictionSimulatorProps) {
  const storeBudget = useAppStore((s) => s.budget);
  const setBudget = useAppStore((s) => s.setBudget);
  const total = tokens.total;
  const shownBudget = storeBudget === null ? total : Math.max(0, Math.min(total, storeBudget));
  const approx = !tokens.basis.exact;
  const sweeps = model.sweeps;
  const [a, b] = model.view.results;
  const va = policyVerdict(a, approx);
  const vb = policyVerdict(b, approx);
  const setClamped = (v: number) => setBudget(Math.max(0, Math.min(total, Math.round(v))));
  if (provisional)
    return (
      <details
        className="simulator"
        data-testid="simulator"
        data-provisional="true"
        open={open}
        onToggle={(e) => {
          if (e.currentTarget.open !== open) onOpenChange?.(e.currentTarget.open);
        }}
      >
        <summary>Eviction simulator · provisional: waiting for the whole file</summary>
        <p className="muted basis-note" data-testid="simulator-provisional">
          The policies are compared once {provisional} is read to its end: cuts of its first
          messages would give verdicts the whole request does not get.
        </p>
      </details>
    );
  return (
    <details
      className="simulator"
      data-testid="simulator"
      open={open}
      onToggle={(e) => {
        if (e.currentTarget.open !== open) onOpenChange?.(e.currentTarget.open);
      }}
    >
      <summary>
        Eviction simulator ·{' '}
        {storeBudget === null
          ? 'no budget: nothing evicted'
          : `budget ${fmtInt(shownBudget)} of ${fmtInt(total)} tokens`}
        {' · '}
        <span className={verdictClass(va.kind)} data-testid="simulator-summary-a">
          {a.policy} {va.short}
        </span>
        {' / '}
        <span className={verdictClass(vb.kind)} data-testid="simulator-summary-b">
          {b.policy} {vb.short}
        </span>
      </summary>
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
            // Arrows step one token (native); PageUp/PageDown a tenth of the total.
            if (e.key === 'PageUp' || e.key === 'PageDown') {
              e.preventDefault();
              const step = Math.max(1, Math.round(total / 10));
              setClamped(shownBudget + (e.key === 'PageUp' ? step : -step));
            } else if (e.shiftKey && (e.key === 'ArrowLeft' || e.key === 'ArrowRight')) {
              // Shift+arrow: a hundredth of the total (one token is too fine on a long log).
              e.preventDefault();
              const step = Math.max(1, Math.round(total / 100));
              setClamped(shownBudget + (e.key === 'ArrowRight' ? step : -step));
            }
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
          onClick={() => setBudget(null)}
          title="No budget: nothing evicted"
        >
          Reset
        </button>
        <WindowReading
          model={transcript.settings.model}
          provider={model.ctx.cuts.provider}
          budget={shownBudget}
        />
      </div>
      <ul
        className="legend basis-note"
        data-testid="simulator-basis"
        aria-label="Timeline marks"
        title={`Tokens: ${tokens.basis.label}. Cut marker: drop every message above it, system pinned.`}
      >
        <li>Timeline:</li>
        <li>
          <span className="swatch sw-evicted" aria-hidden="true" />
          rows greyed = evicted by {a.policy}
        </li>
        <li>
          <span className="swatch sw-lane-a" aria-hidden="true" />
          <span className="swatch sw-lane-b" aria-hidden="true" />
          lanes at the right = {a.policy} | {b.policy}
        </li>
        <li>
          <span className="swatch sw-cut-safe" aria-hidden="true" />
          <span className="swatch sw-cut-unsafe" aria-hidden="true" />
          dots between rows = cut there: green safe, red a 400 (hover or focus for the body)
        </li>
      </ul>
      <div className="simulator-grid">
        <PolicyCard
          side={0}
          choice={model.choices[0]}
          result={a}
          ctx={model.ctx}
          transcript={transcript}
          providerLabel={providerLabel}
          approx={approx}
          onJump={onJump}
        />
        <PolicyCard
          side={1}
          choice={model.choices[1]}
          result={b}
          ctx={model.ctx}
          transcript={transcript}
          providerLabel={providerLabel}
          approx={approx}
          onJump={onJump}
        />
        <SweepChart
          sweeps={sweeps}
          messages={transcript.messages.length}
          provider={model.ctx.cuts.provider}
          shown={[a.policy, b.policy]}
          total={total}
          budget={model.view.budget}
          onBudget={setClamped}
        />
      </div>
      {storeBudget !== null && (
        <SimulatorLostMeaning transcript={transcript} result={a} onJump={onJump} />
      )}
    </details>
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
  const preset = defaultWindowFor(model, provider);
  const [choice, setChoice] = useState<string | null>(null);
  const [custom, setCustom] = useState(200_000);
  const id = choice ?? preset.id;
  const windowTokens =
    id === CUSTOM_WINDOW
      ? custom
      : (CONTEXT_WINDOWS.find((w) => w.id === id)?.tokens ?? preset.tokens);
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
          {CONTEXT_WINDOWS.map((w) => (
            <option key={w.id} value={w.id}>
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
