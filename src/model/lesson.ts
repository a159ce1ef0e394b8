/**
 * The guided lesson ("Learn" mode, issue 8) as data: each step names the page state it sets and
 * says in two or three sentences what to look at. The page renders the steps and gives each its
 * own permalink (the step id). Claims made in the text (which policy gets a 400 at which budget,
 * which fault gives which error) are checked by lesson.test.ts against the built-in samples.
 */
import type { PolicyId } from './evict/types.ts';
import type { FaultSpec } from './faults.ts';
import type { ProviderId } from './types.ts';

/** Built-in sample ids (public/samples/index.json) the lesson uses. */
export const LESSON_SAMPLES = { invoice: 'invoice', session: 'coding-agent' } as const;

/** The page state a step sets. */
export interface LessonState {
  /** Sample id from public/samples/index.json. */
  sample: string;
  provider: ProviderId;
  /** The two eviction policies compared side by side. */
  policies: [PolicyId, PolicyId];
  /**
   * Budget as a share of the transcript's total tokens (system prompt included), so a step means
   * the same under the chars/4 placeholder and the exact tokenizer; null = no budget (no
   * eviction). Convert with `lessonBudget`.
   */
  budgetShare: number | null;
  /** What is selected: a message (index in the faulted transcript) or a pair (`ToolPair.key`). */
  selection: { kind: 'message'; index: number } | { kind: 'pair'; key: string } | null;
  /** Faults applied in order to the sample (src/model/faults.ts `applyFaults`). */
  faults: FaultSpec[];
  /** Show the repaired transcript (src/model/repair.ts) next to the faulted one. */
  repair: boolean;
}

export interface LessonStep {
  /** Stable id, used in the step's permalink. */
  id: string;
  title: string;
  /** Two or three sentences: what to look at. */
  body: string;
  state: LessonState;
}

const BASE: LessonState = {
  sample: LESSON_SAMPLES.invoice,
  provider: 'anthropic',
  policies: ['message', 'exchange'],
  budgetShare: null,
  selection: null,
  faults: [],
  repair: false,
};

/** The lesson, first to last (the order of the list). */
export const LESSON: readonly LessonStep[] = [
  {
    id: 'one-unit',
    title: 'Three messages, one unit',
    body: 'A question, an assistant turn that calls search_invoices and get_customer in parallel, and one message with both tool_results: the request sent for the answer. Each arc joins a tool_use to the tool_result that answers it, and that result must sit in the very next message. So these three messages stand or fall together.',
    state: { ...BASE, selection: { kind: 'pair', key: 'p0' } },
  },
  {
    id: 'drop-message-two',
    title: 'Drop message two, read the 400',
    body: 'Here message two, the assistant turn with the calls, was dropped, as a "drop the oldest message" trim does. The tool_results now answer nothing: the arcs come from nowhere, and Anthropic refuses the request with the error shown, pointing at the orphan result.',
    state: {
      ...BASE,
      faults: [{ kind: 'drop', messageIndex: 1 }],
      selection: { kind: 'message', index: 1 },
    },
  },
  {
    id: 'exchange-unit',
    title: 'The exchange is the unit of eviction',
    body: 'On a longer session a budget forces eviction. Dropping the oldest messages one by one cuts into an exchange and leaves a call or a result alone, which is a 400. Dropping whole exchanges, from one user question to the next, keeps every call with its result.',
    state: { ...BASE, sample: LESSON_SAMPLES.session, budgetShare: 0.3 },
  },
  {
    id: 'overshoot',
    title: 'The cost of overshoot',
    body: 'Whole exchanges come in big pieces, so the exchange policy frees more than the deficit. Overshoot is freed ÷ deficit: here it is about two, so twice the history needed is gone. Safety is paid for in context the model no longer sees.',
    state: { ...BASE, sample: LESSON_SAMPLES.session, budgetShare: 0.9 },
  },
  {
    id: 'trigger-rate',
    title: 'A higher trigger changes the rate, not the failure',
    body: 'With a larger budget compaction runs less often, but when it runs, message-by-message eviction can still cut an exchange: this budget gives the same kind of 400. Move the budget and watch which values fail for each policy.',
    state: { ...BASE, sample: LESSON_SAMPLES.session, budgetShare: 0.7 },
  },
  {
    id: 'faults',
    title: 'Orphaned without compaction',
    body: "No trim here: get_customer timed out and the loop appended only its sibling's result, so the call is unanswered and the request gets the same 400. The fix belongs in the tool-execution path, not in the budget. Try the other faults from the menu on a tool_use: tool raised, cancel mid-turn, retry after a network error, trailing truncation.",
    state: {
      ...BASE,
      faults: [{ kind: 'timeout', pairKey: 'p1' }],
      selection: { kind: 'pair', key: 'p1' },
    },
  },
  {
    id: 'cancel',
    title: 'A cancel in a long session',
    body: "The user cancelled while the linter and the type checker ran in parallel. The assistant turn was stored, none of its results, and the user's next message follows it. Every later request repeats this 400 until the history is repaired.",
    state: {
      ...BASE,
      sample: LESSON_SAMPLES.session,
      faults: [{ kind: 'cancel', messageIndex: 15 }],
      selection: { kind: 'message', index: 15 },
    },
  },
  {
    id: 'repair',
    title: 'The repair',
    body: "Repair does what the loop should have done: an error result (is_error) for every unanswered call, first in the next message and before the user's text, with a short note naming the cause. Every other message stays as it was, and the repaired request validates and can be exported in its original format.",
    state: {
      ...BASE,
      sample: LESSON_SAMPLES.session,
      faults: [{ kind: 'cancel', messageIndex: 15 }],
      selection: { kind: 'message', index: 16 },
      repair: true,
    },
  },
];

/**
 * Position of a step by id (for permalinks).
 * @returns the index in `LESSON`, or -1 for an unknown id
 */
export function lessonStepIndex(id: string): number {
  return LESSON.findIndex((s) => s.id === id);
}

/**
 * A step's budget in tokens for a transcript.
 * @param state the step's state
 * @param totalTokens the transcript's total tokens (TokenTable.total, system prompt included)
 * @returns round(share × total), at least 1; null when the step sets no budget
 */
export function lessonBudget(state: LessonState, totalTokens: number): number | null {
  if (state.budgetShare === null) return null;
  return Math.max(1, Math.round(state.budgetShare * totalTokens));
}
