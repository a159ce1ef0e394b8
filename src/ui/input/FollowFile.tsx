/**
 * "Follow a file…": keep a file open (a checked-fetch record the library appends to, a session log
 * an agent is writing) and show it again each time it grows, the newest request first. Uses the
 * File System Access API (`showOpenFilePicker`), which only some browsers have; elsewhere the
 * button says to open the file again to see what was appended.
 */
import { useEffect, useRef, useState } from 'react';

/** How often the followed file is looked at (ms): its size and modification time only. */
export const FOLLOW_POLL_MS = 1500;

interface FileHandle {
  name: string;
  getFile(): Promise<File>;
}
type OpenFilePicker = (options?: {
  multiple?: boolean;
  types?: { description: string; accept: Record<string, string[]> }[];
}) => Promise<FileHandle[]>;

/** The browser's `showOpenFilePicker`, or null where it has none. */
function picker(): OpenFilePicker | null {
  const w = window as unknown as { showOpenFilePicker?: OpenFilePicker };
  return typeof w.showOpenFilePicker === 'function' ? w.showOpenFilePicker.bind(window) : null;
}

export interface FollowFileProps {
  /** Open the file the first time (a history entry, as "Open file…"). */
  onOpen: (file: File) => void;
  /** Show it again after it changed (no new history entry). */
  onChanged: (file: File) => void;
}

/**
 * The follow button, and while following: the file's name and a Stop button. A change is a new
 * size or modification time; the file is read again only then.
 */
export function FollowFile({ onOpen, onChanged }: FollowFileProps) {
  const [handle, setHandle] = useState<FileHandle | null>(null);
  const changed = useRef(onChanged);
  changed.current = onChanged;
  useEffect(() => {
    if (!handle) return;
    let seen = '';
    let stopped = false;
    const look = async () => {
      const file = await handle.getFile().catch(() => null);
      if (stopped || !file) return;
      const mark = `${file.size}:${file.lastModified}`;
      if (seen !== '' && mark !== seen) changed.current(file);
      seen = mark;
    };
    void look();
    const timer = setInterval(() => void look(), FOLLOW_POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [handle]);
  const open = picker();
  if (handle)
    return (
      <span className="follow" data-testid="following">
        Following {handle.name}
        <button type="button" onClick={() => setHandle(null)} data-testid="follow-stop">
          Stop
        </button>
      </span>
    );
  return (
    <button
      type="button"
      data-testid="follow-file"
      disabled={!open}
      title={
        open
          ? 'Keep a file open (a checked-fetch record, a session log) and show it again as it grows'
          : 'This browser cannot keep a file open (no File System Access API): open the file again to see what was appended'
      }
      onClick={() => {
        if (!open) return;
        open({
          types: [
            {
              description: 'Records and logs',
              accept: {
                'application/x-ndjson': ['.jsonl', '.ndjson'],
                'application/json': ['.json'],
              },
            },
          ],
        })
          .then(async ([h]) => {
            if (!h) return;
            onOpen(await h.getFile());
            setHandle(h);
          })
          .catch(() => undefined); // the user closed the picker
      }}
    >
      Follow…
    </button>
  );
}
