/**
 * The progress bar of a streamed file load (issue 7): bytes read and messages handled, a Cancel
 * button, the refusal of a file too large for the tab, and a note when a load was cancelled.
 */
import { nameTable } from '../model/own.ts';
import type { LoadState } from './useInspection.ts';
import { fmtInt } from './format.ts';

const PHASE: ReadonlyMap<string, string> = nameTable({
  read: 'Reading',
  analyze: 'Analysing',
  transfer: 'Drawing',
  tokens: 'Counting tokens',
});

const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;

/**
 * The file whose load is partial, if any: its preview of the first messages is on screen (or may
 * still be, while the page's deferred render catches up with the finished load). A verdict on
 * those rows is an artefact of the cut-off read (a trailing tool_use without its tool_result,
 * A2), so the verdict and the policy verdicts wait for the whole file.
 * @param load the load state (`useInspection`), null for a text source
 * @param showingPreview true while the analysis drawn is the preview's (the page keeps it)
 * @returns the file name, or null when the transcript shown is complete
 */
export function partialLoadName(load: LoadState | null, showingPreview: boolean): string | null {
  if (!load || load.cancelled || load.refused) return null;
  return load.preview || showingPreview ? load.name : null;
}

/**
 * Whether `LoadStatus` shows anything for this load: a running load's bar, its refusal or its
 * cancellation. A load that ended shows nothing, so the page's "Analysing" status says that its
 * transcript is still being drawn (a long one takes a while, seconds on a slow device).
 */
export function loadStatusShows(load: LoadState | null): boolean {
  return load !== null && (load.active || load.cancelled || load.refused !== null);
}

export function LoadStatus({ load, onCancel }: { load: LoadState; onCancel: () => void }) {
  if (load.refused)
    return (
      <div className="load-status refused" role="alert" data-testid="load-refused">
        <strong>File too large</strong> {load.refused}
      </div>
    );
  if (load.cancelled)
    return (
      <div className="load-status" role="status" data-testid="load-cancelled">
        Loading {load.name} was cancelled.
      </div>
    );
  if (!load.active) return null;
  const p = load.progress;
  const phase = p ? (PHASE.get(p.phase) ?? p.phase) : 'Reading';
  const fraction = !p
    ? 0
    : p.phase === 'read'
      ? p.bytes / Math.max(1, p.totalBytes)
      : p.totalMessages
        ? p.messages / Math.max(1, p.totalMessages)
        : 1;
  return (
    <div className="load-status" role="status" data-testid="load-progress">
      <progress
        max={1}
        value={fraction}
        aria-label={`${phase} ${load.name}`}
        data-testid="load-bar"
      />
      {/* Before the text, whose width changes as it counts: the button stays where it is. */}
      <button type="button" onClick={onCancel} data-testid="load-cancel">
        Cancel
      </button>
      <span className="load-text" data-testid="load-text">
        {phase} {load.name}
        {p && p.phase === 'read' && ` · ${mb(p.bytes)} of ${mb(p.totalBytes)}`}
        {p &&
          p.messages > 0 &&
          ` · ${fmtInt(p.messages)}${p.totalMessages ? ` of ${fmtInt(p.totalMessages)}` : ''} ${p.phase === 'read' ? 'records' : 'messages'}`}
        {load.preview &&
          ' · showing the first messages; the verdict comes when the whole file is read'}
      </span>
    </div>
  );
}
