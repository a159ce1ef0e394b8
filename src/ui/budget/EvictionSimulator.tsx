/**
 * The eviction simulator panel (issue 4): a budget slider in tokens (0 to the transcript's total;
 * arrow keys step one token, Shift+arrow a hundredth, PageUp/PageDown a tenth; and a typed value),
 * the context window and the "compact at N % of the window" reading, the two compared policies
 * side by side, and the sweep chart with the rate calculator. The timeline shows the same
 * eviction (greyed rows, two lanes, red arcs, cut markers) from the same `SimulatorModel`.
 */
import type { SyntheticEvent } from 'react';
import type { PolicyResult } from '../../model/evict/policies.ts';
import type { TokenTable } from '../../model/tokens.ts';
import type { Transcript } from '../../model/types.ts';
import { useAppStore } from '../../state/store.ts';
import { fmtInt } from '../format.ts';
import { BudgetRow } from './BudgetRow.tsx';
import { PolicyCard } from './PolicyCard.tsx';
import { policyVerdict, verdictClass } from './policyVerdict.ts';
import { SimulatorLostMeaning } from './SimulatorLostMeaning.tsx';
import { SweepChart } from './SweepChart.tsx';
import { useWholeLogShown } from '../strip/useWholeLogShown.ts';
import type { SimulatorModel } from './useEviction.ts';
import { WhatIfRows } from './WhatIfRows.tsx';
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

/** The simulator panel (a `<details>`); while the file is still read, only the provisional note. */
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
  const wholeLog = useWholeLogShown(transcript.format);
  const total = tokens.total;
  const shownBudget = storeBudget === null ? total : Math.max(0, Math.min(total, storeBudget));
  const approx = !tokens.basis.exact;
  const [a, b] = model.view.results;
  const setClamped = (v: number) => setBudget(Math.max(0, Math.min(total, Math.round(v))));
  const onToggle = (e: SyntheticEvent<HTMLDetailsElement>) => {
    if (e.currentTarget.open !== open) onOpenChange?.(e.currentTarget.open);
  };
  if (provisional)
    return <ProvisionalSimulator name={provisional} open={open} onToggle={onToggle} />;
  const card = (side: 0 | 1, result: PolicyResult) => (
    <PolicyCard
      side={side}
      choice={model.choices[side]}
      result={result}
      ctx={model.ctx}
      transcript={transcript}
      providerLabel={providerLabel}
      approx={approx}
      onJump={onJump}
    />
  );
  return (
    <details className="simulator" data-testid="simulator" open={open} onToggle={onToggle}>
      <SimulatorSummary
        storeBudget={storeBudget}
        shownBudget={shownBudget}
        total={total}
        a={a}
        b={b}
        approx={approx}
        estimate={tokens.basis.encoding === 'chars/4'}
        wholeLog={wholeLog}
      />
      <BudgetRow
        storeBudget={storeBudget}
        shownBudget={shownBudget}
        total={total}
        approx={approx}
        setClamped={setClamped}
        onReset={() => setBudget(null)}
        model={transcript.settings.model}
        provider={model.ctx.cuts.provider}
      />
      <TimelineLegend
        a={a.policy}
        b={b.policy}
        basisLabel={tokens.basis.label}
        edited={(a.edits?.length ?? 0) > 0}
      />
      <div className="simulator-grid">
        {card(0, a)}
        {card(1, b)}
        <SweepChart
          sweeps={model.sweeps}
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
      {storeBudget !== null && <CutsDiffButton />}
      <WhatIfRows ctx={model.ctx} choices={model.choices} />
    </details>
  );
}

/**
 * Opens the diff view on the two policies' cuts at the budget (`d=cuts`): which messages each
 * policy keeps, row by row, and the pairing a cut breaks. The strip's "Diff with previous" opens
 * the same view for a file of several requests; a single request reaches it here.
 */
function CutsDiffButton() {
  const setDiff = useAppStore((s) => s.setDiff);
  return (
    <p className="simulator-diff">
      <button type="button" onClick={() => setDiff({ kind: 'cuts' })} data-testid="open-cuts-diff">
        Diff the two policies’ cuts
      </button>
    </p>
  );
}

/** The collapsed panel while the file is still being read: the verdicts wait for its end. */
function ProvisionalSimulator({
  name,
  open,
  onToggle,
}: {
  name: string;
  open: boolean;
  onToggle: (e: SyntheticEvent<HTMLDetailsElement>) => void;
}) {
  return (
    <details
      className="simulator"
      data-testid="simulator"
      data-provisional="true"
      open={open}
      onToggle={onToggle}
    >
      <summary>Eviction simulator · provisional: waiting for the whole file</summary>
      <p className="muted basis-note" data-testid="simulator-provisional">
        The policies are compared once {name} is read to its end: cuts of its first messages would
        give verdicts the whole request does not get.
      </p>
    </details>
  );
}

/**
 * The panel while the worker prepares a long transcript's eviction parts (they follow the answer:
 * the verdict, rows and counts are shown first, issue 38). Replaced by the simulator when they
 * arrive, a moment later. With `reading`: while the page reads the messages' texts from a large
 * file before it prepares them itself (`evictionReading`).
 */
export function PreparingSimulator({
  open,
  onOpenChange,
  reading = false,
}: {
  open: boolean;
  onOpenChange?: ((open: boolean) => void) | undefined;
  reading?: boolean;
}) {
  const onToggle = (e: SyntheticEvent<HTMLDetailsElement>) => {
    if (e.currentTarget.open !== open) onOpenChange?.(e.currentTarget.open);
  };
  return (
    <details
      className="simulator"
      data-testid="simulator"
      data-preparing="true"
      open={open}
      onToggle={onToggle}
    >
      <summary>Eviction simulator · preparing the policies’ cuts…</summary>
      <p className="muted basis-note" data-testid="simulator-preparing">
        {reading
          ? 'The messages are being read from the file; the cut points of every policy are prepared once they are all read.'
          : 'The cut points of every policy are being prepared for this transcript, off the page.'}
      </p>
    </details>
  );
}

/** The panel's summary line: the budget and each policy's verdict (policyVerdict.ts). */
function SimulatorSummary({
  storeBudget,
  shownBudget,
  total,
  a,
  b,
  approx,
  estimate,
  wholeLog,
}: {
  storeBudget: number | null;
  shownBudget: number;
  total: number;
  a: PolicyResult;
  b: PolicyResult;
  approx: boolean;
  /** Counted at chars/4 while the tokenizer loads: every figure below is an estimate. */
  estimate: boolean;
  /** A session log shown whole: the cuts judged are of the log as one request no call sent. */
  wholeLog: boolean;
}) {
  const va = policyVerdict(a, approx);
  const vb = policyVerdict(b, approx);
  return (
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
      {wholeLog && (
        <span className="estimate-tag" data-testid="simulator-whole-log">
          {' '}
          · cuts of the log as one request (never sent)
        </span>
      )}
      {estimate && (
        <span className="estimate-tag" data-testid="simulator-estimate">
          {' '}
          · estimates until the tokenizer loads
        </span>
      )}
    </summary>
  );
}

/** What the timeline's marks mean (greyed rows, the two lanes, the cut markers). */
function TimelineLegend({
  a,
  b,
  basisLabel,
  edited,
}: {
  a: string;
  b: string;
  basisLabel: string;
  /** Whether the primary policy cleared blocks it keeps (a rewriting policy's edits). */
  edited: boolean;
}) {
  return (
    <ul
      className="legend basis-note"
      data-testid="simulator-basis"
      aria-label="Timeline marks"
      title={`Tokens: ${basisLabel}. Cut marker: drop every message above it, system pinned.`}
    >
      <li>Timeline:</li>
      <li>
        <span className="swatch sw-evicted" aria-hidden="true" />
        rows greyed = evicted by {a}
      </li>
      {edited && (
        <li data-testid="legend-edited">
          <span className="swatch sw-edited" aria-hidden="true" />
          rows edged, chips dashed = a result or input in them cleared by {a}
        </li>
      )}
      <li>
        <span className="swatch sw-lane-a" aria-hidden="true" />
        <span className="swatch sw-lane-b" aria-hidden="true" />
        lanes at the right = {a} | {b}
      </li>
      <li>
        <span className="swatch sw-cut-safe" aria-hidden="true" />
        <span className="swatch sw-cut-unsafe" aria-hidden="true" />
        dots between rows = cut there: green safe, red a 400 (hover or focus for the body)
      </li>
    </ul>
  );
}
