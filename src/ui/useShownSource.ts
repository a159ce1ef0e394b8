/**
 * Which transcript is on screen, and where it came from. A text that fails to parse keeps the
 * previous transcript, and the Sample menu, the address and Share must keep naming that one (not
 * the failed file): the store's source goes back to it, the failed text to the box
 * (`AppState.rejected`); a cancelled load brings back the transcript shown before its preview,
 * and that one's source with it.
 */
import { useEffect, useState } from 'react';
import { sourceName, useAppStore, type Source } from '../state/store.ts';
import { sourceError, type SetFileError } from './input/fileError.ts';
import { partialLoadName } from './LoadStatus.tsx';
import type { InspectionState } from './useInspection.ts';

type Shown = { analysis: unknown; source: Source | null };

/**
 * How the store's source failed, when the view's error is its own (the answer to it, not to an
 * older input): `file` for a streamed file, or a file refused for a limit (nothing of it to fix
 * in the text box); `text` for text the user gave (a paste, an edit, a small file) that does not
 * parse; null when it did not fail.
 */
export function failedInput(
  source: Source,
  view: Pick<InspectionState, 'error' | 'pending' | 'request'>,
): 'file' | 'text' | null {
  const { error, request } = view;
  if (!error || view.pending || !request || request.file !== source.file) return null;
  if (source.origin === 'file' && (source.file !== undefined || error.kind === 'limit'))
    return 'file';
  const own = source.file === undefined && request.text === source.text;
  return own && (source.origin === 'paste' || source.origin === 'file') ? 'text' : null;
}

/**
 * @param live what the engine answered last
 * @param view what is drawn (the deferred render of `live`)
 * @returns `shown`: the source of the transcript on screen (null before the first); `partial`:
 *   the name of a streamed file while only its preview is drawn (verdicts are provisional)
 */
export function useShownSource(
  live: InspectionState,
  view: InspectionState,
  setFileError: SetFileError,
): { shown: Source | null; partial: string | null } {
  const source = useAppStore((s) => s.source);
  const setSource = useAppStore((s) => s.setSource);
  const rejectSource = useAppStore((s) => s.rejectSource);
  const { error } = view;
  const [shown, setShown] = useState<Shown & { before: Shown | null }>({
    analysis: null,
    source: null,
    before: null,
  });
  // The analysis of a streamed file's preview (its first rows): verdicts wait while it is drawn.
  const [previewAnalysis, setPreviewAnalysis] = useState<unknown>(null);
  if (live.load?.preview && live.analysis !== previewAnalysis) setPreviewAnalysis(live.analysis);
  const partial = partialLoadName(
    view.load,
    view.analysis !== null && view.analysis === previewAnalysis,
  );
  if (view.analysis !== shown.analysis)
    setShown({
      analysis: view.analysis,
      source:
        shown.before !== null && view.analysis === shown.before.analysis
          ? shown.before.source
          : source,
      before: { analysis: shown.analysis, source: shown.source },
    });

  // A streamed file that failed (bad JSON, too deep, a .gz bomb), or any file refused for a limit
  // (nothing in it to fix in the text box): nothing of it is shown, so the store's source goes
  // back to the transcript on screen (the address, the Sample menu and Share name that one, not
  // the failed file) and the banner says the file could not be read, as for a small file that
  // fails to decode (issue 14). Text that fails to parse (a paste, an edit, a small file) goes
  // back to the box with its error (`rejected`), and the source to the transcript on screen too:
  // the address, Back and a reload follow what is shown, and the user's text stays to be fixed.
  const failed = failedInput(source, view);
  useEffect(() => {
    const back = shown.source;
    if (failed === null || !error || !back || back === source) return;
    if (failed === 'text') {
      rejectSource({ source, error: sourceError(error, source) }, back);
      return;
    }
    const name = sourceName(source);
    // A read note names the file itself (`x.jsonl.gz is named .gz …`): no second name before it.
    const e = sourceError(error, source);
    setFileError({
      ...e,
      message: source.readNote ? e.message : `${name}: ${e.message}`,
      file: name,
    });
    setSource(back);
  }, [failed, error, source, shown.source, setSource, rejectSource, setFileError]);
  // A cancelled load leaves the transcript shown before it: the store's source goes back to that
  // one too, so the address, Copy link, Back and a reload name what is on screen (issue 15).
  const cancelled =
    view.load?.cancelled === true &&
    source.file !== undefined &&
    view.request?.file === source.file;
  useEffect(() => {
    if (cancelled && shown.source && shown.source !== source) setSource(shown.source);
  }, [cancelled, source, shown.source, setSource]);

  return { shown: shown.source, partial };
}
