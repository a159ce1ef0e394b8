/**
 * A provider the user chose for one transcript, kept for the next document they open only where it
 * fits it (newcomer: Mistral chosen for an OpenAI Chat body stayed chosen for an Anthropic body,
 * "Invalid: Mistral answers HTTP 400", judged for a provider that never takes such a request).
 * Once the new document's answer comes, a choice that does not speak its API
 * (`providerFits`) is dropped and the transcript is judged for its own provider; a choice that
 * fits (DeepSeek kept for another Chat body) stays, and the verdict says it was chosen. A link's or
 * a lesson's provider is never carried (`Session.providerCarried` holds only documents the user
 * opened), so links stay exact.
 */
import { useEffect } from 'react';
import type { Analysis } from '../model/analyze.ts';
import { providerFits } from '../model/validate/index.ts';
import { activeSession } from '../state/session/index.ts';
import { useAppStore } from '../state/store.ts';

/** Drop a carried provider choice that does not fit the analysed document (see file comment). */
export function useCarriedProvider(analysis: Analysis | null): void {
  const source = useAppStore((s) => s.source);
  const provider = useAppStore((s) => s.provider);
  const setProvider = useAppStore((s) => s.setProvider);
  useEffect(() => {
    const session = activeSession();
    if (analysis === null || !session.providerCarried.has(source)) return;
    // Only the answer to this document decides (not the one before, still shown while it loads).
    const asked = session.answers.answerOf.get(analysis);
    if (!asked || asked.text !== source.text || asked.file !== source.file) return;
    session.providerCarried.delete(source);
    if (provider !== null && !providerFits(provider, analysis.transcript)) setProvider(null);
  }, [analysis, source, provider, setProvider]);
}
