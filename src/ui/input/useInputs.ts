/**
 * Every input path of the page in one place: the samples (and the one a link names), files
 * (picker and drop), paste anywhere, drop anywhere, and the banner's error for input that could
 * not be taken.
 */
import { useState } from 'react';
import { useAppStore } from '../../state/store.ts';
import type { FileError } from './fileError.ts';
import { useLoadFile } from './useFileSource.ts';
import { useDropAnywhere, usePasteAnywhere } from './usePasteAndDrop.ts';
import { useSampleSource, useSamples } from './useSamples.ts';

export function useInputs() {
  const setSource = useAppStore((s) => s.setSource);
  // Opening a document (not editing one) is a history entry of its own: Back returns to the last.
  const openSource = useAppStore((s) => s.openSource);
  // `file`: the file that could not be read (empty, binary), named by the banner's note.
  const [fileError, setFileError] = useState<FileError | null>(null);
  const samples = useSamples();
  const { loadSample, missingSample } = useSampleSource(samples, openSource, setFileError);
  const loadFile = useLoadFile(openSource, setFileError);
  usePasteAnywhere(openSource, setFileError);
  const dragging = useDropAnywhere(loadFile, openSource);
  return {
    samples,
    fileError,
    setFileError,
    setSource,
    loadSample,
    loadFile,
    missingSample,
    dragging,
  };
}
