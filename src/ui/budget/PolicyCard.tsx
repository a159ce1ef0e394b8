/**
 * One compared policy: its picker and options, the kept tokens against the budget, deficit,
 * freed, overshoot, fits, and the verdict of the kept request — "valid" or the exact error body
 * the provider returns, with a jump to the message that holds the cause.
 */
import { useState } from 'react';
import { DEFAULT_SUMMARY_TOKENS, POLICIES, type PolicyResult } from '../../model/evict/policies.ts';
import { POLICY_REGISTRY } from '../../model/evict/registry.ts';
import type { Transcript } from '../../model/types.ts';
import type { EvictionContext } from '../../model/evict/policies.ts';
import { messageLabels } from '../../model/messageLabels.ts';
import { evictedCount, type PolicyChoice } from '../../state/eviction.ts';
import { useAppStore } from '../../state/store.ts';
import { fmtInt, prettyJson } from '../format.ts';
import { policyVerdict } from './policyVerdict.ts';

export interface PolicyCardProps {
  side: 0 | 1;
  choice: PolicyChoice;
  result: PolicyResult;
  /** The context the result came from (to count evicted messages without listing them). */
  ctx: EvictionContext;
  transcript: Transcript;
  providerLabel: string;
  /** True when token counts are estimates for this provider (`≈`). */
  approx: boolean;
  onJump: (message: number) => void;
}

export function PolicyCard({
  side,
  choice,
  result: r,
  ctx,
  transcript,
  providerLabel,
  approx,
  onJump,
}: PolicyCardProps) {
  const [full, setFull] = useState(false);
  const policies = useAppStore((s) => s.policies);
  const setPolicies = useAppStore((s) => s.setPolicies);
  const policyOptions = useAppStore((s) => s.policyOptions);
  const setPolicyOptions = useAppStore((s) => s.setPolicyOptions);
  const offers = POLICY_REGISTRY[choice.id].options;
  const valid = r.validation.valid;
  const err = r.firstError;
  // Our index (a retry copy or split message shares its raw index); −1 for the summary message.
  const causeMessage = err ? err.index : -1;
  const causeLabel =
    err && causeMessage >= 0
      ? messageLabels(transcript.messages).of(causeMessage)
      : `#${err?.messageIndex ?? ''}`;
  const t = approx ? '≈' : '';
  const setOption = (patch: Record<string, unknown>) => {
    const cur =
      (policyOptions as Record<string, Record<string, unknown> | undefined>)[choice.id] ?? {};
    setPolicyOptions({
      ...policyOptions,
      [choice.id]: {
        pinFirst: choice.options.pinFirst ?? false,
        keepNewestExchanges: choice.options.keepNewestExchanges ?? 0,
        summaryTokens: choice.options.summaryTokens ?? null,
        ...cur,
        ...patch,
      },
    });
  };
  const evicted = evictedCount(ctx, choice, r.cut);
  const verdict = policyVerdict(r, approx);
  const keptPct = r.budget > 0 ? Math.min(100, (r.tokensKept / r.budget) * 100) : 100;
  return (
    <section
      className={`policy-card ${valid ? 'valid' : 'invalid'}`}
      data-testid="policy-card"
      data-side={side}
      data-policy={r.policy}
      data-valid={valid ? 'true' : 'false'}
      data-fits={r.fits ? 'true' : 'false'}
    >
      <header className="policy-head">
        <span className={`policy-swatch side-${side}`} aria-hidden="true" />
        <select
          aria-label={side === 0 ? 'Primary policy' : 'Compared policy'}
          data-testid="policy-select"
          value={choice.id}
          title={POLICY_REGISTRY[choice.id].help}
          onChange={(e) => {
            const next: [string, string] = [policies[0], policies[1]];
            next[side] = e.target.value;
            setPolicies(next);
          }}
        >
          {POLICIES.map((p) => (
            <option key={p} value={p}>
              {p}
            </option>
          ))}
        </select>
        {side === 0 && (
          <span
            className="policy-role"
            title="The primary policy greys the rows it evicts and reddens the arcs it breaks"
          >
            primary
          </span>
        )}
      </header>
      {/* The card's answer first: a capped simulator panel must not hide it below the figures. */}
      {valid ? (
        <p
          className={`policy-verdict ${verdict.kind === 'ok' ? 'valid' : 'over'}`}
          data-testid="policy-verdict"
        >
          {verdict.long}
        </p>
      ) : (
        <p className="policy-verdict invalid" data-testid="policy-verdict">
          HTTP {err?.status ?? 400} from {providerLabel}
          {err ? ` · [${err.code}] ${err.rule}` : ''}
        </p>
      )}
      <div className="policy-options">
        {offers.includes('pinFirst') && (
          <label>
            <input
              type="checkbox"
              checked={choice.options.pinFirst === true}
              onChange={(e) => setOption({ pinFirst: e.target.checked })}
            />{' '}
            pin first message
          </label>
        )}
        <label>
          keep newest{' '}
          <input
            type="number"
            min={0}
            step={1}
            className="small-num"
            aria-label="Keep the newest N exchanges"
            value={choice.options.keepNewestExchanges ?? 0}
            onChange={(e) =>
              setOption({
                keepNewestExchanges: Math.max(0, Math.floor(Number(e.target.value) || 0)),
              })
            }
          />{' '}
          exchanges
        </label>
        {offers.includes('summaryTokens') && (
          <label>
            summary{' '}
            <input
              type="number"
              min={0}
              step={50}
              className="small-num"
              aria-label="Summary size in tokens"
              value={choice.options.summaryTokens ?? DEFAULT_SUMMARY_TOKENS}
              onChange={(e) =>
                setOption({ summaryTokens: Math.max(0, Math.floor(Number(e.target.value) || 0)) })
              }
            />{' '}
            tokens
          </label>
        )}
      </div>
      <div
        className="kept-bar"
        title={`kept ${fmtInt(r.tokensKept)} of a ${fmtInt(r.budget)}-token budget`}
      >
        <span className={`kept-fill${r.fits ? '' : ' over'}`} style={{ width: `${keptPct}%` }} />
      </div>
      <dl className="policy-figures">
        <div>
          <dt>kept</dt>
          <dd data-testid="policy-kept">
            {t}
            {fmtInt(r.tokensKept)} / {fmtInt(r.budget)}
          </dd>
        </div>
        <div>
          <dt>deficit</dt>
          <dd data-testid="policy-deficit">
            {t}
            {fmtInt(r.deficit)}
          </dd>
        </div>
        <div>
          <dt>freed</dt>
          <dd data-testid="policy-freed">
            {t}
            {fmtInt(r.freed)}
          </dd>
        </div>
        <div>
          <dt>overshoot</dt>
          <dd data-testid="policy-overshoot" title="tokens freed ÷ deficit (1× = exact fit)">
            {r.overshoot === null ? '—' : `${r.overshoot.toFixed(2)}×`}
          </dd>
        </div>
        <div>
          <dt>fits</dt>
          <dd data-testid="policy-fits" className={r.fits ? '' : valid ? 'warn' : 'bad'}>
            {r.fits ? 'yes' : 'no: cannot drop more'}
          </dd>
        </div>
        <div>
          <dt>evicted</dt>
          <dd data-testid="policy-evicted">
            {fmtInt(evicted)} message{evicted === 1 ? '' : 's'}
            {r.summary ? ` → one ${fmtInt(r.summary.tokens)}-token summary` : ''}
          </dd>
        </div>
      </dl>
      {!valid && err && (
        <div className="policy-error">
          <button
            type="button"
            className="jump"
            data-testid="policy-jump"
            disabled={causeMessage < 0}
            onClick={() => onJump(causeMessage)}
          >
            Jump to its cause: message {causeLabel}
          </button>
          {/* Four lines by default (the timeline keeps its height); the whole body on demand.
              Focusable, so its scroll works from the keyboard. */}
          <pre
            className={`policy-error-body${full ? ' full' : ''}`}
            data-testid="policy-error-body"
            tabIndex={0}
            aria-label={`HTTP ${err.status} body from ${providerLabel}`}
          >
            {prettyJson(err.error)}
          </pre>
          <button
            type="button"
            className="body-toggle"
            data-testid="policy-body-toggle"
            aria-expanded={full}
            onClick={() => setFull((f) => !f)}
          >
            {full ? 'Show less' : 'Show the whole body'}
          </button>
        </div>
      )}
    </section>
  );
}
