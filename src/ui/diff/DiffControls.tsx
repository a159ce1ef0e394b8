/**
 * What the diff view compares: the request shown against its predecessor, two requests of the
 * file, the simulator's two cuts, or the transcript shown against a pasted one. Each choice is
 * the store's `diff` (the link carries all but the pasted text).
 */
import { useState } from 'react';
import { useStore } from 'zustand';
import { requestListingStore, selectStreamedListing } from '../../state/requests.ts';
import { useAppStore } from '../../state/store.ts';
import { useSession } from '../useSession.ts';

type Mode = 'previous' | 'requests' | 'cuts' | 'pasted';

function RequestPicker({
  label,
  value,
  count,
  onChange,
  testId,
}: {
  label: string;
  value: number;
  count: number;
  onChange: (v: number) => void;
  testId: string;
}) {
  return (
    <label>
      <span className="lbl">{label}</span>
      <select value={value} onChange={(e) => onChange(Number(e.target.value))} data-testid={testId}>
        {Array.from({ length: count }, (_, i) => (
          <option key={i} value={i}>
            {i + 1}
          </option>
        ))}
      </select>
    </label>
  );
}

function PasteOther() {
  const setDiff = useAppStore((s) => s.setDiff);
  const [text, setText] = useState('');
  return (
    <span className="diff-paste">
      <textarea
        aria-label="The transcript to compare with (paste it here)"
        value={text}
        onChange={(e) => setText(e.target.value)}
        rows={2}
        data-testid="diff-paste"
      />
      <button
        type="button"
        disabled={text.trim() === ''}
        onClick={() => setDiff({ kind: 'pasted', other: { text, name: '', origin: 'paste' } })}
      >
        Compare
      </button>
    </span>
  );
}

export function DiffControls({
  requestIndex,
  hasSimulator,
}: {
  requestIndex: number | undefined;
  hasSimulator: boolean;
}) {
  const diff = useAppStore((s) => s.diff);
  const setDiff = useAppStore((s) => s.setDiff);
  const fromText = useStore(requestListingStore, (s) => s.value);
  // A streamed log's calls are the inspect worker's listing (the page holds no text of it).
  const listing = useSession(selectStreamedListing) ?? fromText;
  const count = listing?.ok ? listing.requests.count : 1;
  // Choosing the pasted comparison is the store's choice at once, with nothing pasted yet (an empty
  // text): the view then asks for the paste, and no longer shows the earlier choice's note or diff.
  const pasting = diff?.kind === 'pasted';
  const mode: Mode = diff?.kind ?? 'previous';
  const right = requestIndex ?? count - 1;
  const choose = (m: Mode) => {
    if (m === 'pasted') {
      if (!pasting) setDiff({ kind: 'pasted', other: { text: '', name: '', origin: 'paste' } });
    } else if (m === 'previous') setDiff({ kind: 'previous' });
    else if (m === 'requests') setDiff({ kind: 'requests', left: Math.max(0, right - 1), right });
    else if (m === 'cuts') setDiff({ kind: 'cuts' });
  };
  return (
    <span className="diff-controls">
      <label>
        <span className="lbl">Compare</span>
        <select
          value={mode}
          onChange={(e) => choose(e.target.value as Mode)}
          data-testid="diff-mode"
        >
          <option value="previous" disabled={count < 2}>
            the request with its predecessor
          </option>
          <option value="requests" disabled={count < 2}>
            two requests
          </option>
          <option value="cuts" disabled={!hasSimulator}>
            the two policies’ cuts
          </option>
          <option value="pasted">with a pasted transcript</option>
        </select>
      </label>
      {diff?.kind === 'requests' && !pasting && (
        <>
          <RequestPicker
            label="Left"
            value={diff.left}
            count={count}
            testId="diff-left"
            onChange={(left) => setDiff({ ...diff, left })}
          />
          <RequestPicker
            label="Right"
            value={diff.right}
            count={count}
            testId="diff-right"
            onChange={(r) => setDiff({ ...diff, right: r })}
          />
        </>
      )}
      {pasting && <PasteOther />}
    </span>
  );
}
