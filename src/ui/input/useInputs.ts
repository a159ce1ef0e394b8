/**
 * Every input path of the page in one place: the samples (and the one a link names), files
 * (picker and drop), paste anywhere, drop anywhere, and the banner's error for input that could
 * not be taken.
 */
import { useCallback, useState } from 'react';
import { isParquetName } from '../../io/parquet.ts';
import type { FolderIndex } from '../fleet/folder.ts';
import { useFleet } from '../fleet/useFleet.ts';
import { activeSession } from '../../state/session/index.ts';
import { appStore, useAppStore, type Source } from '../../state/store.ts';
import type { FileError } from './fileError.ts';
import { useLoadFile } from './useFileSource.ts';
import { useDropAnywhere, usePasteAnywhere } from './usePasteAndDrop.ts';
import { useSampleSource, useSamples } from './useSamples.ts';

export function useInputs() {
  const setSource = useAppStore((s) => s.setSource);
  // Opening a document (not editing one) is a history entry of its own: Back returns to the last.
  const openLinked = useAppStore((s) => s.openSource);
  // A document the user opens carries their provider choice only where it fits (useCarriedProvider).
  const openSource = useCallback(
    (source: Source) => {
      if (appStore.getState().provider !== null) activeSession().providerCarried.add(source);
      openLinked(source);
    },
    [openLinked],
  );
  // `file`: the file that could not be read (empty, binary), named by the banner's note.
  const [fileError, setFileError] = useState<FileError | null>(null);
  const samples = useSamples();
  const { loadSample, missingSample } = useSampleSource(
    samples,
    openLinked,
    setFileError,
    openSource,
  );
  const loadTranscript = useLoadFile(openSource, setFileError);
  // A scan's Parquet opens the fleet view (issue 40); with it open, dropped files are the folder's.
  // Several files or a folder dropped without one are scanned in the page (the same report).
  const fleet = useFleet(loadTranscript);
  const { openParquet, addFiles, addFolder, shown: fleetShown, scanFiles, scanFolder } = fleet;
  const loadFile = useCallback(
    (f: File) => (isParquetName(f.name) ? openParquet(f) : loadTranscript(f)),
    [openParquet, loadTranscript],
  );
  const loadFiles = useCallback(
    async (files: File[]) => {
      const parquet = files.find((f) => isParquetName(f.name));
      const rest = files.filter((f) => f !== parquet);
      if (parquet) await openParquet(parquet);
      if (parquet || fleetShown) {
        if (rest.length > 0) addFiles(rest);
      } else if (files.length > 1) await scanFiles(files);
      else if (files[0]) await loadTranscript(files[0]);
    },
    [openParquet, addFiles, fleetShown, loadTranscript, scanFiles],
  );
  // A folder dropped on the fleet view is the scanned folder, opened; anywhere else it is scanned.
  const dropFolder = useCallback(
    (f: { name: string; index: FolderIndex }) =>
      fleetShown ? addFolder(f.index) : void scanFolder(f.index, f.name),
    [fleetShown, addFolder, scanFolder],
  );
  // A followed file read again after it grew: the same document, not a new history entry.
  const reloadFile = useLoadFile(setSource, setFileError);
  usePasteAnywhere(openSource, setFileError);
  const dragging = useDropAnywhere(loadFiles, openSource, dropFolder);
  return {
    samples,
    fileError,
    setFileError,
    setSource,
    loadSample,
    loadFile,
    fleet,
    reloadFile,
    missingSample,
    dragging,
  };
}
