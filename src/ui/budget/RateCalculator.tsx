/**
 * The rate calculator beside the sweep chart: how often a session meets the 400, from the share
 * of sessions that compact and the share of cuts that break.
 */
import { useState } from 'react';
import { fmtInt } from '../format.ts';
import { fmtPercent, oneIn } from './contextWindows.ts';

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
          <input
            type="number"
            className="small-num"
            min={0}
            max={100}
            value={compactPct}
            aria-label="Share of sessions that reach the compaction trigger, percent"
            onChange={(e) => setCompactPct(Math.max(0, Math.min(100, Number(e.target.value) || 0)))}
          />{' '}
          %
        </label>{' '}
        × cuts that break ({policy}) <b>{fmtPercent(breakShare * 100)}</b> ={' '}
        <b data-testid="rate-one-in">{fmtN(n)}</b> gets a 400.
      </div>
      <div>
        <label>
          raise the trigger, so only{' '}
          <input
            type="number"
            className="small-num"
            min={0}
            max={100}
            value={raisedPct}
            aria-label="Share of sessions that compact after raising the trigger, percent"
            onChange={(e) => setRaisedPct(Math.max(0, Math.min(100, Number(e.target.value) || 0)))}
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
