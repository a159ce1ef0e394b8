/**
 * The API error the log records for the call chosen in the request strip, for the verdict beside
 * the call's structure (newcomer: call 88 of a log read "Valid: … would accept this request" in
 * green while the log records its 400, RESOURCE_EXHAUSTED). Reads the same listing the strip
 * draws (the diff worker's for a file held as text, the inspect worker's for a streamed log).
 */
import { useStore } from 'zustand';
import {
  apiErrorOf,
  requestListingStore,
  selectRequestsJob,
  selectStreamedListing,
} from '../../state/requests.ts';
import { useAppStore } from '../../state/store.ts';
import { useSession } from '../useSession.ts';

/**
 * The chosen call's recorded API error (its text), or null: none chosen, none recorded, no listing yet.
 * @param exactTokens, listable as the strip's (`RequestStrip`): the same job, so the same listing
 */
export function useChosenCallError(exactTokens: boolean, listable: boolean): string | null {
  const job = useAppStore((s) =>
    selectRequestsJob(s.source, s.formatOverride, s.provider, exactTokens, listable),
  );
  const chosen = useAppStore((s) => s.requestIndex);
  const fromText = useStore(requestListingStore, (s) => (s.job === job ? s.value : null));
  const streamed = useSession(selectStreamedListing);
  const answer = job ? fromText : streamed;
  if (chosen === null || !answer?.ok) return null;
  return apiErrorOf(answer.requests, chosen);
}
