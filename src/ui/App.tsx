/**
 * The inspector page: input (paste anywhere, drop anywhere, file picker, samples), format and
 * provider pickers, the timeline with its arc gutter, the violations panel, find and filters,
 * keyboard navigation and the help popover.
 */
import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { DEFAULT_PROVIDER, VALIDATORS } from '../model/validate/index.ts';
import { loadSampleIndex, loadSampleText, readFileText, type SampleEntry } from '../io/files.ts';
import type { ParseError } from '../model/types.ts';
import { displayName } from '../model/displayName.ts';
import { noticeStore } from '../state/permalink/notices.ts';
import {
  selectCounts,
  selectDimmed,
  selectMatches,
  selectPinnedText,
  selectTokens,
  selectViolationMessages,
  selectViolationTargets,
} from '../state/selectors.ts';
import { DEFAULT_SAMPLE_ID, useAppStore, type Source } from '../state/store.ts';
import { AmbiguousFormat } from './AmbiguousFormat.tsx';
import { selectPairSignals } from './arcs/pairSignals.ts';
import { FindBar } from './FindBar.tsx';
import { describeSource, fmtInt } from './format.ts';
import { HelpPopover } from './HelpPopover.tsx';
import { InputHint } from './InputHint.tsx';
import { nextInList, stepExchange, stepMessage } from './navigation.ts';
import { ParseErrorBanner } from './ParseErrorBanner.tsx';
import { ShareBar } from './share/ShareBar.tsx';
import { Timeline } from './Timeline.tsx';
import { Toolbar } from './Toolbar.tsx';
import { useInspection, useTextCounter } from './useInspection.ts';
import { LoadStatus, partialLoadName } from './LoadStatus.tsx';
import { STREAM_MIN_BYTES } from '../engine/limits.ts';
import { ViolationsPanel } from './ViolationsPanel.tsx';
import { EvictionSimulator } from './budget/EvictionSimulator.tsx';
import { useEviction, useTimelineEviction } from './budget/useEviction.ts';
import { selectSimulatorLostMeaning } from './budget/SimulatorLostMeaning.tsx';
import { FaultPanel } from './faults/FaultPanel.tsx';
import { RepairPanel } from './faults/RepairPanel.tsx';
import { LearnPanel, LearnToggle } from './learn/LearnPanel.tsx';
import { selectFaulted } from '../state/faults.ts';
import { isAwaitingTranscript, unknownSampleNotice } from '../state/permalink/storeLink.ts';
import './styles.css';

/** Below this viewport width (px) the eviction simulator starts collapsed. */
const SIMULATOR_OPEN_MIN_WIDTH = 1200;

function isTypingTarget(t: EventTarget | null): boolean {
  if (!(t instanceof HTMLElement)) return false;
  return (
    t.isContentEditable ||
    t.tagName === 'TEXTAREA' ||
    t.tagName === 'SELECT' ||
    (t.tagName === 'INPUT' && (t as HTMLInputElement).type !== 'checkbox')
  );
}

function useSamples(): SampleEntry[] {
  const [samples, setSamples] = useState<SampleEntry[]>([]);
  useEffect(() => {
    let live = true;
    void loadSampleIndex().then((list) => {
      if (live) setSamples(list);
    });
    return () => {
      live = false;
    };
  }, []);
  return samples;
}

export function App() {
  const samples = useSamples();
  const live = useInspection();
  // A new transcript is shown by a deferred render (time-sliced, interruptible): the first render
  // of a long one takes seconds of components, and input, scroll and the progress bar must stay
  // live meanwhile (issue 7). The page is ready once the deferred render caught up.
  const shownAnalysis = useDeferredValue(live.analysis);
  const shownParsed = useDeferredValue(live.parsed);
  const caughtUp = shownAnalysis === live.analysis && shownParsed === live.parsed;
  const view = { ...live, analysis: shownAnalysis, parsed: shownParsed };
  const { error } = view;
  // Faults the user applied are inputs; the faulted transcript and its analysis are derived.
  const faults = useAppStore((s) => s.faults);
  const repairView = useAppStore((s) => s.repairView);
  const faulted = view.analysis ? selectFaulted(view.analysis, faults) : null;
  const analysis = faulted?.analysis ?? null;
  const source = useAppStore((s) => s.source);
  const setSource = useAppStore((s) => s.setSource);
  const setFormatOverride = useAppStore((s) => s.setFormatOverride);
  const selection = useAppStore((s) => s.selection);
  const select = useAppStore((s) => s.select);
  const find = useAppStore((s) => s.find);
  const roleFilter = useAppStore((s) => s.roleFilter);
  const blockFilter = useAppStore((s) => s.blockFilter);
  const theme = useAppStore((s) => s.theme);
  const lesson = useAppStore((s) => s.lesson);
  const storeBudget = useAppStore((s) => s.budget);
  // `file`: the file that could not be read (empty, binary), named by the banner's note.
  const [fileError, setFileError] = useState<(ParseError & { file?: string }) | null>(null);
  const [showText, setShowText] = useState(false);
  // The simulator panel: open on wide screens, collapsed below SIMULATOR_OPEN_MIN_WIDTH px so the
  // timeline shows on first view; the user's toggle is a view choice (store, and `sim=` in links).
  const simChoice = useAppStore((s) => s.simulator);
  const setSimOpen = useAppStore((s) => s.setSimulator);
  const [wide] = useState(() => window.innerWidth >= SIMULATOR_OPEN_MIN_WIDTH);
  const simOpen = simChoice ?? wide;
  const [help, setHelp] = useState(false);
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(new Set());
  const [dragging, setDragging] = useState(false);
  const findRef = useRef<HTMLInputElement>(null);
  const counter = useTextCounter(analysis !== null);
  // The source of the transcript on screen: a text that fails to parse keeps the previous
  // transcript, and the Sample menu must keep naming that one (not the failed file). A cancelled
  // load brings back the transcript shown before its preview: that one's source with it.
  type Shown = { analysis: unknown; source: Source | null };
  const [shown, setShown] = useState<Shown & { before: Shown | null }>({
    analysis: null,
    source: null,
    before: null,
  });
  // The analysis of a streamed file's preview (its first rows): verdicts wait while it is drawn.
  const [previewAnalysis, setPreviewAnalysis] = useState<unknown>(null);
  if (live.load?.preview && live.analysis !== previewAnalysis) setPreviewAnalysis(live.analysis);
  const partial = partialLoadName(
    view.load,
    view.analysis !== null && view.analysis === previewAnalysis,
  );
  if (view.analysis !== shown.analysis)
    setShown({
      analysis: view.analysis,
      source:
        shown.before !== null && view.analysis === shown.before.analysis
          ? shown.before.source
          : source,
      before: { analysis: shown.analysis, source: shown.source },
    });

  // A streamed file that failed (bad JSON, too deep, a .gz bomb), or any file refused for a limit
  // (nothing in it to fix in the text box): nothing of it is shown, so the store's source goes
  // back to the transcript on screen (the address, the Sample menu and Share name that one, not
  // the failed file) and the banner says the file could not be read, as for a small file that
  // fails to decode (issue 14).
  const failed =
    error && !view.pending && source.origin === 'file' && view.request?.file === source.file
      ? view.request
      : undefined;
  const revert = failed != null && (failed.file !== undefined || error?.kind === 'limit');
  useEffect(() => {
    const back = shown.source;
    if (!revert || !error || !back || back === source) return;
    const name = source.name;
    setFileError({ ...error, message: `${name}: ${error.message}`, file: name });
    setSource(back);
  }, [revert, error, source, shown.source, setSource]);
  // A cancelled load leaves the transcript shown before it: the store's source goes back to that
  // one too, so the address, Copy link, Back and a reload name what is on screen (issue 15).
  const cancelled =
    view.load?.cancelled === true &&
    source.file !== undefined &&
    view.request?.file === source.file;
  useEffect(() => {
    if (cancelled && shown.source && shown.source !== source) setSource(shown.source);
  }, [cancelled, source, shown.source, setSource]);

  // Theme: the system setting unless the user forced one.
  useEffect(() => {
    if (theme) document.documentElement.dataset.theme = theme;
    else delete document.documentElement.dataset.theme;
  }, [theme]);

  // A new transcript starts with every row closed.
  // (Another provider or format for the same text keeps the open rows.)
  useEffect(() => setExpanded(new Set()), [source]);

  const loadSample = useCallback(
    async (entry: SampleEntry) => {
      const r = await loadSampleText(entry);
      if (!r.ok) {
        setFileError(r.error);
        return;
      }
      setFileError(null);
      setSource({ text: r.value, name: entry.file, origin: 'sample', sampleId: entry.id });
    },
    [setSource],
  );

  const loadFile = useCallback(
    async (file: File) => {
      if (file.size > STREAM_MIN_BYTES) {
        // Large file (issue 7): the worker streams it; the page never holds its text.
        setFileError(null);
        setSource({
          text: '',
          name: displayName(file.name.replace(/\.gz$/i, '')),
          origin: 'file',
          file,
        });
        return;
      }
      const r = await readFileText(file);
      if (r.ok && !/\S/.test(r.value)) {
        // An empty file: say so, and keep what is shown (as for any input that does not parse).
        setFileError({
          kind: 'empty',
          message: `${file.name}: the file is empty. Open a request body, a message array or a session log.`,
          file: file.name,
        });
        return;
      }
      if (!r.ok) {
        setFileError({ ...r.error, message: `${file.name}: ${r.error.message}`, file: file.name });
        return;
      }
      setFileError(null);
      setSource({
        text: r.value,
        name: displayName(file.name.replace(/\.gz$/i, '')),
        origin: 'file',
      });
    },
    [setSource],
  );

  // Boot and sample links: while the store has a sample source without text, open the sample
  // it names (a permalink's `src`, set by urlSync) or the default one.
  const wantedSample = useAppStore((s) =>
    s.source.origin === 'sample' && s.source.text === ''
      ? (s.source.sampleId ?? DEFAULT_SAMPLE_ID)
      : null,
  );
  const missingSample =
    wantedSample !== null &&
    wantedSample !== DEFAULT_SAMPLE_ID &&
    samples.length > 0 &&
    !samples.some((s) => s.id === wantedSample);
  useEffect(() => {
    if (wantedSample === null || samples.length === 0) return;
    // A link naming a sample this page does not have says so, and shows no other in its place
    // (its view would land on another transcript); the address keeps the link (issue 15).
    if (missingSample) {
      const notices = noticeStore.getState().notices;
      const notice = unknownSampleNotice(wantedSample);
      if (!notices.some((n) => n.message === notice.message))
        noticeStore.getState().show([...notices, notice]);
      return;
    }
    const entry = samples.find((s) => s.id === wantedSample) ?? samples[0];
    if (entry) void loadSample(entry);
  }, [samples, wantedSample, missingSample, loadSample]);

  // Paste anywhere (outside text fields, which handle their own paste).
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
  }, [setSource]);

  // Drop a file (or text) anywhere.
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
      const file = e.dataTransfer?.files[0];
      if (file) {
        void loadFile(file);
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
  }, [loadFile, setSource]);

  const provider = analysis?.provider ?? null;
  const tokens = analysis ? selectTokens(analysis.transcript, analysis.provider, counter) : null;
  const targets = analysis ? selectViolationTargets(analysis) : [];
  const matches = analysis ? selectMatches(analysis, find) : null;
  const dimmed = analysis ? selectDimmed(analysis, roleFilter, blockFilter) : null;
  const counts = analysis ? selectCounts(analysis) : null;
  const signals = analysis ? selectPairSignals(analysis) : null;
  const sim = useEviction(analysis, tokens);
  const currentMessage = useMemo(() => {
    if (!analysis || !selection) return -1;
    if (selection.kind === 'message') return selection.index;
    const p = analysis.pairs.find((x) => x.key === selection.key);
    return p?.call?.message ?? p?.result?.message ?? -1;
  }, [analysis, selection]);

  const jump = useCallback(
    (message: number) => select({ kind: 'message', index: message }),
    [select],
  );
  const toggle = useCallback(
    (i: number) =>
      setExpanded((prev) => {
        const next = new Set(prev);
        if (next.has(i)) next.delete(i);
        else next.add(i);
        return next;
      }),
    [],
  );
  const stepMatch = useCallback(
    (dir: 1 | -1) => {
      if (!matches) return;
      const m = nextInList(matches.messages, currentMessage, dir);
      if (m >= 0) jump(m);
    },
    [matches, currentMessage, jump],
  );

  // Keyboard navigation (outside text fields).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || isTypingTarget(e.target)) return;
      if (e.key === '?') {
        setHelp((h) => !h);
        e.preventDefault();
        return;
      }
      if (e.key === 'Escape') {
        setHelp(false);
        select(null);
        return;
      }
      if (e.key === '/') {
        findRef.current?.focus();
        e.preventDefault();
        return;
      }
      if (!analysis) return;
      const n = analysis.transcript.messages.length;
      let target = -2;
      if (e.key === 'j' || (e.key === 'ArrowDown' && !e.shiftKey))
        target = stepMessage(n, currentMessage, 1);
      else if (e.key === 'k' || (e.key === 'ArrowUp' && !e.shiftKey))
        target = stepMessage(n, currentMessage, -1);
      else if (e.key === 'J' || (e.key === 'ArrowDown' && e.shiftKey))
        target = stepExchange(analysis.grouping, currentMessage, 1);
      else if (e.key === 'K' || (e.key === 'ArrowUp' && e.shiftKey))
        target = stepExchange(analysis.grouping, currentMessage, -1);
      else if (e.key === 'n')
        target = nextInList(selectViolationMessages(analysis), currentMessage, 1);
      else if (e.key === 'N')
        target = nextInList(selectViolationMessages(analysis), currentMessage, -1);
      else if ((e.key === 'Enter' || e.key === ' ') && currentMessage >= 0) {
        if (e.target instanceof HTMLButtonElement) return;
        toggle(currentMessage);
        e.preventDefault();
        return;
      }
      if (target >= 0) {
        e.preventDefault();
        jump(target);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [analysis, currentMessage, jump, select, toggle]);

  const shownError = fileError ?? error;
  const providerLabel = provider
    ? (VALIDATORS.find((v) => v.id === provider)?.label ?? provider)
    : '';
  const pinned = analysis ? selectPinnedText(analysis.transcript) : '';
  const timelineEviction = useTimelineEviction(sim, analysis?.transcript ?? null, providerLabel);
  // Lost-meaning marks of the primary policy's eviction (issue 8), for the timeline's rows.
  const lost =
    sim && analysis && storeBudget !== null
      ? selectSimulatorLostMeaning(analysis.transcript, sim.view.results[0])
      : null;
  const lostMarks = useMemo(
    () => (lost ? new Map(lost.marks.map((m) => [m.messageIndex, m.kind])) : null),
    [lost],
  );
  const currentMatch = matches ? matches.messages.indexOf(currentMessage) + 1 : 0;

  return (
    <div
      className={`app${dragging ? ' dragging' : ''}`}
      data-testid="app"
      data-ready={analysis && !view.pending && caughtUp ? 'true' : 'false'}
      data-view-chars={view.request?.text.length ?? 0}
    >
      <header className="top">
        <div className="brand">
          <h1>Transcript Inspector</h1>
          <p className="tagline" data-testid="tagline">
            Why did the LLM request with tool calls get an HTTP 400, and what does trimming cut?
          </p>
        </div>
        <Toolbar
          samples={samples}
          shown={shown.source}
          onSample={(e) => void loadSample(e)}
          onFile={(f) => void loadFile(f)}
          requests={view.parsed?.requests}
          requestIndex={view.parsed?.requestIndex}
          detectedFormat={view.parsed?.candidates[0]?.format ?? analysis?.transcript.format ?? null}
          defaultProvider={analysis ? DEFAULT_PROVIDER[analysis.transcript.format] : null}
          showText={showText || error !== null}
          onToggleText={() => setShowText((s) => !s)}
          onHelp={() => setHelp((h) => !h)}
        />
        <LearnToggle samples={samples} />
        <HelpPopover open={help} onClose={() => setHelp(false)} />
        <ShareBar analysis={analysis} counter={counter} shown={shown.source} />
      </header>
      <section className="input-area" aria-label="Your transcript">
        {shown.source?.origin === 'sample' && lesson === null && (
          <InputHint
            sample={
              samples.find((x) => x.id === shown.source?.sampleId)?.title ?? shown.source.name
            }
            onFile={(f) => void loadFile(f)}
            onPasteBox={() => setShowText(true)}
          />
        )}
        {shownError && (
          <ParseErrorBanner
            error={shownError}
            keptPrevious={analysis !== null}
            unreadFile={fileError?.file}
            shown={describeSource(shown.source)}
          />
        )}
        {view.load && <LoadStatus load={view.load} onCancel={view.cancelLoad} />}
        {(showText || error !== null) && (
          <textarea
            className="source-text"
            data-testid="source-text"
            aria-label="Transcript text"
            spellCheck={false}
            placeholder="Paste a request body, a message array or a session log here"
            value={source.text}
            onChange={(e) => {
              const text = e.target.value;
              // A cleared box keeps the last transcript shown, with a note saying why.
              setFileError(
                /\S/.test(text)
                  ? null
                  : {
                      kind: 'empty',
                      message:
                        'The text box is empty: paste a request body, a message array or a session log. The last transcript stays shown.',
                    },
              );
              setSource({ text, name: '', origin: 'paste' });
            }}
          />
        )}
      </section>
      {analysis && tokens && counts && matches && dimmed ? (
        <main className={`main${simOpen ? ' sim-open' : ''}`}>
          <section className="left" aria-label="Transcript timeline">
            <div className="summary" data-testid="summary">
              <span data-testid="format">{analysis.transcript.format}</span> →{' '}
              <span data-testid="provider">{analysis.provider}</span>
              <span>
                <b data-testid="count-messages">{fmtInt(counts.messages)}</b>{' '}
                {counts.messages === 1 ? 'message' : 'messages'}
              </span>
              <span>
                <b data-testid="count-exchanges">{fmtInt(counts.exchanges)}</b>{' '}
                {counts.exchanges === 1 ? 'exchange' : 'exchanges'}
              </span>
              <span title="Arcs join each tool_use to its tool_result (blue: answered in the next message)">
                <span className="swatch sw-arc" aria-hidden="true" />
                <b data-testid="count-arcs">{fmtInt(counts.arcs)}</b>{' '}
                {counts.arcs === 1 ? 'arc' : 'arcs'}
              </span>
              <span
                className={signals && signals.errorArcs > 0 ? 'bad' : ''}
                title={`Pairs the ${providerLabel} verdict holds against the request (red arcs)`}
              >
                <span className="swatch sw-arc-bad" aria-hidden="true" />
                <b data-testid="count-broken">{fmtInt(signals?.errorArcs ?? 0)}</b> broken
              </span>
              {signals && signals.warningArcs > 0 && (
                <span
                  className="warn"
                  data-testid="count-warnings"
                  title={`Pairs pairing finds odd (a reused id, a late or second result) that no ${providerLabel} error names (amber arcs)`}
                >
                  <span className="swatch sw-arc-warn" aria-hidden="true" />
                  <b>{fmtInt(signals.warningArcs)}</b> warning
                  {signals.warningArcs === 1 ? '' : 's'}
                </span>
              )}
              <span
                className="basis"
                title="How the token counts were obtained"
                data-testid="token-basis"
              >
                {fmtInt(tokens.total)} tokens, {tokens.basis.label}
              </span>
              {view.parsed?.ambiguous && (
                <AmbiguousFormat
                  candidates={view.parsed.candidates}
                  current={analysis.transcript.format}
                  onPick={setFormatOverride}
                />
              )}
            </div>
            {analysis.transcript.warnings.length > 0 && (
              <ul className="warnings">
                {analysis.transcript.warnings.map((w, i) => (
                  <li key={i}>{w}</li>
                ))}
              </ul>
            )}
            {pinned && (
              <details className="pinned" data-testid="pinned-system">
                <summary>
                  System prompt ·{' '}
                  {pinned.length > 80
                    ? `${pinned.slice(0, 79).replace(/\s+/g, ' ')}…`
                    : pinned.replace(/\s+/g, ' ')}
                </summary>
                <pre>{pinned}</pre>
              </details>
            )}
            {sim && (
              <EvictionSimulator
                model={sim}
                transcript={analysis.transcript}
                tokens={tokens}
                providerLabel={providerLabel}
                onJump={jump}
                open={simOpen}
                onOpenChange={setSimOpen}
                provisional={partial}
              />
            )}
            <FindBar
              matchCount={matches.messages.length}
              current={currentMatch}
              onStep={stepMatch}
              inputRef={findRef}
            />
            <Timeline
              analysis={analysis}
              tokens={tokens}
              dimmed={dimmed}
              matches={matches}
              violations={targets}
              expanded={expanded}
              onToggle={toggle}
              eviction={timelineEviction}
              lostMarks={lostMarks}
              query={find}
            />
          </section>
          <div className="side-column">
            {/* The lesson stays in view (its own box) while the verdict below scrolls. */}
            <LearnPanel samples={samples} analysis={analysis} tokens={tokens} onJump={jump} />
            <div className="side-scroll" tabIndex={-1}>
              {faulted && <FaultPanel view={faulted} />}
              {faulted && repairView && (
                <RepairPanel
                  transcript={faulted.transcript}
                  provider={analysis.provider}
                  providerLabel={providerLabel}
                  sourceName={source.name}
                  onJump={jump}
                />
              )}
              <ViolationsPanel
                validation={analysis.validation}
                providerLabel={providerLabel}
                targets={targets}
                currentMessage={currentMessage}
                onJump={jump}
                provisional={partial}
              />
            </div>
          </div>
        </main>
      ) : (
        !shownError && (
          <p className="loading" data-testid="loading">
            {missingSample
              ? 'No transcript: the link names a sample this page does not have (see the note above).'
              : isAwaitingTranscript(source)
                ? `No transcript yet: open ${source.name ? `“${source.name}”` : 'the transcript this link was made for'} (Open file…, or drop it anywhere on the page) to see the shared view.`
                : 'Loading… Paste (Ctrl/Cmd+V) or drop a transcript anywhere on the page.'}
          </p>
        )
      )}
      {dragging && <div className="drop-overlay">Drop a transcript file (.json, .jsonl, .gz)</div>}
    </div>
  );
}
