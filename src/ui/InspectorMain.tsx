/**
 * The page's main area once a transcript is shown: the timeline column (stats line, warnings,
 * the pinned system prompt, the eviction simulator, find, the timeline) and the verdict column.
 */
import { useCallback, useMemo, type RefObject } from 'react';
import type { SampleEntry } from '../io/files.ts';
import type { Analysis } from '../model/analyze.ts';
import { blockWordsOf } from '../model/parse/registry.ts';
import type { TextCounter } from '../model/tokens.ts';
import type { Transcript } from '../model/types.ts';
import { VALIDATORS } from '../model/validate/index.ts';
import type { FaultedView } from '../state/faults.ts';
import {
  selectCounts,
  selectDimmed,
  selectMatches,
  selectPinnedLabel,
  selectPinnedText,
  selectTokens,
  selectViolationTargets,
  selectWindowVerdict,
  type ViolationTarget,
} from '../state/selectors.ts';
import { evictionPreparing, evictionReading } from '../state/eviction.ts';
import { mayListRequests } from '../state/requests.ts';
import { useAppStore } from '../state/store.ts';
import { selectPairSignals } from './arcs/pairSignals.ts';
import { EvictionSimulator, PreparingSimulator } from './budget/EvictionSimulator.tsx';
import { SimulatorSplitter, useSimShare } from './budget/SimulatorSplitter.tsx';
import { selectSimulatorLostMeaning } from './budget/SimulatorLostMeaning.tsx';
import { useEviction, useTimelineEviction } from './budget/useEviction.ts';
import { FindBar } from './FindBar.tsx';
import { nextInList } from './navigation.ts';
import { PartBoundary } from './PartBoundary.tsx';
import { PinnedSystem } from './PinnedSystem.tsx';
import { DiffView } from './diff/DiffView.tsx';
import { RequestStrip, type RequestStripProps } from './strip/RequestStrip.tsx';
import { SummaryLine } from './SummaryLine.tsx';
import { Timeline } from './Timeline.tsx';
import { useFindExit } from './useFindExit.ts';
import type { InspectionState } from './useInspection.ts';
import type { RevealRequest } from './useTimelineScroll.ts';
import { VerdictColumn } from './VerdictColumn.tsx';

/**
 * No violation rows: a preview's verdicts, cuts and pairs judge a request cut off mid-read, so
 * none is marked on the timeline until the whole file is read.
 */
const NO_TARGETS: readonly ViolationTarget[] = [];

export interface InspectorMainProps {
  analysis: Analysis;
  faulted: FaultedView | null;
  parsed: InspectionState['parsed'];
  samples: SampleEntry[];
  counter: TextCounter;
  simOpen: boolean;
  setSimOpen: (open: boolean) => void;
  /** The streamed file whose preview is drawn: verdicts are provisional. */
  partial: string | null;
  expanded: ReadonlySet<number>;
  toggle: (message: number) => void;
  /** The selected message (-1: none). */
  currentMessage: number;
  /** Select a message and bring its row into view; `focus`: and focus it (a panel's jump). */
  jump: (message: number, focus?: boolean) => void;
  /** The latest request to bring the selected row onto the page (`jump`'s), for the timeline. */
  reveal: RevealRequest | null;
  findRef: RefObject<HTMLInputElement | null>;
}

/** The provider's label as the validators name it (the id when none does). */
export function providerLabelOf(provider: string): string {
  return VALIDATORS.find((v) => v.id === provider)?.label ?? provider;
}

/**
 * The primary policy's eviction as the timeline's rows show it (`useTimelineEviction`), and its
 * lost-meaning marks (issue 8): message index → kind, null while no budget is set.
 */
function useSimMarks(
  sim: ReturnType<typeof useEviction>,
  transcript: Transcript,
  providerLabel: string,
) {
  const timelineEviction = useTimelineEviction(sim, transcript, providerLabel);
  const storeBudget = useAppStore((s) => s.budget);
  const lost =
    sim && storeBudget !== null
      ? selectSimulatorLostMeaning(transcript, sim.view.results[0])
      : null;
  const marks = useMemo(
    () => (lost ? new Map(lost.marks.map((m) => [m.messageIndex, m.kind])) : null),
    [lost],
  );
  return [timelineEviction, marks] as const;
}

/**
 * The find bar's step to the next (or previous) match and its exit (Escape), and a panel's "Jump
 * to message", which is an in-page link: the row comes into view and takes the focus.
 */
function useJumps(
  matches: ReturnType<typeof selectMatches>,
  currentMessage: number,
  jump: InspectorMainProps['jump'],
) {
  const stepMatch = useCallback(
    (dir: 1 | -1) => {
      const m = nextInList(matches.messages, currentMessage, dir);
      if (m >= 0) jump(m);
    },
    [matches, currentMessage, jump],
  );
  const jumpTo = useCallback((m: number) => jump(m, true), [jump]);
  const exitFind = useFindExit(currentMessage, jump);
  return { stepMatch, jumpTo, exitFind };
}

/** The parser's non-fatal notes (broken JSONL lines, no system prompt), one per line. */
function TranscriptWarnings({ warnings }: { warnings: readonly string[] }) {
  if (warnings.length === 0) return null;
  return (
    <ul className="warnings">
      {warnings.map((w, i) => (
        <li key={i}>{w}</li>
      ))}
    </ul>
  );
}

/** The strip's props: the parse's requests, and whether its marks count as the header does. */
function stripProps(
  parsed: InspectorMainProps['parsed'],
  tokens: ReturnType<typeof selectTokens>,
): RequestStripProps & { exactTokens: boolean; listable: boolean } {
  return {
    requests: parsed?.requests,
    requestIndex: parsed?.requestIndex,
    exactTokens: tokens.basis.encoding !== 'chars/4',
    listable: mayListRequests(parsed),
  };
}

/**
 * The eviction simulator (its own error boundary) and, when open, its splitter; while the worker
 * prepares a long transcript's eviction parts, or the page reads the texts of a large file's
 * messages it prepares them from (no model yet), the panel saying so.
 */
function SimulatorPart(p: {
  sim: ReturnType<typeof useEviction>;
  analysis: Analysis;
  tokens: ReturnType<typeof selectTokens>;
  providerLabel: string;
  onJump: (message: number) => void;
  main: InspectorMainProps;
  split: ReturnType<typeof useSimShare>;
}) {
  const { simOpen, setSimOpen, partial } = p.main;
  if (!p.sim) {
    if (evictionPreparing(p.analysis))
      return <PreparingSimulator open={simOpen} onOpenChange={setSimOpen} />;
    return evictionReading(p.analysis) ? (
      <PreparingSimulator open={simOpen} onOpenChange={setSimOpen} reading />
    ) : null;
  }
  return (
    <>
      <PartBoundary part="eviction simulator" resetKey={p.analysis}>
        <EvictionSimulator
          model={p.sim}
          transcript={p.analysis.transcript}
          tokens={p.tokens}
          providerLabel={p.providerLabel}
          onJump={p.onJump}
          open={simOpen}
          onOpenChange={setSimOpen}
          provisional={partial}
        />
      </PartBoundary>
      {simOpen && !partial && (
        <SimulatorSplitter share={p.split.share} onShare={p.split.setShare} />
      )}
    </>
  );
}

export function InspectorMain(p: InspectorMainProps) {
  const { analysis, currentMessage, jump, partial } = p;
  const find = useAppStore((s) => s.find);
  const diff = useAppStore((s) => s.diff);
  const dimmed = useAppStore((s) => selectDimmed(analysis, s.roleFilter, s.blockFilter));
  const tokens = selectTokens(analysis.transcript, analysis.provider, p.counter);
  const targets = selectViolationTargets(selectWindowVerdict(analysis, tokens).analysis);
  const matches = selectMatches(analysis, find);
  const sim = useEviction(analysis, tokens);
  const split = useSimShare();
  const { stepMatch, jumpTo, exitFind } = useJumps(matches, currentMessage, jump);
  const providerLabel = providerLabelOf(analysis.provider);
  const pinned = selectPinnedText(analysis.transcript);
  const [timelineEviction, lostMarks] = useSimMarks(sim, analysis.transcript, providerLabel);
  const strip = stripProps(p.parsed, tokens);
  return (
    <main className={`main${p.simOpen ? ' sim-open' : ''}`}>
      <section className="left" aria-label="Transcript timeline" style={split.style}>
        <PartBoundary part="request strip" resetKey={p.parsed}>
          <RequestStrip {...strip} />
        </PartBoundary>
        <SummaryLine
          analysis={analysis}
          counts={selectCounts(analysis)}
          signals={selectPairSignals(analysis)}
          tokens={tokens}
          providerLabel={providerLabel}
          parsed={p.parsed}
          provisional={partial}
        />
        <TranscriptWarnings warnings={analysis.transcript.warnings} />
        {pinned && <PinnedSystem text={pinned} label={selectPinnedLabel(analysis.transcript)} />}
        {(diff === null || diff.kind === 'cuts') && (
          <SimulatorPart
            sim={sim}
            analysis={analysis}
            tokens={tokens}
            providerLabel={providerLabel}
            onJump={jumpTo}
            main={p}
            split={split}
          />
        )}
        {diff !== null ? (
          <PartBoundary part="diff view" resetKey={analysis}>
            <DiffView
              analysis={analysis}
              requestIndex={p.parsed?.requestIndex}
              eviction={sim && sim.view.active ? sim.view : null}
              policyNames={sim ? [sim.choices[0].id, sim.choices[1].id] : ['', '']}
              exactTokens={strip.exactTokens}
            />
          </PartBoundary>
        ) : (
          <>
            <FindBar
              matchCount={matches.messages.length}
              reading={matches.reading}
              current={matches.messages.indexOf(currentMessage) + 1}
              onStep={stepMatch}
              inputRef={p.findRef}
              onExit={exitFind}
              words={blockWordsOf(analysis.transcript.format)}
            />
            <PartBoundary part="timeline" resetKey={analysis}>
              <Timeline
                analysis={analysis}
                tokens={tokens}
                dimmed={dimmed}
                matches={matches}
                violations={partial ? NO_TARGETS : targets}
                expanded={p.expanded}
                onToggle={p.toggle}
                eviction={partial ? null : timelineEviction}
                lostMarks={partial ? null : lostMarks}
                provisional={partial !== null}
                query={find}
                reveal={p.reveal}
              />
            </PartBoundary>
          </>
        )}
      </section>
      <PartBoundary part="verdict column" resetKey={analysis}>
        <VerdictColumn
          samples={p.samples}
          analysis={analysis}
          faulted={p.faulted}
          tokens={tokens}
          providerLabel={providerLabel}
          targets={targets}
          currentMessage={currentMessage}
          onJump={jumpTo}
          provisional={partial}
          listable={strip.listable}
        />
      </PartBoundary>
    </main>
  );
}
