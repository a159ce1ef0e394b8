/**
 * The "original" export: exactly what the user opened or pasted, next to the transcript as the
 * page read it (written back by the format's writer, which is not byte for byte the file:
 * spacing and line endings are the writer's). Offered for an opened file or a paste
 * while the transcript is unmodified (no fault applied).
 *
 * A file's bytes are never decoded or copied for it: the File the user picked is the download
 * (a streamed file's `Source.file`, a small file's `Source.original`), so a 100 MB log costs no
 * memory; only a file whose Blob is gone (after a reload, the tab kept its text) is re-encoded
 * from that text, once, and says so.
 */
import type { Source } from '../../state/store.ts';

/** What the Original button downloads and how it is labelled. */
export interface OriginalExport {
  /** The file name offered. */
  name: string;
  /** The button's text. */
  label: string;
  /** What the download holds, for the note under the buttons. */
  note: string;
  /** The bytes: the picked File itself, or the pasted text (built when clicked). */
  blob: () => Blob;
  /**
   * Null when the bytes can be read now; else why not, for the user. A picked File is a
   * reference to the file on disk: changed, moved or deleted since it was opened, the browser
   * refuses to read it and a download of it would fail with no word in the page.
   */
  unreadable: () => Promise<string | null>;
}

/** What the page says when the opened file can no longer be read (`OriginalExport.unreadable`). */
export function fileGoneMessage(name: string): string {
  return `${name} changed on disk, or was moved or deleted, since you opened it: its original bytes cannot be read any more. Open it again to download it; "Transcript as read" still saves what this page shows.`;
}

/** Whether a Blob's bytes can still be read (a File changed on disk rejects any read). */
async function readable(blob: Blob): Promise<boolean> {
  try {
    await blob.slice(0, 1).arrayBuffer();
    return true;
  } catch {
    return false;
  }
}

const always = () => Promise.resolve(null);

/**
 * The original export of a source, or null: not a file or paste, or the transcript shown is
 * modified (faults applied).
 * @param baseName the exports' name stem (`exportBaseName`); @param ext `json` or `jsonl`
 */
export function originalExport(
  source: Source,
  modified: boolean,
  baseName: string,
  ext: string,
): OriginalExport | null {
  if (modified) return null;
  const picked = source.file ?? source.original;
  if (source.origin === 'file' && picked) {
    const name = picked instanceof File && picked.name ? picked.name : `${baseName}.${ext}`;
    return {
      name,
      label: `Original file (${name})`,
      note: 'the bytes you opened, unchanged',
      blob: () => picked,
      unreadable: async () => ((await readable(picked)) ? null : fileGoneMessage(name)),
    };
  }
  if (source.origin === 'file' && source.text !== '')
    return {
      name: `${baseName}.${ext}`,
      label: `Original file's text (.${ext})`,
      note: "the file's text as it was read (kept by this tab; a .gz comes back inflated)",
      blob: () => new Blob([source.text], { type: 'text/plain' }),
      unreadable: always,
    };
  if (source.origin === 'paste' && source.text !== '')
    return {
      name: `${baseName}.${ext}`,
      label: `Pasted text (.${ext})`,
      note: 'the text as you pasted it, unchanged',
      blob: () => new Blob([source.text], { type: 'text/plain' }),
      unreadable: always,
    };
  return null;
}
