/**
 * The fault menu's items for the current selection (issue 8). Messages are named as the timeline
 * row names them: `#N`, the message's source position (`Message.rawIndex`), with a sub-position
 * (`#N.2`) where several share it, so after a fault the menu and the selected row agree.
 */
import { FAULT_LABELS, type FaultSpec } from '../../model/faults.ts';
import { messageLabels } from '../../model/messageLabels.ts';
import type { ToolPair } from '../../model/pairing.ts';
import { selectFaultTargets, type FaultedView } from '../../state/faults.ts';
import { memoN, memoWeakBy } from '../../state/session/index.ts';
import type { AppState } from '../../state/store.ts';

export interface FaultMenuItem {
  spec: FaultSpec;
  label: string;
}

function pairName(p: ToolPair | undefined): string {
  return p ? `${p.name || 'tool'}${p.id ? ` (${p.id})` : ''}` : '';
}

/**
 * The row label of a message position in the shown transcript (`#22`, or `#22.2` when several
 * messages share that raw index: `messageLabels`), as the timeline shows it.
 */
export function rowLabel(view: FaultedView, message: number): string {
  return messageLabels(view.analysis.transcript.messages).of(message);
}

/** The fault targets of a view grouped by the message they act on, and its pairs by key. */
interface FaultIndex {
  byKey: Map<string, ToolPair>;
  /** Targets per message, in `selectFaultTargets` order: a call's faults, cancel and retry. */
  byMessage: Map<number, FaultSpec[]>;
}

/**
 * Built once per shown analysis (keyed like `selectFaultTargets`; memo storage in the session):
 * stepping the selection with J/K on a 67,000-message log walked every pair and target on each
 * key press (issue 16, about 7 ms of every step).
 */
const faultIndexOf = memoWeakBy((_a: FaultedView['analysis'], view: FaultedView): FaultIndex => {
  const byKey = new Map(view.analysis.pairs.map((p) => [p.key, p]));
  const byMessage = new Map<number, FaultSpec[]>();
  for (const s of selectFaultTargets(view)) {
    const message =
      'pairKey' in s
        ? (byKey.get(s.pairKey)?.call?.message ?? -1)
        : 'messageIndex' in s
          ? s.messageIndex
          : -1;
    if (message < 0) continue;
    const list = byMessage.get(message);
    if (list) list.push(s);
    else byMessage.set(message, [s]);
  }
  return { byKey, byMessage };
});

function faultIndex(view: FaultedView): FaultIndex {
  return faultIndexOf(view.analysis, view);
}

/** The fault menu items for a selection (see `selectFaultMenu`); O(items) after the first call. */
export function faultMenuFor(view: FaultedView, selection: AppState['selection']): FaultMenuItem[] {
  // Nothing selected (as while a file loads): no menu, and nothing walked (issue 7).
  if (selection?.kind !== 'pair' && selection?.kind !== 'message') return [];
  const { byKey, byMessage } = faultIndex(view);
  let message = -1;
  let onlyPair: string | null = null;
  if (selection.kind === 'pair') {
    onlyPair = selection.key;
    message = byKey.get(selection.key)?.call?.message ?? -1;
  } else message = selection.index;
  if (message < 0) return [];
  const label = rowLabel(view, message);
  const items: FaultMenuItem[] = [];
  for (const s of byMessage.get(message) ?? []) {
    // A fault names what it acts on: a pair's call, or the message (its target in the registry).
    if ('pairKey' in s) {
      if (onlyPair !== null && s.pairKey !== onlyPair) continue;
      items.push({ spec: s, label: `${FAULT_LABELS[s.kind]}: ${pairName(byKey.get(s.pairKey))}` });
    } else if ('messageIndex' in s) {
      items.push({ spec: s, label: `${FAULT_LABELS[s.kind]} (message ${label})` });
    }
  }
  if (selection.kind === 'message')
    items.push({
      spec: { kind: 'drop', messageIndex: message },
      label: `${FAULT_LABELS.drop} (message ${label})`,
    });
  return items;
}

/**
 * The fault menu items for the shown (faulted) view and the store's selection, memoised on both
 * by reference: a re-render with the same inputs (a budget slider step) returns the same array
 * without walking the transcript.
 */
export const selectFaultMenu = memoN(
  (view: FaultedView, selection: AppState['selection']): FaultMenuItem[] =>
    faultMenuFor(view, selection),
);
