/**
 * Derived data for faults, repair, lost meaning and the lesson (issue 8), never stored: each is
 * memoised on the references of its inputs (the shown analysis, what its faults did, the token
 * table), like `selectors.ts`. The faults themselves are applied by the engine: the store's
 * `faults` are part of the inspect request (`selectRequest`), and the answer is the faulted
 * transcript's analysis with what the faults did (`InspectorView.faults`); nothing here
 * analyses again.
 */
import type { Analysis } from '../model/analyze.ts';
import type { AppliedFaults } from '../model/faultedAnalysis.ts';
import { simulatePolicy, type PolicyResult } from '../model/evict/policies.ts';
import type { PolicyId } from '../model/evict/types.ts';
import { faultTargets, type FaultSpec } from '../model/faults.ts';
import { findLostMeaning, type LostMeaning } from '../model/lostMeaning.ts';
import { blockWordsOf, MODEL_BLOCK_WORDS, type BlockWords } from '../model/parse/registry.ts';
import { messageLabels } from '../model/messageLabels.ts';
import { repairTranscript, type RepairResult } from '../model/repair.ts';
import type { TokenTable } from '../model/tokens.ts';
import type { Message, ProviderId, Transcript } from '../model/types.ts';
import { writeTranscript } from '../model/write.ts';
import { selectEvictionContext } from './eviction.ts';
import { memoN, memoWeakBy } from './session/index.ts';

export interface FaultedView {
  /** What the page shows: the loaded analysis, or the analysis of the faulted transcript. */
  analysis: Analysis;
  /** The faulted transcript before display re-indexing (input of repair: message identity kept). */
  transcript: Transcript;
  /** One description per applied fault. */
  descriptions: string[];
  /** Why a fault in the list did not fit (the ones after it are not applied), or null. */
  error: string | null;
  /** The faults this view is the answer to ([] for the transcript as loaded). */
  asked: readonly FaultSpec[];
}

/**
 * The fault view of the engine's answer: its analysis (of the faulted transcript when the request
 * had faults) with what the faults did, or the loaded analysis and no faults.
 * @param shown the analysis the engine answered (`InspectorView.analysis`)
 * @param applied what the request's faults did (`InspectorView.faults`), null without faults
 */
export const selectFaulted = memoN(
  (shown: Analysis, applied: AppliedFaults | null): FaultedView =>
    applied
      ? { analysis: shown, ...applied }
      : { analysis: shown, transcript: shown.transcript, descriptions: [], error: null, asked: [] },
);

/**
 * True while the store's faults are not yet the ones the shown view answers (the engine is
 * applying them): a fault menu built from the shown view would target the wrong transcript.
 */
export function faultsBehind(view: FaultedView, faults: readonly FaultSpec[]): boolean {
  if (view.asked === faults) return false;
  return JSON.stringify(view.asked) !== JSON.stringify(faults);
}

/**
 * The faults that fit the shown (faulted) transcript, for the fault menu: from the shown
 * analysis' pairs (the worker's, for a loaded file; the analysis of `view.transcript` after
 * re-indexing, same positions), never pairing the transcript again (issue 7). Memoised per
 * analysis object.
 */
export function selectFaultTargets(view: FaultedView): FaultSpec[] {
  return faultTargetsOf(view.analysis, view.transcript);
}

const faultTargetsOf = memoWeakBy((a: Analysis, transcript: Transcript): FaultSpec[] =>
  faultTargets(transcript, a.pairs),
);

/** A repair result plus the repaired transcript written in its format. */
export interface RepairView extends RepairResult {
  /** The repaired transcript as text, in the transcript's format (for export). */
  text: string;
}

/** Repair the shown (faulted) transcript for the provider. */
export const selectRepair = memoN((t: Transcript, provider: ProviderId): RepairView => {
  const r = repairTranscript(t, provider);
  return { ...r, text: writeTranscript(r.transcript) };
});

export interface DiffRow {
  /** Position in its transcript (before: the shown one; after: the repaired one). */
  index: number;
  /** Row label in that transcript (`#3`, `#3.2`: `messageLabels`), as the timeline names it. */
  label: string;
  role: Message['role'];
  summary: string;
  /** Before: `same` (kept as is), `changed` (replaced by a repaired copy) or `removed`. After: `same`, `changed` or `new`. */
  status: 'same' | 'removed' | 'changed' | 'new';
}

export interface RepairDiff {
  before: DiffRow[];
  after: DiffRow[];
}

/**
 * One line of text for a message: its blocks in short form, a call and a result in the format's
 * words (`blockWordsOf`: `tool_call` and `tool` for Chat Completions), as the timeline's chips.
 */
export function messageSummary(m: Message, words: BlockWords = MODEL_BLOCK_WORDS): string {
  const parts = m.blocks.map((b) => {
    switch (b.type) {
      case 'text':
        return b.text.replace(/\s+/g, ' ').slice(0, 60);
      case 'tool_use':
        return `${words.call} ${b.name} ${b.id ?? ''}`.trim();
      case 'tool_result':
        // The tool's name where the format carries it (Gemini's functionResponse has no id: it
        // read "functionResponse" alone; newcomer), then the id it answers.
        return `${[words.result, b.name, b.toolUseId].filter(Boolean).join(' ')}${b.isError ? ' (error)' : ''}`;
      case 'thinking':
        return 'thinking';
      case 'redacted_thinking':
        return 'redacted thinking';
      case 'image':
      case 'document':
        return b.type;
      case 'other':
        return b.label;
    }
  });
  return parts.join(' · ');
}

/**
 * Message-level diff of a repair: each input message kept as is or touched, each output message
 * kept, changed (a repaired copy of an input message) or new.
 */
export const selectRepairDiff = memoN((input: Transcript, r: RepairResult): RepairDiff => {
  const out = new Set(r.transcript.messages);
  const inSet = new Set(input.messages);
  const changedOut = new Set(
    r.changes
      .filter((c) => c.outputIndex !== null && c.replaced.length > 0)
      .map((c) => c.outputIndex as number),
  );
  // An input message replaced by a change that wrote a message was changed; otherwise removed.
  const changedIn = new Set(
    r.changes.filter((c) => c.outputIndex !== null).flatMap((c) => c.replaced),
  );
  const inLabels = messageLabels(input.messages);
  const words = blockWordsOf(input.format);
  return {
    before: input.messages.map((m, i) => ({
      index: i,
      label: inLabels.of(i),
      role: m.role,
      summary: messageSummary(m, words),
      status: out.has(m) ? 'same' : changedIn.has(i) ? 'changed' : 'removed',
    })),
    // The repaired request is a request of its own: its messages are numbered from 0, as the
    // provider and the CLI ('output message 1') count them, not by the rows they were copied from.
    after: r.transcript.messages.map((m, i) => ({
      index: i,
      label: `#${i}`,
      role: m.role,
      summary: messageSummary(m, words),
      status: inSet.has(m) ? 'same' : changedOut.has(i) ? 'changed' : 'new',
    })),
  };
});

export interface PolicyLesson {
  result: PolicyResult;
  lost: LostMeaning;
}

/**
 * Run the two compared policies at a budget on the shown transcript, with the lost meaning of
 * each eviction (for the lesson's budget steps and any view of an eviction).
 * @param budget tokens, system prompt included
 */
export const selectPolicyPair = memoN(
  (
    t: Transcript,
    table: TokenTable,
    provider: ProviderId,
    policies: readonly [PolicyId, PolicyId],
    budget: number,
  ): PolicyLesson[] => {
    // The simulator's context (memoised; the worker's parts when it prepared them): one
    // validation per transcript and provider, not one per budget step.
    const ctx = selectEvictionContext(t, table, provider);
    return policies.map((p) => {
      const result = simulatePolicy(ctx, p, budget);
      return { result, lost: findLostMeaning(t, result.kept, result.evicted) };
    });
  },
);
