/**
 * The repaired transcript opened in place (issue 41: the repair panel could export it but not
 * show it): "Open repaired here" opens it as a document of its own (a history entry, as a paste
 * is), and while it is shown a note says so with "Back to the original", which is the browser's
 * Back to the entry before it (the tab keeps that transcript: state/tabMemory.ts).
 */
import { activeSession } from '../../state/session/index.ts';
import { appStore, useAppStore } from '../../state/store.ts';
import { useSession } from '../useSession.ts';

/** Open the repaired text `text` (named `name`) in place, remembering its entry. */
export function useOpenRepaired(): (text: string, name: string) => void {
  const openSource = useAppStore((s) => s.openSource);
  return (text, name) => {
    openSource({ text, name, origin: 'paste' });
    // The session notes which entry is the repaired transcript.
    activeSession().noteRepaired(name, appStore.getState().entrySeq);
  };
}

/** While the repaired transcript is shown: what it is, and Back to the original. */
export function RepairedNote() {
  const entry = useSession((s) => s.repaired);
  const name = useAppStore((s) => s.source.name);
  const seq = useAppStore((s) => s.entrySeq);
  if (!entry || entry.name !== name || entry.seq !== seq) return null;
  return (
    <p className="repaired-note" role="status" data-testid="repaired-note">
      Showing the repaired transcript ({name}).{' '}
      <button type="button" data-testid="repair-back" onClick={() => history.back()}>
        Back to the original
      </button>
    </p>
  );
}
