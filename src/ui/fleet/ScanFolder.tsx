/**
 * "Scan folder…": the page scans a folder of session logs itself (issue 40), in workers, and
 * shows the fleet view — the folder picked with the File System Access API where the browser has
 * it, else with a folder input (`webkitdirectory`). Dropping a folder on the page does the same.
 */
import { useRef } from 'react';
import { canPickDirectory } from './folder.ts';
import type { Fleet } from './useFleet.ts';
import './fleet.css';

export function ScanFolderButton({ fleet }: { fleet: Fleet }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button
        type="button"
        disabled={fleet.scanning !== null}
        title="Scan every session log in a folder here, in this tab (nothing is sent): failure rates, signatures and what each policy's cuts give"
        onClick={() => (canPickDirectory() ? void fleet.scanDirectory() : input.current?.click())}
        data-testid="fleet-scan-folder"
      >
        Scan folder…
      </button>
      <input
        ref={input}
        type="file"
        hidden
        multiple
        data-testid="fleet-scan-input"
        {...{ webkitdirectory: '' }}
        onChange={(e) => {
          const files = [...(e.target.files ?? [])];
          e.target.value = '';
          if (files.length > 0) void fleet.scanFiles(files);
        }}
      />
    </>
  );
}

/** The page's scan under way: files and MB done, a bar, and Stop. */
export function ScanProgress({ fleet }: { fleet: Fleet }) {
  const p = fleet.scanning;
  if (!p) return null;
  const mb = (b: number) => (b / 1e6).toFixed(1);
  return (
    <div className="fleet-progress" role="status" data-testid="fleet-scan-progress">
      <progress max={p.bytes || 1} value={p.bytesDone} />
      <span>
        Scanning {p.filesDone} of {p.files} files · {mb(p.bytesDone)} of {mb(p.bytes)} MB
      </span>
      <button type="button" onClick={fleet.stopScan} data-testid="fleet-scan-stop">
        Stop
      </button>
    </div>
  );
}

/**
 * In the input toolbar beside "Open file…", with the inspector on screen: back to the fleet (once
 * there is one), and "Scan folder…" (folded behind "More" on a narrow screen, as the toolbar's
 * other secondary inputs: `toolbar-scan`).
 */
export function FleetEntry({ fleet }: { fleet: Fleet }) {
  return (
    <>
      {fleet.scan && (
        <button type="button" onClick={() => fleet.setShown(true)} data-testid="fleet-back">
          Back to the fleet ({fleet.scan.name})
        </button>
      )}
      <span id="toolbar-scan" className="narrow-more">
        <ScanFolderButton fleet={fleet} />
      </span>
    </>
  );
}
