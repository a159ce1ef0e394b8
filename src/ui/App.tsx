/**
 * The inspector page: input (paste anywhere, drop anywhere, file picker, samples; input/), format
 * and provider pickers, the timeline with its arc gutter, the verdict column, find and filters,
 * keyboard navigation and the help popover.
 */
import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import type { Analysis } from '../model/analyze.ts';
import type { ParseError } from '../model/types.ts';
import { selectFaulted } from '../state/faults.ts';
import { countsOnPage } from '../state/tokens.ts';
import { activeSession } from '../state/session/index.ts';
import { useAppStore, type Source } from '../state/store.ts';
import { InputArea } from './InputArea.tsx';
import { sourceError } from './input/fileError.ts';
import { useInputs } from './input/useInputs.ts';
import { InspectorMain } from './InspectorMain.tsx';
import { NoTranscript } from './NoTranscript.tsx';
import { PageHeader } from './PageHeader.tsx';
import { PartBoundary } from './PartBoundary.tsx';
import { FleetView } from './fleet/FleetView.tsx';
import { FleetEntry } from './fleet/ScanFolder.tsx';
import { useInspection, useTextCounter, type InspectionState } from './useInspection.ts';
import { useSession } from './useSession.ts';
import { useCarriedProvider } from './useCarriedProvider.ts';
import { useKeyboardNavigation } from './useKeyboardNavigation.ts';
import { useShownSource } from './useShownSource.ts';
import type { RevealRequest } from './useTimelineScroll.ts';
import './styles.css';

/** Below this viewport width (px) the eviction simulator starts collapsed. */
const SIMULATOR_OPEN_MIN_WIDTH = 1200;

/** Theme: the system setting unless the user forced one. */
function useTheme(): void {
  const theme = useAppStore((s) => s.theme);
  useEffect(() => {
    if (theme) document.documentElement.dataset.theme = theme;
    else delete document.documentElement.dataset.theme;
  }, [theme]);
}

const NO_ROWS: ReadonlySet<number> = new Set();

/**
 * The open rows of the timeline. A new transcript starts with every row closed (another
 * provider or format for the same text keeps the open rows); a source shown again (Leave Learn
 * mode restores the one before) reopens the rows it had open.
 */
function useOpenRows(source: Source): [ReadonlySet<number>, (message: number) => void] {
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(NO_ROWS);
  // The rows opened per source are the session's (a source shown again reopens them).
  const openRowsOf = activeSession().openRows;
  useEffect(() => setExpanded(openRowsOf.get(source) ?? NO_ROWS), [openRowsOf, source]);
  const toggle = useCallback(
    (i: number) =>
      setExpanded((prev) => {
        const next = new Set(prev);
        if (next.has(i)) next.delete(i);
        else next.add(i);
        openRowsOf.set(source, next);
        return next;
      }),
    [openRowsOf, source],
  );
  return [expanded, toggle];
}

/**
 * The simulator panel: open on wide screens, collapsed below SIMULATOR_OPEN_MIN_WIDTH px so the
 * timeline shows on first view; the user's toggle is a view choice (store, and `sim=` in links).
 */
function useSimulatorOpen(): [boolean, (open: boolean) => void] {
  const simChoice = useAppStore((s) => s.simulator);
  const setSimOpen = useAppStore((s) => s.setSimulator);
  const [wide] = useState(() => window.innerWidth >= SIMULATOR_OPEN_MIN_WIDTH);
  return [simChoice ?? wide, setSimOpen];
}

/**
 * What the engine answered, drawn by a deferred render (time-sliced, interruptible): the first
 * render of a long transcript takes seconds of components, and input, scroll and the progress bar
 * must stay live meanwhile (issue 7). `caughtUp`: the deferred render has caught up (the page is
 * ready). Faults the user applied are part of the request: the engine's answer is the faulted
 * transcript's analysis with what the faults did (`view.faults`), drawn the same way.
 */
function useDrawnView() {
  const live = useInspection();
  const shownAnalysis = useDeferredValue(live.analysis);
  const shownParsed = useDeferredValue(live.parsed);
  const shownFaults = useDeferredValue(live.faults);
  const caughtUp =
    shownAnalysis === live.analysis && shownParsed === live.parsed && shownFaults === live.faults;
  const view = { ...live, analysis: shownAnalysis, parsed: shownParsed, faults: shownFaults };
  const faulted = view.analysis ? selectFaulted(view.analysis, view.faults) : null;
  return { live, view, caughtUp, faulted, analysis: faulted?.analysis ?? null };
}

/**
 * The selected message (a selected pair: its call's message, else its result's; -1: none), and
 * `jump` to select a message and ask the timeline to bring its row onto the page (`reveal`, a new
 * request per jump; `focus`: and move the focus to it).
 */
function useSelectedMessage(analysis: Analysis | null) {
  const selection = useAppStore((s) => s.selection);
  const select = useAppStore((s) => s.select);
  const currentMessage = useMemo(() => {
    if (!analysis || !selection) return -1;
    if (selection.kind === 'message') return selection.index;
    const p = analysis.pairs.find((x) => x.key === selection.key);
    return p?.call?.message ?? p?.result?.message ?? -1;
  }, [analysis, selection]);
  const [reveal, setReveal] = useState<RevealRequest | null>(null);
  const jump = useCallback(
    (message: number, focus = false) => {
      select({ kind: 'message', index: message });
      setReveal({ message, focus });
    },
    [select],
  );
  return { currentMessage, jump, reveal };
}

/**
 * The view's parse error, with how the file was read said first (`sourceError`) once the error
 * is about the store's source (not an answer to the one before).
 */
function viewError(
  { error, request }: Pick<InspectionState, 'error' | 'request'>,
  source: Source,
): ParseError | null {
  if (!error) return null;
  const current = request?.text === source.text && request.file === source.file;
  return current ? sourceError(error, source) : error;
}

/**
 * The error of the input the text box holds: the rejected input's (`AppState.rejected`: its text
 * went back to the box, the source to the transcript shown), else the engine's. While a newer
 * input is read the last one stays, so the banner, and the box it opened, do not blink away at
 * each keystroke of a fix.
 */
function useInputError(view: InspectionState, source: Source): ParseError | null {
  const rejected = useAppStore((s) => s.rejected);
  // Memoised: sourceError builds a new error, and a new one each render would set `held` forever.
  const { error, request } = view;
  const fromView = useMemo(() => viewError({ error, request }, source), [error, request, source]);
  const now = rejected?.error ?? fromView;
  const [held, setHeld] = useState(now);
  if (!view.pending && held !== now) setHeld(now);
  return view.pending ? (now ?? held) : now;
}

/**
 * Tell the session when the page has drawn its current view (`ready`: the answer shown, the
 * deferred render caught up), so the worker's side results that came meanwhile (eviction parts,
 * sweeps, the request strip) are applied then and do not restart that render (issue 38).
 */
function useDrawnSignal(ready: boolean): void {
  const current = useSession((s) => s.view);
  useEffect(() => {
    const session = activeSession();
    session.holdSideResults(true);
    return () => session.holdSideResults(false);
  }, []);
  useEffect(() => {
    if (ready) activeSession().drawn(current);
  }, [ready, current]);
}

export function App() {
  const inputs = useInputs();
  const { samples, fileError, setFileError, loadSample, loadFile, reloadFile } = inputs;
  const { live, view, caughtUp, faulted, analysis } = useDrawnView();
  const source = useAppStore((s) => s.source);
  const [showText, setShowText] = useState(false);
  const [simOpen, setSimOpen] = useSimulatorOpen();
  const [help, setHelp] = useState(false);
  const [expanded, toggle] = useOpenRows(source);
  const findRef = useRef<HTMLInputElement>(null);
  // The exact counter loads on the page only for a transcript the page counts itself (issue 38).
  const { counter } = useTextCounter(analysis !== null && countsOnPage(analysis.transcript));
  const { shown, partial } = useShownSource(live, view, setFileError);
  useTheme();
  useCarriedProvider(live.analysis);
  const { currentMessage, jump, reveal } = useSelectedMessage(analysis);
  useKeyboardNavigation({ analysis, currentMessage, jump, toggle, setHelp, findRef });
  const inputError = useInputError(view, source);
  const shownError = fileError ?? inputError;
  const ready = analysis !== null && !view.pending && caughtUp;
  useDrawnSignal(ready);

  return (
    <div
      className={`app${inputs.dragging ? ' dragging' : ''}`}
      data-testid="app"
      data-ready={ready ? 'true' : 'false'}
      data-view-chars={view.request?.text.length ?? 0}
    >
      <PageHeader
        samples={samples}
        shown={shown}
        onSample={(e) => void loadSample(e)}
        onFile={(f) => void loadFile(f)}
        onFileChanged={(f) => void reloadFile(f)}
        parsed={view.parsed}
        analysis={analysis}
        showText={showText || inputError !== null}
        onToggleText={() => setShowText((s) => !s)}
        help={help}
        setHelp={setHelp}
        scanEntry={inputs.fleet.shown ? null : <FleetEntry fleet={inputs.fleet} />}
      />
      <InputArea
        samples={samples}
        shown={shown}
        error={shownError}
        fileError={fileError}
        keptPrevious={analysis !== null}
        load={view.load}
        // Until the answer is drawn: the deferred render of a long transcript takes a while too.
        working={view.pending || !caughtUp}
        onCancelLoad={view.cancelLoad}
        showText={showText || inputError !== null}
        onShowText={() => setShowText(true)}
        onFile={(f) => void loadFile(f)}
        setFileError={setFileError}
        shownValid={hintValid(analysis, view.parsed?.requests?.length ?? 1)}
        onBrokenSample={() => openBrokenSample(samples, loadSample)}
        fleetShown={inputs.fleet.shown}
      />
      {inputs.fleet.shown ? (
        <PartBoundary part="fleet" resetKey={inputs.fleet.scan}>
          <FleetView fleet={inputs.fleet} />
        </PartBoundary>
      ) : analysis ? (
        <PartBoundary part="inspector" resetKey={analysis}>
          <InspectorMain
            analysis={analysis}
            faulted={faulted}
            parsed={view.parsed}
            samples={samples}
            counter={counter}
            simOpen={simOpen}
            setSimOpen={setSimOpen}
            partial={partial}
            expanded={expanded}
            toggle={toggle}
            currentMessage={currentMessage}
            jump={jump}
            reveal={reveal}
            findRef={findRef}
          />
        </PartBoundary>
      ) : (
        !shownError && <NoTranscript source={source} missingSample={inputs.missingSample} />
      )}
      {inputs.dragging && (
        <div className="drop-overlay">
          Drop a transcript file (.json, .jsonl, .gz), a scan&apos;s .parquet, or a folder of
          session logs to scan
        </div>
      )}
    </div>
  );
}

/** The first screen's "show one": a broken sample (an orphan result after a trim), loaded. */
/**
 * The verdict the sample hint states ("a valid request, no 400"): only of a file of one request;
 * null for several (the strip shows which get a 400) or none yet.
 */
function hintValid(analysis: Analysis | null, requests: number): boolean | null {
  return analysis && requests <= 1 ? analysis.validation.valid : null;
}

function openBrokenSample<S extends { id: string }>(
  samples: readonly S[],
  loadSample: (s: S) => Promise<unknown>,
): void {
  const broken = samples.find((x) => x.id === 'broken-orphan-after-trim');
  if (broken) void loadSample(broken);
}
