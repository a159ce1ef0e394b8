/**
 * The repaired transcript opened in place (issue 41: the repair panel could export it but not
 * show it): "Open repaired here" opens it as a document of its own (a history entry, as a paste
 * is), and while it is shown a note says so with "Back to the original", which is the browser's
 * Back to the entry before it (the tab keeps that transcript: state/tabMemory.ts).
 */
import { useSyncExternalStore } from 'react';
import { appStore, useAppStore } from '../../state/store.ts';

/** The repaired transcript's entry (its name and the store's `entrySeq` when opened), or null. */
let opened: { name: string; seq: number } | null = null;
const listeners = new Set<() => void>();
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

/** Open the repaired text `text` (named `name`) in place, remembering its entry. */
export function useOpenRepaired(): (text: string, name: string) => void {
  const openSource = useAppStore((s) => s.openSource);
  return (text, name) => {
    openSource({ text, name, origin: 'paste' });
    opened = { name, seq: appStore.getState().entrySeq };
    for (const l of listeners) l();
  };
}

/** While the repaired transcript is shown: what it is, and Back to the original. */
export function RepairedNote() {
  const entry = useSyncExternalStore(subscribe, () => opened);
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
