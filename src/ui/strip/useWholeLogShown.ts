/**
 * Whether a session log is shown whole (no call chosen in the request strip): what the page then
 * judges — the verdict, the cut dots, the simulator — is the whole log as one request, which no
 * model call sent (rows a compaction removed included), and each of them says so.
 */
import { parserFor } from '../../model/parse/registry.ts';
import type { FormatId } from '../../model/types.ts';
import { useAppStore } from '../../state/store.ts';

/** @param format the shown transcript's format @returns true for a session log with no call chosen */
export function useWholeLogShown(format: FormatId): boolean {
  const callChosen = useAppStore((s) => s.requestIndex !== null);
  return !callChosen && !!parserFor(format)?.sessionCalls;
}
