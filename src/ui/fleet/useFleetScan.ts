/**
 * The page's own scan of a folder (issue 40): its session files (`SCAN_EXTENSIONS`, as the CLI
 * picks them) scanned in workers (`scanFleetFiles`), with progress, into the fleet view's rows;
 * the folder is kept as the opened folder, so a row opens its session.
 */
import { useCallback, useState } from 'react';
import { scanFleetFiles, type FleetScanProgress } from '../../engine/client.ts';
import type { ScanRecord } from '../../model/scan/report.ts';
import { SCAN_EXTENSIONS } from '../../model/scan/rows.ts';
import { folderName, indexFiles, pickDirectoryNamed, type FolderIndex } from './folder.ts';

/** The fleet state a scan sets. */
export interface FleetScanSetters {
  setShown: (shown: boolean) => void;
  setNotice: (notice: string | null) => void;
  setFolder: (folder: FolderIndex) => void;
  setScan: (scan: { name: string; rows: ScanRecord[] }) => void;
}

export function useFleetScan({ setShown, setNotice, setFolder, setScan }: FleetScanSetters) {
  const [scanning, setScanning] = useState<FleetScanProgress | null>(null);
  const [stop, setStop] = useState<AbortController | null>(null);

  const scanFolder = useCallback(
    async (index: FolderIndex, name: string) => {
      const paths = [...index.keys()].filter((p) => SCAN_EXTENSIONS.test(p));
      setShown(true);
      if (paths.length === 0) {
        setNotice(`${name}: no session files in it (.json, .jsonl, .gz, …) to scan.`);
        return;
      }
      const abort = new AbortController();
      setStop(abort);
      setNotice(null);
      setFolder(index);
      const files = await Promise.all(
        paths.map(async (path) => ({
          path,
          file: await (index.get(path) as () => Promise<File>)(),
        })),
      );
      try {
        const rows = await scanFleetFiles(files, setScanning, abort.signal);
        setScan({ name, rows });
        if (abort.signal.aborted)
          setNotice(
            `Stopped: ${new Set(rows.map((r) => r.file)).size} of ${files.length} files scanned.`,
          );
      } finally {
        setScanning(null);
        setStop(null);
      }
    },
    [setShown, setNotice, setFolder, setScan],
  );

  const scanFiles = useCallback(
    (files: readonly File[]) => scanFolder(indexFiles(files), folderName(files)),
    [scanFolder],
  );

  const scanDirectory = useCallback(async () => {
    const picked = await pickDirectoryNamed();
    if (picked) await scanFolder(picked.index, picked.name);
  }, [scanFolder]);

  const stopScan = useCallback(() => stop?.abort(), [stop]);

  return { scanning, scanFiles, scanFolder, scanDirectory, stopScan };
}
