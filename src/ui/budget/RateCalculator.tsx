/**
 * The rate calculator beside the sweep chart: how often a session meets the 400, from the share
 * of sessions that compact and the share of cuts that break.
 */
import { useState } from 'react';
import { fmtInt } from '../format.ts';
import { fmtPercent, oneIn } from './contextWindows.ts';

/** A percentage field (0–100; anything else typed is clamped, a non-number reads as 0). */
function PercentInput(props: { value: number; label: string; onChange: (pct: number) => void }) {
  const { value, label, onChange } = props;
  return (
    <input
      type="number"
      className="small-num"
      min={0}
      max={100}
      value={value}
      aria-label={label}
      onChange={(e) => onChange(Math.max(0, Math.min(100, Number(e.target.value) || 0)))}
    />
  );
}

/**
 * share of sessions that compact × share of compactions that break = one session in N. Raising
 * the trigger lowers the first factor only: fewer sessions break, each the same way.
 */
export function RateCalculator({ policy, breakShare }: { policy: string; breakShare: number }) {
  const [compactPct, setCompactPct] = useState(20);
  const [raisedPct, setRaisedPct] = useState(5);
  const n = oneIn(compactPct / 100, breakShare);
  const nRaised = oneIn(raisedPct / 100, breakShare);
  const fmtN = (x: number | null) =>
    x === null ? 'none' : `one session in ${fmtInt(Math.max(1, x))}`;
  return (
    <div className="rate-calc" data-testid="rate-calc">
      <div>
        <label>
          sessions that compact{' '}
          <PercentInput
            value={compactPct}
            label="Share of sessions that reach the compaction trigger, percent"
            onChange={setCompactPct}
          />{' '}
          %
        </label>{' '}
        × cuts that break ({policy}) <b>{fmtPercent(breakShare * 100)}</b> ={' '}
        <b data-testid="rate-one-in">{fmtN(n)}</b> gets a 400.
      </div>
      <div>
        <label>
          raise the trigger, so only{' '}
          <PercentInput
            value={raisedPct}
            label="Share of sessions that compact after raising the trigger, percent"
            onChange={setRaisedPct}
          />{' '}
          % compact
        </label>
        : <b data-testid="rate-one-in-raised">{fmtN(nRaised)}</b> — the rate changes, not the
        failure: each of those compactions still breaks {fmtPercent(breakShare * 100)} of the time
        with the same 400.
      </div>
    </div>
  );
}
