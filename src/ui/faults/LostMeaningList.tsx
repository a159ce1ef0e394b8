/**
 * Lost-meaning marks of an eviction (model/lostMeaning.ts): kept calls that repeat a call whose
 * result was evicted, and evicted user messages later messages still refer to, with the
 * heuristic's limits one click away.
 */
import type { LostMeaning } from '../../model/lostMeaning.ts';
import './faults.css';

export interface LostMeaningListProps {
  lost: LostMeaning;
  onJump: (message: number) => void;
}

/** The marks name messages by their own row labels (`#12`, `#3.2`), as the timeline rows do. */
export function LostMeaningList({ lost, onJump }: LostMeaningListProps) {
  return (
    <div className="lost-meaning" data-testid="lost-meaning">
      {lost.marks.length === 0 ? (
        <p className="lost-none">No lost meaning detected by the heuristic.</p>
      ) : (
        <ul>
          {lost.marks.map((m, i) => (
            <li key={i} data-testid="lost-mark" data-kind={m.kind} className={`lost-${m.kind}`}>
              <button type="button" className="linklike" onClick={() => onJump(m.messageIndex)}>
                {m.kind === 'repeated_call'
                  ? `repeated call, message ${m.label}`
                  : m.kind === 'cleared_reference'
                    ? `cleared result, message ${m.label}`
                    : `evicted instruction, message ${m.label}`}
              </button>
              : {m.note}
            </li>
          ))}
        </ul>
      )}
      <details>
        <summary>What this cannot see</summary>
        <ul>
          {lost.limits.map((l, i) => (
            <li key={i}>{l}</li>
          ))}
        </ul>
      </details>
    </div>
  );
}
