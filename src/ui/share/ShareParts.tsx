/**
 * Small pieces of the share panel: the permalink notices and a copyable link row.
 */
import { useState } from 'react';
import { useStore } from 'zustand';
import { noticeStore } from '../../state/permalink/notices.ts';
import { appStore, useAppStore } from '../../state/store.ts';
import { VIEW_ONLY_NOTICE_KEY } from '../../state/permalink/storeLink.ts';
import { fmtInt } from '../format.ts';

/** The permalink notices (a link that could not be honoured says so here). */
export function Notices() {
  const notices = useStore(noticeStore, (s) => s.notices);
  // No transcript on screen: a link without one, or naming a sample this page does not have.
  const awaiting = useAppStore((s) => s.source.text === '' && !s.source.file);
  if (notices.length === 0) return null;
  // Marked as a problem only when something in the link was ignored or refused.
  const tone = notices.every((n) => n.tone === 'info') ? 'info' : 'problem';
  return (
    <div
      className={`share-notices ${tone}`}
      role="status"
      data-testid="permalink-notices"
      data-tone={tone}
    >
      <ul>
        {notices.map((n, i) => (
          <li key={i} data-notice={n.key} data-tone={n.tone ?? 'problem'}>
            {n.message}
          </li>
        ))}
      </ul>
      {awaiting && notices.some((n) => n.key === VIEW_ONLY_NOTICE_KEY) && (
        <button
          type="button"
          data-testid="permalink-show-sample"
          onClick={() => {
            // The default sample, by the page's own boot path (App loads it); the link's view
            // stays applied. From here the address follows the page again.
            appStore.getState().setSource({ text: '', name: '', origin: 'sample' });
            noticeStore.getState().dismiss();
          }}
        >
          Show a sample instead
        </button>
      )}
      <button type="button" onClick={() => noticeStore.getState().dismiss()}>
        Dismiss
      </button>
    </div>
  );
}

/** Copy text to the clipboard; `done(false)` when the browser refuses. */
export function copy(text: string, done: (ok: boolean) => void) {
  navigator.clipboard.writeText(text).then(
    () => done(true),
    () => done(false),
  );
}

export function LinkRow(p: { label: string; link: string; testId: string }) {
  const [copied, setCopied] = useState<'idle' | 'ok' | 'failed'>('idle');
  return (
    <div className="share-link-row">
      <input
        readOnly
        value={p.link}
        data-testid={p.testId}
        aria-label={p.label}
        onFocus={(e) => e.currentTarget.select()}
      />
      <button
        type="button"
        data-testid={`${p.testId}-copy`}
        onClick={() => copy(p.link, (ok) => setCopied(ok ? 'ok' : 'failed'))}
      >
        {p.label}
      </button>
      <span className="share-len" data-testid={`${p.testId}-length`}>
        {fmtInt(p.link.length)} characters
        {copied === 'ok'
          ? ' · copied'
          : copied === 'failed'
            ? ' · copy failed: select and copy by hand'
            : ''}
      </span>
    </div>
  );
}
