/**
 * The fleet view's state (issue 40): the scan's rows read from its Parquet (with its report, by
 * `reportOf`), the folder opened beside it, and opening a row's session in the inspector at its
 * request. What the user opened is held here, in the page; nothing is stored or sent.
 */
import { useCallback, useMemo, useState } from 'react';
import type { FleetScanProgress } from '../../engine/client.ts';
import { readScanParquet } from '../../io/parquet.ts';
import { reportOf, type ScanRecord } from '../../model/scan/report.ts';
import { useAppStore } from '../../state/store.ts';
import { findFile, indexFiles, pickDirectory, type FolderIndex } from './folder.ts';
import { useFleetScan } from './useFleetScan.ts';

export interface Fleet {
  /** The Parquet file's name, its rows and report; null before one is opened. */
  scan: { name: string; rows: ScanRecord[] } | null;
  report: ReturnType<typeof reportOf> | null;
  /** The fleet view is on screen (else the inspector). */
  shown: boolean;
  setShown: (shown: boolean) => void;
  /** Files in the opened folder (0: none opened). */
  folderFiles: number;
  /** What went wrong last (a Parquet that is not a scan, a row whose file is not in the folder). */
  notice: string | null;
  openParquet: (file: File) => Promise<void>;
  addFiles: (files: readonly File[]) => void;
  /** Add a folder dropped on the fleet view to the opened folder (rows open its sessions). */
  addFolder: (index: FolderIndex) => void;
  openDirectory: () => Promise<void>;
  openRow: (row: ScanRecord) => Promise<void>;
  /** The page's own scan under way (files and bytes done), or null. */
  scanning: FleetScanProgress | null;
  /** Scan picked or dropped files (a folder's, with their `webkitRelativePath`) in the page. */
  scanFiles: (files: readonly File[]) => Promise<void>;
  /** Scan a folder of files already indexed (a directory handle, dropped folders). */
  scanFolder: (index: FolderIndex, name: string) => Promise<void>;
  /** Pick a folder (File System Access API) and scan it. */
  scanDirectory: () => Promise<void>;
  /** Stop the page's scan (the files done are kept). */
  stopScan: () => void;
}

export function useFleet(loadFile: (file: File) => Promise<void>): Fleet {
  const [scan, setScan] = useState<Fleet['scan']>(null);
  const [shown, setShown] = useState(false);
  const [folder, setFolder] = useState<FolderIndex>(() => new Map());
  const [notice, setNotice] = useState<string | null>(null);
  const setRequestIndex = useAppStore((s) => s.setRequestIndex);
  const report = useMemo(() => (scan ? reportOf(scan.rows) : null), [scan]);
  const scanner = useFleetScan({ setShown, setNotice, setFolder, setScan });

  const openParquet = useCallback(async (file: File) => {
    const r = await readScanParquet(file);
    if (!r.ok) {
      setNotice(`${file.name}: ${r.error.message}`);
      setShown(true);
      return;
    }
    setScan({ name: file.name, rows: r.value });
    setNotice(null);
    setShown(true);
  }, []);

  const addFiles = useCallback((files: readonly File[]) => {
    const more = indexFiles(files);
    setFolder((prev) => new Map([...prev, ...more]));
    setNotice(null);
  }, []);

  const addFolder = useCallback((more: FolderIndex) => {
    setFolder((prev) => new Map([...prev, ...more]));
    setNotice(null);
  }, []);

  const openDirectory = useCallback(async () => {
    const index = await pickDirectory();
    if (index) {
      setFolder(index);
      setNotice(null);
    }
  }, []);

  const openRow = useCallback(
    async (row: ScanRecord) => {
      const get = findFile(folder, row.path);
      if (!get) {
        setNotice(
          `${row.path} is not in the opened folder: open the folder that was scanned (or drop its files) to open a session.`,
        );
        return;
      }
      await loadFile(await get());
      if (row.requests > 1 && row.request !== null) setRequestIndex(row.request);
      setShown(false);
    },
    [folder, loadFile, setRequestIndex],
  );

  return {
    scan,
    report,
    shown,
    setShown,
    folderFiles: folder.size,
    notice,
    openParquet,
    addFiles,
    addFolder,
    openDirectory,
    openRow,
    ...scanner,
  };
}
