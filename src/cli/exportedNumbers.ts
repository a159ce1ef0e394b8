/**
 * Where a link's violations are in the file the page exports with the link's faults: the link's
 * rows keep the source's numbers (`#17.1`, `#17.2`: a retry's two rows of message 17), while the
 * export (Share → "Transcript with the faults", `writeTranscript`) numbers its messages afresh
 * from 0, so `check` on it names the same violations elsewhere (newcomer: A6 and A5 at #17.2 and
 * #17.1 on the page and in the link's check, at messages 12 and 11 in the downloaded file).
 */
import { verdictOf } from '../model/analyze.ts';
import { parseTranscript } from '../model/parse/index.ts';
import type { ProviderId, Transcript } from '../model/types.ts';
import type { Violation } from '../model/validate/index.ts';
import { writeTranscript } from '../model/write.ts';
import { violationAt } from './requestIndex.ts';

/**
 * The note naming where each of `violations` is in the exported file, when a number differs; null
 * when none differs or the export is not judged alike (another list of rules: no pairing made).
 * @param t the transcript with the faults (the one judged); @param provider the provider judged
 * @param violations its verdict's violations, in order. O(transcript): one write, parse and verdict.
 */
export function exportedNumbersNote(
  t: Transcript,
  provider: ProviderId,
  violations: readonly Violation[],
): string | null {
  const parsed = parseTranscript(writeTranscript(t), { format: t.format });
  if (!parsed.ok) return null;
  const there = parsed.value.transcript;
  const other = verdictOf(there, provider).validation.violations;
  if (
    other.length !== violations.length ||
    other.some(
      (v, i) => v.code !== violations[i]?.code || v.ids.join() !== violations[i]?.ids.join(),
    )
  )
    return null;
  const moved: string[] = [];
  violations.forEach((v, i) => {
    const here = violationAt(t.messages, v);
    const at = violationAt(there.messages, other[i] as Violation);
    if (here !== at) moved.push(`${v.code} at ${here} is at message ${at}`);
  });
  if (moved.length === 0) return null;
  return `the transcript with the faults as the page exports it (Share: "Transcript with the faults") numbers its messages afresh from 0, while these rows keep the numbers of the file the link carries: there ${moved.join(', ')}`;
}
