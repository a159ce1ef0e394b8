/**
 * One compared policy: its picker and options, the kept tokens against the budget, deficit,
 * freed, overshoot, fits, and the verdict of the kept request — "valid" or the exact error body
 * the provider returns, with a jump to the message that holds the cause.
 */
import { ruleWords } from '../../model/ruleWords.ts';
import { useState } from 'react';
import { DEFAULT_SUMMARY_TOKENS, POLICIES, type PolicyResult } from '../../model/evict/policies.ts';
import { DEFAULT_KEEP_TOOL_USES } from '../../model/evict/policy/clearToolResults.ts';
import { POLICY_REGISTRY, type PolicyId } from '../../model/evict/registry.ts';
import type { LostMeaning } from '../../model/lostMeaning.ts';
import type { Transcript } from '../../model/types.ts';
import type { EvictionContext } from '../../model/evict/policies.ts';
import { causeLabel, messageLabels } from '../../model/messageLabels.ts';
import { evictedCount, type PolicyChoice } from '../../state/eviction.ts';
import { useAppStore } from '../../state/store.ts';
import { CountField } from './CountField.tsx';
import { PolicyError, PolicyFigures } from './PolicyFigures.tsx';
import { selectSimulatorLostMeaning } from './SimulatorLostMeaning.tsx';
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

/** The card's lost-meaning figure: the marks, and whether the simulator lists them below. */
function lostOf(
  marks: LostMeaning | null,
  primary: boolean,
  onJump: (message: number) => void,
): { marks: LostMeaning; listedBelow: boolean; onJump: (message: number) => void } | null {
  return marks ? { marks, listedBelow: primary, onJump } : null;
}

/** One policy's card: head, verdict, options, figures and, for a 400, the error body. */
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
  const valid = r.validation.valid;
  const err = r.firstError;
  // Our index (a retry copy or split message shares its raw index); −1 for the summary message.
  const causeMessage = err ? err.index : -1;
  const labels = messageLabels(transcript.messages);
  const cause = err ? causeLabel(labels, err) : '';
  // The row the provider's path names, when it is not the cause's (O2, B2).
  const pathLabel = err?.pathIndex !== undefined ? labels.of(err.pathIndex) : null;
  const evicted = evictedCount(ctx, choice, r.cut);
  return (
    <section
      className={`policy-card ${valid ? 'valid' : 'invalid'}`}
      data-testid="policy-card"
      data-side={side}
      data-policy={r.policy}
      data-valid={valid ? 'true' : 'false'}
      data-fits={r.fits ? 'true' : 'false'}
    >
      <PolicyHead side={side} id={choice.id} />
      {/* The card's answer first, then its figures, then the options that change them: a capped
          simulator panel must not hide the verdict or the freed / overshoot figures. */}
      <PolicyVerdictLine result={r} approx={approx} providerLabel={providerLabel} />
      <PolicyFigures
        result={r}
        evicted={evicted}
        approx={approx}
        lost={lostOf(selectSimulatorLostMeaning(transcript, r), side === 0, onJump)}
      />
      <PolicyOptionInputs choice={choice} />
      {!valid && err && (
        <PolicyError
          err={err}
          causeMessage={causeMessage}
          causeLabel={cause}
          pathLabel={pathLabel}
          providerLabel={providerLabel}
          onJump={onJump}
          full={full}
          setFull={setFull}
        />
      )}
    </section>
  );
}

/** The card's head: its swatch, the policy picker and, on the primary card, its role. */
function PolicyHead({ side, id }: { side: 0 | 1; id: PolicyId }) {
  const policies = useAppStore((s) => s.policies);
  const setPolicies = useAppStore((s) => s.setPolicies);
  return (
    <header className="policy-head">
      <span className={`policy-swatch side-${side}`} aria-hidden="true" />
      <select
        aria-label={side === 0 ? 'Primary policy' : 'Compared policy'}
        data-testid="policy-select"
        value={id}
        title={POLICY_REGISTRY[id].help}
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
  );
}

/** The verdict of the kept request: valid (maybe over budget) or the provider's HTTP error. */
function PolicyVerdictLine({
  result: r,
  approx,
  providerLabel,
}: {
  result: PolicyResult;
  approx: boolean;
  providerLabel: string;
}) {
  const err = r.firstError;
  if (!r.validation.valid)
    return (
      <p className="policy-verdict invalid" data-testid="policy-verdict">
        HTTP {err?.status ?? 400} from {providerLabel}
        {err ? ` · [${err.code}] ${ruleWords(err.rule)}` : ''}
      </p>
    );
  const verdict = policyVerdict(r, approx);
  return (
    <p
      className={`policy-verdict ${verdict.kind === 'ok' ? 'valid' : 'over'}`}
      data-testid="policy-verdict"
    >
      {verdict.long}
    </p>
  );
}

/** The policy's options (those its registry entry offers), kept per policy in the store. */
function PolicyOptionInputs({ choice }: { choice: PolicyChoice }) {
  const policyOptions = useAppStore((s) => s.policyOptions);
  const setPolicyOptions = useAppStore((s) => s.setPolicyOptions);
  const offers = POLICY_REGISTRY[choice.id].options;
  const setOption = (patch: Record<string, unknown>) => {
    const cur =
      (policyOptions as Record<string, Record<string, unknown> | undefined>)[choice.id] ?? {};
    setPolicyOptions({
      ...policyOptions,
      [choice.id]: {
        pinFirst: choice.options.pinFirst ?? false,
        keepNewestExchanges: choice.options.keepNewestExchanges ?? 0,
        summaryTokens: choice.options.summaryTokens ?? null,
        keepToolUses: choice.options.keepToolUses ?? null,
        ...cur,
        ...patch,
      },
    });
  };
  return (
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
      <CountField
        before="keep newest"
        after="exchanges"
        label="Keep the newest N exchanges"
        value={choice.options.keepNewestExchanges ?? 0}
        onChange={(n) => setOption({ keepNewestExchanges: n })}
      />
      {offers.includes('keepToolUses') && (
        <CountField
          before="keep"
          after="tool uses"
          label="Keep the results of the newest N tool uses"
          value={choice.options.keepToolUses ?? DEFAULT_KEEP_TOOL_USES}
          onChange={(n) => setOption({ keepToolUses: n })}
        />
      )}
      {offers.includes('summaryTokens') && (
        <CountField
          before="summary"
          after="tokens"
          label="Summary size in tokens"
          step={50}
          value={choice.options.summaryTokens ?? DEFAULT_SUMMARY_TOKENS}
          onChange={(n) => setOption({ summaryTokens: n })}
        />
      )}
    </div>
  );
}
