/**
 * What the page says while no transcript is shown: loading, a missing sample, or a link awaiting
 * its file.
 */
import { isAwaitingTranscript } from '../state/permalink/storeLink.ts';
import type { Source } from '../state/store.ts';

export function NoTranscript({
  source,
  missingSample,
}: {
  source: Source;
  missingSample: boolean;
}) {
  return (
    <p className="loading" data-testid="loading">
      {missingSample
        ? 'No transcript: the link names a sample this page does not have (see the note above).'
        : source.unreadLink
          ? 'No transcript: this link could not be read (see the note above). Paste (Ctrl/Cmd+V) or drop a transcript anywhere on the page, or choose a sample.'
          : isAwaitingTranscript(source)
            ? `No transcript yet: open ${source.name ? `“${source.name}”` : 'the transcript this link was made for'} (Open file…, or drop it anywhere on the page) to see the shared view.`
            : 'Loading… Paste (Ctrl/Cmd+V) or drop a transcript anywhere on the page.'}
    </p>
  );
}
