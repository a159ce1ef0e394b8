/**
 * The lesson's policy comparison: at the step's budget, each of the two policies' request
 * verdict, evictions and overshoot, and the meaning each one loses. Shown only while the page is
 * on the step's sample and faults, with a budget, for a step that sets one.
 */
import type { Analysis } from '../../model/analyze.ts';
import { isPolicyId, type PolicyId } from '../../model/evict/registry.ts';
import type { LessonStep } from '../../model/lesson.ts';
import type { TokenTable } from '../../model/tokens.ts';
import { selectPolicyPair } from '../../state/faults.ts';
import { useAppStore } from '../../state/store.ts';
import { LostMeaningList } from '../faults/LostMeaningList.tsx';
import { fmtInt } from '../format.ts';

/**
 * The comparison table and the lost-meaning lists, or nothing.
 * @param onStep whether the page shows the step's sample and faults
 */
export function LearnPolicies({
  step,
  onStep,
  analysis,
  tokens,
  onJump,
}: {
  step: LessonStep;
  onStep: boolean;
  analysis: Analysis;
  tokens: TokenTable;
  onJump: (message: number) => void;
}) {
  const budget = useAppStore((s) => s.budget);
  const policies = useAppStore((s) => s.policies);
  const [pa, pb] = policies;
  const pair =
    onStep && budget !== null && step.state.budgetShare !== null && isPolicyId(pa) && isPolicyId(pb)
      ? selectPolicyPair(
          analysis.transcript,
          tokens,
          analysis.provider,
          // Narrowed just above; the store's tuple itself is passed so the selector's memo holds.
          policies as readonly [PolicyId, PolicyId],
          budget,
        )
      : null;
  if (!pair) return null;
  return (
    <div className="learn-policies" data-testid="learn-policies">
      <p>
        Budget {fmtInt(budget ?? 0)} of {fmtInt(tokens.total)} tokens (
        {Math.round((step.state.budgetShare ?? 0) * 100)} %).
      </p>
      <table>
        <thead>
          <tr>
            <th>policy</th>
            <th>request</th>
            <th>evicted</th>
            <th>overshoot</th>
          </tr>
        </thead>
        <tbody>
          {pair.map(({ result }) => (
            <tr
              key={result.policy}
              data-testid="learn-policy"
              data-policy={result.policy}
              data-valid={result.validation.valid ? 'true' : 'false'}
            >
              <td>{result.policy}</td>
              <td
                className={result.validation.valid ? 'ok' : 'bad'}
                title={result.firstError?.message ?? ''}
              >
                {result.validation.valid ? 'valid' : `400 ${result.firstError?.code ?? ''}`}
              </td>
              <td>{fmtInt(result.evicted.length)} messages</td>
              <td>{result.overshoot === null ? '—' : `${result.overshoot.toFixed(1)}×`}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {pair.map(({ result, lost }) => (
        <details key={result.policy}>
          <summary>
            Lost meaning under {result.policy}: {fmtInt(lost.marks.length)} mark
            {lost.marks.length === 1 ? '' : 's'}
          </summary>
          <LostMeaningList lost={lost} onJump={onJump} />
        </details>
      ))}
    </div>
  );
}
