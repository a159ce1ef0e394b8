import { describe, expect, it } from 'vitest';
import { LESSON } from '../model/lesson.ts';
import { leaveLesson, leaveLessonPatch, lessonStepPatch, rememberBeforeLesson } from './lesson.ts';
import { createAppStore, defaultState } from './store.ts';

const last = LESSON[LESSON.length - 1];
if (!last) throw new Error('the lesson has no steps');

/** What useApplyStep sets for a step (without loading the sample text). */
function applyStepState(step: NonNullable<typeof last>) {
  const s = step.state;
  return {
    source: { text: '[]', name: `${s.sample}.json`, origin: 'sample' as const, sampleId: s.sample },
    ...lessonStepPatch(step),
  };
}

describe('leaving Learn mode', () => {
  it('restores the faults, selection, budget and source the user had before entering', () => {
    const user = {
      source: { text: '{"messages":[]}', name: 'mine.json', origin: 'paste' as const },
      budget: 1234,
      selection: { kind: 'message' as const, index: 2 },
      faults: [{ kind: 'drop' as const, messageIndex: 0 }],
    };
    const store = createAppStore(user);
    rememberBeforeLesson(store);
    for (const step of LESSON) store.setState(applyStepState(step));
    expect(store.getState().faults).toEqual(last.state.faults);
    leaveLesson(store);
    const s = store.getState();
    expect(s.lesson).toBeNull();
    expect(s.faults).toEqual(user.faults);
    expect(s.selection).toEqual(user.selection);
    expect(s.budget).toBe(1234);
    expect(s.source).toEqual(user.source);
    expect(s.repairView).toBe(false);
  });

  it('restores an edit that did not parse to the text box (never lose work)', () => {
    const shown = { text: '{"messages":[]}', name: 'mine.json', origin: 'paste' as const };
    const edit = { text: '{"messages": [ {"role":"user"', name: '', origin: 'paste' as const };
    const rejected = {
      source: edit,
      error: { kind: 'json' as const, message: 'Unexpected end of JSON input' },
    };
    const store = createAppStore({ source: shown, rejected });
    rememberBeforeLesson(store);
    store.setState({ ...applyStepState(LESSON[0] ?? last), rejected: null });
    leaveLesson(store);
    expect(store.getState().source).toEqual(shown);
    expect(store.getState().rejected).toEqual(rejected);
  });

  it('moving between steps keeps the first memory', () => {
    const store = createAppStore({ budget: 77 });
    rememberBeforeLesson(store);
    store.setState(applyStepState(LESSON[0] ?? last));
    rememberBeforeLesson(store);
    store.setState({ budget: 5 });
    leaveLesson(store);
    expect(store.getState().budget).toBe(77);
  });

  it('entered from a link (nothing remembered): drops the lesson faults, repair view and selection', () => {
    const store = createAppStore(applyStepState(last));
    leaveLesson(store);
    const s = store.getState();
    expect(s.lesson).toBeNull();
    expect(s.faults).toEqual([]);
    expect(s.repairView).toBe(false);
    expect(s.selection).toBeNull();
  });

  it('the user loaded their own input meanwhile: keeps it and its faults', () => {
    const cur = {
      ...defaultState(),
      source: { text: 'x', name: 'f', origin: 'file' as const },
      faults: [{ kind: 'drop' as const, messageIndex: 3 }],
      lesson: last.id,
    };
    const patch = leaveLessonPatch(cur, { ...defaultState() });
    expect(patch).toEqual({ lesson: null });
  });
});
