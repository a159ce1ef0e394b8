/**
 * The fault menu (issue 8): on a selected tool_use (a pair) or assistant turn, apply one of the
 * faults that orphan a call — tool raised, timeout of one parallel call, cancel mid-turn, retry
 * after a network error — or a trailing truncation; list what was applied, undo it, and open
 * "Repair all". The applied faults are a user choice in the store (`faults`); the faulted
 * transcript is derived (state/faults.ts).
 */
import { useEffect, useId, useRef, useState, type RefObject } from 'react';
import { FAULT_LABELS, type FaultSpec } from '../../model/faults.ts';
import { faultsBehind, type FaultedView } from '../../state/faults.ts';
import { useAppStore } from '../../state/store.ts';
import { selectFaultMenu } from './faultMenu.ts';
import './faults.css';

export interface FaultPanelProps {
  view: FaultedView;
  /**
   * The streamed file whose preview is drawn (null once it is read whole): faults and Repair all
   * would act on its first rows only, so their buttons wait, and say why.
   */
  provisional?: string | null | undefined;
}

/** Why the buttons wait while a streamed file is read, named by their `aria-describedby`. */
function ProvisionalNote({ id, name }: { id: string; name: string }) {
  return (
    <p className="fault-hint" id={id} data-testid="fault-provisional" role="status">
      Faults and Repair all wait for the whole of {name}: the rows shown are only its first
      messages.
    </p>
  );
}

/**
 * "Drop the last N messages": the count (1…n, clamped as typed) and the button that applies the
 * truncate fault.
 * @param n messages in the (faulted) transcript
 */
function TruncateFault({
  n,
  add,
  waitNote,
  busy,
}: {
  n: number;
  add: (spec: FaultSpec) => void;
  /** The id of the note saying why the button waits (a load is provisional), else undefined. */
  waitNote: string | undefined;
  /** The button waits (a provisional load, or faults being applied). */
  busy: boolean;
}) {
  const [truncate, setTruncate] = useState(1);
  return (
    <div className="fault-truncate">
      <label>
        Drop the last{' '}
        <input
          type="number"
          min={1}
          max={Math.max(1, n)}
          value={truncate}
          data-testid="fault-truncate-count"
          onChange={(e) => setTruncate(Math.max(1, Math.min(n, Number(e.target.value) || 1)))}
        />{' '}
        message
        {truncate === 1 ? '' : 's'}
      </label>
      <button
        type="button"
        data-testid="fault-truncate"
        disabled={n === 0 || busy}
        aria-describedby={waitNote}
        onClick={() => add({ kind: 'truncate', count: truncate })}
      >
        {FAULT_LABELS.truncate}
      </button>
    </div>
  );
}

/** The faults applied so far (as described), why the last one failed if it did, and the undos. */
function AppliedFaults({
  view,
  faults,
  setFaults,
  lastRef,
}: {
  view: FaultedView;
  faults: readonly FaultSpec[];
  setFaults: (faults: FaultSpec[]) => void;
  /** The last applied fault's entry, which takes the focus when its menu button goes. */
  lastRef: RefObject<HTMLLIElement | null>;
}) {
  const last = view.descriptions.length - 1;
  return (
    <div className="fault-applied" data-testid="fault-applied">
      <ol aria-label="Applied faults">
        {view.descriptions.map((d, i) => (
          <li
            key={i}
            data-testid="fault-applied-entry"
            ref={i === last ? lastRef : undefined}
            tabIndex={i === last ? -1 : undefined}
          >
            {d}
          </li>
        ))}
      </ol>
      {view.error && <p className="fault-error">Not applied: {view.error}</p>}
      <div className="fault-actions">
        <button
          type="button"
          data-testid="fault-undo"
          onClick={() => setFaults(faults.slice(0, -1))}
        >
          Undo last fault
        </button>
        <button type="button" data-testid="fault-undo-all" onClick={() => setFaults([])}>
          Back to the original
        </button>
      </div>
    </div>
  );
}

/**
 * A fault applied from the menu takes its button away (the fault is no longer offered), which
 * left the focus on the body (newcomer: Enter on "Tool raised: search_invoices", then nowhere).
 * Once the engine has answered with it, the focus goes to the applied fault's entry in the list,
 * which names what was done, with Undo next to it — unless the user has put the focus elsewhere
 * meanwhile.
 * @returns the last entry's ref and `addFromMenu`, which applies a fault and asks for that move
 */
function useFocusOnApplied(
  view: FaultedView,
  faults: readonly FaultSpec[],
  add: (spec: FaultSpec) => void,
) {
  const lastRef = useRef<HTMLLIElement>(null);
  const wanted = useRef<number | null>(null);
  useEffect(() => {
    const count = wanted.current;
    if (count === null || view.descriptions.length < count) return;
    wanted.current = null;
    const active = document.activeElement;
    const lost = active === null || active === document.body || !active.isConnected;
    if (lost || (active instanceof HTMLButtonElement && active.disabled)) lastRef.current?.focus();
  }, [view, faults]);
  const addFromMenu = (spec: FaultSpec) => {
    wanted.current = faults.length + 1;
    add(spec);
  };
  return { lastRef, addFromMenu };
}

/** The fault panel: the menu for the selection, the truncate fault, what is applied, Repair all. */
export function FaultPanel({ view, provisional }: FaultPanelProps) {
  const selection = useAppStore((s) => s.selection);
  const faults = useAppStore((s) => s.faults);
  const setFaults = useAppStore((s) => s.setFaults);
  const repairView = useAppStore((s) => s.repairView);
  const setRepairView = useAppStore((s) => s.setRepairView);
  const items = selectFaultMenu(view, selection);
  const n = view.transcript.messages.length;
  const add = (spec: FaultSpec) => setFaults([...faults, spec]);
  const { lastRef, addFromMenu } = useFocusOnApplied(view, faults, add);
  const noteId = useId();
  const waitNote = provisional ? noteId : undefined;
  // The engine is applying the store's faults: a fault from this view's menu would target the
  // transcript before them, so the menu waits for the answer (a few ms on a short transcript).
  const busy = waitNote !== undefined || faultsBehind(view, faults);

  return (
    <section className="fault-panel" data-testid="fault-panel" aria-label="Faults and repair">
      <h2>Faults</h2>
      {provisional && <ProvisionalNote id={noteId} name={provisional} />}
      {items.length > 0 ? (
        <div className="fault-menu" data-testid="fault-menu">
          {items.map((it) => (
            <button
              key={JSON.stringify(it.spec)}
              type="button"
              data-testid={`fault-${it.spec.kind}`}
              data-pair={'pairKey' in it.spec ? it.spec.pairKey : undefined}
              disabled={busy}
              aria-describedby={waitNote}
              onClick={() => addFromMenu(it.spec)}
            >
              {it.label}
            </button>
          ))}
        </div>
      ) : (
        <p className="fault-hint">
          Select an assistant turn or a tool_use to inject a fault that leaves a call unanswered.
        </p>
      )}
      <TruncateFault n={n} add={add} waitNote={waitNote} busy={busy} />
      {faults.length > 0 && (
        <AppliedFaults view={view} faults={faults} setFaults={setFaults} lastRef={lastRef} />
      )}
      <button
        type="button"
        className="repair-toggle"
        data-testid="repair-all"
        aria-pressed={repairView}
        disabled={waitNote !== undefined}
        aria-describedby={waitNote}
        onClick={() => setRepairView(!repairView)}
      >
        {repairView ? 'Hide the repair' : 'Repair all'}
      </button>
    </section>
  );
}
