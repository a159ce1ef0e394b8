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
  /** Row label of a message (`#12`, as the timeline shows it); default: its position. */
  labelOf?: (message: number) => string;
}

export function LostMeaningList({ lost, onJump, labelOf = String }: LostMeaningListProps) {
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
                  ? `repeated call, message ${labelOf(m.messageIndex)}`
                  : `evicted instruction, message ${labelOf(m.messageIndex)}`}
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
