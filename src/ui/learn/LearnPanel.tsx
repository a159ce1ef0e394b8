/**
 * Learn mode (issue 8): walks the lesson steps of model/lesson.ts. Each step sets the page
 * (sample, provider, the two policies, budget, selection, faults, the repair view) and says in
 * two or three sentences what to look at. The step shown is a user choice in the store
 * (`lesson`), so it travels in the permalink. Leaving (the Learn button or Leave) restores the
 * view the user had before entering (state/lesson.ts), so no lesson fault stays applied.
 */
import { useCallback, useEffect, useRef } from 'react';
import { loadSampleText, type SampleEntry } from '../../io/files.ts';
import type { Analysis } from '../../model/analyze.ts';
import { LESSON, lessonBudget, lessonStepIndex, type LessonStep } from '../../model/lesson.ts';
import type { TokenTable } from '../../model/tokens.ts';
import { leaveLesson, lessonStepPatch, rememberBeforeLesson } from '../../state/lesson.ts';
import { appStore, useAppStore } from '../../state/store.ts';
import { LearnPolicies } from './LearnPolicies.tsx';
import { activeSession } from '../../state/session/index.ts';
import '../faults/faults.css';

/**
 * The step being applied while its sample loads is the session's (`pendingLessonStep`, null when
 * none): Next/Previous count from it, so quick clicks during a load advance one step each, and a
 * later click supersedes an earlier load.
 */
const pending = () => activeSession();

/**
 * Apply a step: load its sample (unless it is already shown) and set every field the step names
 * in one store update, so nothing resets what the step chose. A step superseded by a later one
 * while its sample loads is dropped.
 */
export function useApplyStep(samples: readonly SampleEntry[]): (step: LessonStep) => Promise<void> {
  return useCallback(
    async (step: LessonStep) => {
      pending().pendingLessonStep = step.id;
      const cur = appStore.getState().source;
      let text = cur.origin === 'sample' && cur.sampleId === step.state.sample ? cur.text : '';
      const entry = samples.find((s) => s.id === step.state.sample);
      let name = cur.name;
      if (text === '' && entry) {
        const r = await loadSampleText(entry);
        if (pending().pendingLessonStep !== step.id) return;
        if (!r.ok) {
          pending().pendingLessonStep = null;
          return;
        }
        text = r.value;
        name = entry.file;
      }
      const s = step.state;
      appStore.setState({
        ...(text !== cur.text || cur.sampleId !== s.sample
          ? {
              source: { text, name, origin: 'sample' as const, sampleId: s.sample },
              rejected: null,
            }
          : {}),
        ...lessonStepPatch(step),
      });
      if (pending().pendingLessonStep === step.id) pending().pendingLessonStep = null;
    },
    [samples],
  );
}

/** Leave Learn mode: cancel a step still loading, restore the user's view (state/lesson.ts). */
function leave(): void {
  pending().pendingLessonStep = null;
  leaveLesson(appStore);
}

/** The header button that enters or leaves Learn mode. */
export function LearnToggle({ samples }: { samples: readonly SampleEntry[] }) {
  const lesson = useAppStore((s) => s.lesson);
  const apply = useApplyStep(samples);
  const first = LESSON[0];
  return (
    <button
      type="button"
      className="learn-toggle"
      data-testid="learn-toggle"
      aria-pressed={lesson !== null}
      title={lesson !== null ? 'Leave Learn mode' : 'A guided lesson, one step at a time'}
      onClick={() => {
        if (lesson !== null) leave();
        else if (first) {
          rememberBeforeLesson(appStore);
          void apply(first);
        }
      }}
    >
      Learn
    </button>
  );
}

export interface LearnPanelProps {
  samples: readonly SampleEntry[];
  /** The analysis shown on the timeline. */
  analysis: Analysis;
  /** Its token table (the page's counter). */
  tokens: TokenTable;
  onJump: (message: number) => void;
}

/** The lesson step shown: its title and text, the navigation and the policy comparison. */
export function LearnPanel({ samples, analysis, tokens, onJump }: LearnPanelProps) {
  const lesson = useAppStore((s) => s.lesson);
  const sampleId = useAppStore((s) => s.source.sampleId);
  const faults = useAppStore((s) => s.faults);
  const apply = useApplyStep(samples);
  const at = lesson === null ? -1 : lessonStepIndex(lesson);
  const step = LESSON[at];
  useStepFromLink(step, samples, apply);
  // Whether the page shows the step's sample and faults (not a view the user moved on to).
  const onStep =
    step !== undefined &&
    sampleId === step.state.sample &&
    JSON.stringify(faults) === JSON.stringify(step.state.faults);
  useLessonBudget(step, onStep, tokens.total);

  if (lesson !== null && !step) {
    return (
      <section className="learn-panel" data-testid="learn-panel">
        <p>Unknown lesson step “{lesson}”.</p>
        <button type="button" data-testid="learn-leave" onClick={leave}>
          Leave Learn mode
        </button>
      </section>
    );
  }
  if (!step) return null;
  return (
    <section
      className="learn-panel"
      data-testid="learn-panel"
      data-step={step.id}
      aria-label="Lesson"
    >
      <h2>
        {step.title}{' '}
        <span className="learn-step-count" data-testid="learn-step-count">
          step {at + 1} of {LESSON.length}
        </span>
      </h2>
      <p className="learn-body" data-testid="learn-body">
        {step.body}
      </p>
      <LessonNav at={at} apply={apply} />
      <LearnPolicies
        step={step}
        onStep={onStep}
        analysis={analysis}
        tokens={tokens}
        onJump={onJump}
      />
    </section>
  );
}

/** A link or a reload names a step: set the page as that step says, once the samples are known. */
function useStepFromLink(
  step: LessonStep | undefined,
  samples: readonly SampleEntry[],
  apply: (step: LessonStep) => Promise<void>,
): void {
  const applied = useRef<string | null>(null);
  useEffect(() => {
    if (!step || samples.length === 0 || applied.current === step.id) return;
    applied.current = step.id;
    const s = appStore.getState();
    const matches =
      s.source.sampleId === step.state.sample &&
      s.source.text !== '' &&
      JSON.stringify(s.faults) === JSON.stringify(step.state.faults);
    if (!matches) void apply(step);
  }, [step, samples, apply]);
}

/**
 * The step's budget is a share of the shown transcript's tokens. It follows the token count
 * (chars/4 first, the exact tokenizer once loaded) until the user moves the budget.
 */
function useLessonBudget(step: LessonStep | undefined, onStep: boolean, total: number): void {
  const budget = useAppStore((s) => s.budget);
  const setBudget = useAppStore((s) => s.setBudget);
  const lastSet = useRef<number | null>(null);
  useEffect(() => {
    if (!step || !onStep) return;
    const b = lessonBudget(step.state, total);
    if (b === null || b === budget || (budget !== null && budget !== lastSet.current)) return;
    lastSet.current = b;
    setBudget(b);
  }, [step, onStep, budget, total, setBudget]);
}

/** Previous / Next / Leave. They count from a step still loading, so two quick clicks move two. */
function LessonNav({ at, apply }: { at: number; apply: (step: LessonStep) => Promise<void> }) {
  const from = () => {
    const step = pending().pendingLessonStep;
    const i = step === null ? -1 : lessonStepIndex(step);
    return i >= 0 ? i : at;
  };
  const go = (delta: number) => {
    const s = LESSON[from() + delta];
    if (s) void apply(s);
  };
  return (
    <div className="learn-nav">
      <button
        type="button"
        data-testid="learn-prev"
        disabled={!LESSON[at - 1]}
        onClick={() => go(-1)}
      >
        ← Previous
      </button>
      <button
        type="button"
        data-testid="learn-next"
        disabled={!LESSON[at + 1]}
        onClick={() => go(1)}
      >
        Next →
      </button>
      <button type="button" data-testid="learn-leave" onClick={leave}>
        Leave
      </button>
    </div>
  );
}
