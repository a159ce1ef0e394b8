/**
 * Shown when format detection was ambiguous (two formats matched about equally well, issue 5):
 * names every format that matched, best first with its sniff score, as buttons that set the
 * format override (the Format picker's choice).
 */
import { PARSERS } from '../model/parse/registry.ts';
import type { FormatId } from '../model/types.ts';

export interface AmbiguousFormatProps {
  /** The parse result's candidates, best first; score 0..1. */
  candidates: readonly { format: FormatId; score: number }[];
  /** The format the transcript was read as. */
  current: FormatId;
  onPick: (format: FormatId) => void;
}

const labelOf = (id: FormatId) => PARSERS.find((p) => p.id === id)?.label ?? id;

export function AmbiguousFormat({ candidates, current, onPick }: AmbiguousFormatProps) {
  return (
    <span className="warn ambiguous-format" data-testid="ambiguous-format">
      Format detection was ambiguous: {candidates.length} formats matched. Read as{' '}
      {candidates.map((c) => (
        <button
          key={c.format}
          type="button"
          data-testid="ambiguous-pick"
          data-format={c.format}
          aria-pressed={c.format === current}
          title={`Sniff score ${Math.round(c.score * 100)} %${c.format === current ? ' (read as this now)' : ''}`}
          onClick={() => onPick(c.format)}
        >
          {labelOf(c.format)} ({Math.round(c.score * 100)} %)
        </button>
      ))}
    </span>
  );
}
