/**
 * The sample input path: the sample index, opening a sample, and the sample a link or the boot
 * names (a permalink's `src`, set by urlSync, or the default one).
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { loadSampleIndex, loadSampleText, type SampleEntry } from '../../io/files.ts';
import { noticeStore } from '../../state/permalink/notices.ts';
import { unknownSampleNotice } from '../../state/permalink/storeLink.ts';
import { DEFAULT_SAMPLE_ID, useAppStore, type Source } from '../../state/store.ts';
import { useSession } from '../useSession.ts';
import type { SetFileError } from './fileError.ts';

/** The samples listed beside the page (`public/samples/index.json`); empty until loaded. */
export function useSamples(): SampleEntry[] {
  const [samples, setSamples] = useState<SampleEntry[]>([]);
  useEffect(() => {
    let live = true;
    void loadSampleIndex().then((list) => {
      if (live) setSamples(list);
    });
    return () => {
      live = false;
    };
  }, []);
  return samples;
}

/**
 * Open samples: `loadSample` for the Sample menu, and the sample the store asks for (a sample
 * source without text) once the index is known. `missingSample`: a link names a sample this page
 * does not have.
 */
export function useSampleSource(
  samples: SampleEntry[],
  setSource: (s: Source) => void,
  setFileError: SetFileError,
  /** How the Sample menu opens its choice (default `setSource`, as a link's sample is opened). */
  openChosen: (s: Source) => void = setSource,
): { loadSample: (entry: SampleEntry) => Promise<void>; missingSample: boolean } {
  const loadWith = useCallback(
    (open: (s: Source) => void) => async (entry: SampleEntry) => {
      const r = await loadSampleText(entry);
      if (!r.ok) {
        setFileError(r.error);
        return;
      }
      setFileError(null);
      open({ text: r.value, name: entry.file, origin: 'sample', sampleId: entry.id });
    },
    [setFileError],
  );
  const loadSample = useMemo(() => loadWith(openChosen), [loadWith, openChosen]);
  const loadLinked = useMemo(() => loadWith(setSource), [loadWith, setSource]);

  // Boot and sample links: while the store has a sample source without text, open the sample
  // it names (a permalink's `src`, set by urlSync) or the default one.
  const wantedSample = useAppStore((s) =>
    s.source.origin === 'sample' && s.source.text === ''
      ? (s.source.sampleId ?? DEFAULT_SAMPLE_ID)
      : null,
  );
  const missingSample =
    wantedSample !== null &&
    wantedSample !== DEFAULT_SAMPLE_ID &&
    samples.length > 0 &&
    !samples.some((s) => s.id === wantedSample);
  // A link opened in place (the address changed) keeps the transcript shown before it.
  const keptShown = useSession((s) => s.view.analysis !== null);
  useEffect(() => {
    if (wantedSample === null || samples.length === 0) return;
    // A link naming a sample this page does not have says so, and shows no other in its place
    // (its view would land on another transcript); the address keeps the link (issue 15).
    if (missingSample) {
      const notices = noticeStore.getState().notices;
      const notice = unknownSampleNotice(wantedSample, keptShown);
      if (!notices.some((n) => n.message === notice.message))
        noticeStore.getState().show([...notices, notice]);
      return;
    }
    const entry = samples.find((s) => s.id === wantedSample) ?? samples[0];
    if (entry) void loadLinked(entry);
  }, [samples, wantedSample, missingSample, keptShown, loadLinked]);

  return { loadSample, missingSample };
}
