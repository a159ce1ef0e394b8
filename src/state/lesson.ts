/**
 * Entering and leaving Learn mode (newcomer report: leaving the lesson at step 8 kept its cancel
 * fault in the page and the permalink). Entering remembers what the user had chosen; leaving puts
 * it back, so a lesson never leaves faults, a selection or a budget the user did not choose.
 *
 * The remembered view is kept beside the store (one per store), not in it: it is not part of the
 * page's state and never travels in a permalink.
 */
import type { StoreApi } from 'zustand';
import { LESSON, type LessonStep } from '../model/lesson.ts';
import type { AppState, AppStore } from './store.ts';

/** The fields a lesson step sets (see ui/learn useApplyStep), as the user had them. */
export type BeforeLesson = Pick<
  AppState,
  | 'source'
  | 'rejected'
  | 'formatOverride'
  | 'provider'
  | 'model'
  | 'requestIndex'
  | 'diff'
  | 'budget'
  | 'policies'
  | 'selection'
  | 'anchor'
  | 'faults'
  | 'repairView'
>;

/**
 * The view a lesson step sets, apart from the source (its sample's text is loaded by the page):
 * provider, policies, selection, faults and repair view as the step says; format detected, no
 * budget, no scroll anchor.
 */
export function lessonStepPatch(step: LessonStep): Omit<
  BeforeLesson,
  'source' | 'rejected' | 'requestIndex'
> & {
  lesson: string;
} {
  const s = step.state;
  return {
    formatOverride: null,
    provider: s.provider,
    model: null,
    policies: [s.policies[0], s.policies[1]],
    budget: null,
    diff: null,
    selection: s.selection,
    anchor: null,
    faults: s.faults,
    repairView: s.repair,
    lesson: step.id,
  };
}

// eslint-disable-next-line cache/no-module-cache -- the view before Learn mode, per store instance (the store owns it; not what is loaded)
const remembered = new WeakMap<StoreApi<AppStore>, BeforeLesson>();

/** The sample ids the lesson loads (model/lesson.ts). */
const LESSON_SAMPLE_IDS: ReadonlySet<string> = new Set(LESSON.map((s) => s.state.sample));

/**
 * Remember the user's view before Learn mode starts. Does nothing when the store is already in
 * Learn mode (moving between steps keeps the first memory).
 * @param store the app store
 */
export function rememberBeforeLesson(store: StoreApi<AppStore>): void {
  const s = store.getState();
  if (s.lesson !== null) return;
  remembered.set(store, {
    source: s.source,
    rejected: s.rejected,
    formatOverride: s.formatOverride,
    provider: s.provider,
    model: s.model,
    requestIndex: s.requestIndex,
    diff: s.diff,
    budget: s.budget,
    policies: s.policies,
    selection: s.selection,
    anchor: s.anchor,
    faults: s.faults,
    repairView: s.repairView,
  });
}

/**
 * The store patch that leaves Learn mode. With a remembered view (`rememberBeforeLesson`), and the
 * page still showing a lesson sample, the patch restores that view: source, the text box's
 * unparsed edit (`rejected`: the user's work, never lost), format, provider, request, budget,
 * policies, selection, scroll anchor, faults, repair view. Otherwise (Learn mode
 * came from a link, or the user loaded their own input meanwhile) it keeps the page but drops what
 * only the lesson set: its faults, its repair view and its selection. Never throws.
 * @param current the store's state now
 * @param before the remembered view, or undefined
 */
export function leaveLessonPatch(
  current: AppState,
  before: BeforeLesson | undefined,
): Partial<AppState> {
  const onLessonSample =
    current.source.origin === 'sample' &&
    current.source.sampleId !== undefined &&
    LESSON_SAMPLE_IDS.has(current.source.sampleId);
  if (before && onLessonSample) return { ...before, lesson: null };
  if (!onLessonSample) return { lesson: null };
  return { lesson: null, faults: [], repairView: false, selection: null };
}

/**
 * Leave Learn mode on a store: apply `leaveLessonPatch` and forget the remembered view.
 * @param store the app store
 */
export function leaveLesson(store: StoreApi<AppStore>): void {
  const patch = leaveLessonPatch(store.getState(), remembered.get(store));
  remembered.delete(store);
  store.setState(patch);
}
