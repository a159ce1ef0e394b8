/**
 * The session (issue 34): the one owner of what the page knows about what is loaded (session.ts),
 * the page's instance (active.ts), the memo helpers whose storage it owns (memo.ts) and the view
 * of the engine's answers (view.ts).
 */
export { activeSession, resetSession, sessionSlot } from './active.ts';
export type { Held, SlotHandle } from './answerSlot.ts';
export { memoLead, memoN, memoWeak, memoWeakBy } from './memo.ts';
export {
  Session,
  sweepKey,
  type EngineAnswers,
  type LoadState,
  type SessionSnapshot,
} from './session.ts';
export {
  EMPTY_VIEW,
  nextView,
  recountShown,
  sameRequest,
  selectRequest,
  type InspectorView,
} from './view.ts';
