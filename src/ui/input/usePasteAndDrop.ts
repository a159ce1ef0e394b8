/** The paste and drop input paths: paste anywhere, drop a file or text anywhere on the page. */
import { useEffect, useState } from 'react';
import type { Source } from '../../state/store.ts';
import type { SetFileError } from './fileError.ts';
import { isTypingTarget } from './typingTarget.ts';
import { indexDropped, type FolderIndex } from '../fleet/folder.ts';

/** Paste anywhere (outside text fields, which handle their own paste). */
export function usePasteAnywhere(setSource: (s: Source) => void, setFileError: SetFileError): void {
  useEffect(() => {
    const onPaste = (e: ClipboardEvent) => {
      if (isTypingTarget(e.target)) return;
      const text = e.clipboardData?.getData('text/plain') ?? '';
      if (text.length === 0) return;
      e.preventDefault();
      setFileError(null);
      setSource({ text, name: '', origin: 'paste' });
    };
    document.addEventListener('paste', onPaste);
    return () => document.removeEventListener('paste', onPaste);
  }, [setSource, setFileError]);
}

/**
 * Drop files (or text) anywhere: every file dropped goes to `loadFiles` (a transcript is the
 * first; a scan's Parquet and its folder's files come together); a folder dropped goes to
 * `dropFolder` (the page scans it as a fleet). Returns whether something is being dragged over the page (the
 * drop overlay shows meanwhile).
 */
export function useDropAnywhere(
  loadFiles: (files: File[]) => Promise<void>,
  setSource: (s: Source) => void,
  dropFolder?: (folder: { name: string; index: FolderIndex }) => void,
): boolean {
  const [dragging, setDragging] = useState(false);
  useEffect(() => {
    const onOver = (e: DragEvent) => {
      e.preventDefault();
      setDragging(true);
    };
    const onLeave = (e: DragEvent) => {
      if (e.relatedTarget === null) setDragging(false);
    };
    const onDrop = (e: DragEvent) => {
      e.preventDefault();
      setDragging(false);
      // A folder dropped is scanned as a fleet (its entries are read now, during the event).
      const items = e.dataTransfer?.items;
      if (dropFolder && items && items.length > 0) {
        const files = [...(e.dataTransfer?.files ?? [])];
        void indexDropped(items).then((folder) =>
          folder ? dropFolder(folder) : files.length > 0 ? loadFiles(files) : undefined,
        );
        if (files.length > 0) return;
      }
      const files = [...(e.dataTransfer?.files ?? [])];
      if (files.length > 0) {
        void loadFiles(files);
        return;
      }
      const text = e.dataTransfer?.getData('text/plain') ?? '';
      if (text) setSource({ text, name: '', origin: 'paste' });
    };
    window.addEventListener('dragover', onOver);
    window.addEventListener('dragleave', onLeave);
    window.addEventListener('drop', onDrop);
    return () => {
      window.removeEventListener('dragover', onOver);
      window.removeEventListener('dragleave', onLeave);
      window.removeEventListener('drop', onDrop);
    };
  }, [loadFiles, setSource, dropFolder]);
  return dragging;
}
