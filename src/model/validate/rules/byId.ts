/**
 * Pairing by id anywhere in the request, written once (OpenAI Responses R1, R2, R7, RW1–RW3): a
 * result answers the call with its id wherever both stand; nothing is demanded of adjacency. Each
 * step walks the request's items and hands its findings to the validator, which words them from
 * the rule catalogue. Findings carry the index of the item that holds the cause, so a provider
 * can order them as it meets them.
 */
import type { RuleId } from '../types.ts';

/** An item of the request as these rules see it. */
export interface IdItem {
  /** `call` / `output`: a client call or its result; any other kind is neither. */
  kind: string;
  callId: string | null;
}

export type IdFinding =
  /** A call or a result without an id (R7). */
  | { kind: 'call_without_id' | 'result_without_id'; at: number }
  /** A call id an earlier call used (RW1). */
  | { kind: 'duplicate_call'; at: number; id: string }
  /** A result whose id no call in the request has (R1). */
  | { kind: 'orphan'; at: number; id: string }
  /** A second result for one call (RW2); `first` is the first result. */
  | { kind: 'duplicate_result'; at: number; id: string; first: number }
  /** A result placed before its call (RW3). */
  | { kind: 'result_before_call'; at: number; id: string; call: number }
  /**
   * A call with no result anywhere (R2); `rule` says how: at the end of the request, one of a
   * group of parallel calls whose siblings were answered, or unanswered.
   */
  | { kind: 'open'; at: number; id: string; rule: RuleId };

/**
 * Step 1: the first call of each id; later calls with a used id are `duplicate_call`.
 * Findings are appended to `found` (an array, not a callback: no closure per check, issue 17).
 * @returns id → index of its first call
 */
export function scanCallIds(items: readonly IdItem[], found: IdFinding[]): Map<string, number> {
  const calls = new Map<string, number>();
  for (let k = 0; k < items.length; k++) {
    const it = items[k] as IdItem;
    if (it.kind !== 'call' || it.callId === null) continue;
    if (calls.has(it.callId)) found.push({ kind: 'duplicate_call', at: k, id: it.callId });
    else calls.set(it.callId, k);
  }
  return calls;
}

/**
 * Step 2: each result against the calls (orphans, duplicates, order) and the ids that are missing.
 * @param calls from `scanCallIds`
 * @param orphans `skip` when the request's calls may be held elsewhere (server-held history)
 * @returns id → index of its first result
 */
export function scanResults(
  items: readonly IdItem[],
  calls: ReadonlyMap<string, number>,
  orphans: 'report' | 'skip',
  found: IdFinding[],
): Map<string, number> {
  const outputs = new Map<string, number>();
  for (let k = 0; k < items.length; k++) {
    const it = items[k] as IdItem;
    if (it.kind === 'call' && it.callId === null) found.push({ kind: 'call_without_id', at: k });
    if (it.kind !== 'output') continue;
    const id = it.callId;
    if (id === null) {
      found.push({ kind: 'result_without_id', at: k });
      continue;
    }
    const c = calls.get(id);
    const first = outputs.get(id);
    if (c === undefined) {
      if (orphans === 'report') found.push({ kind: 'orphan', at: k, id });
    } else if (first !== undefined) found.push({ kind: 'duplicate_result', at: k, id, first });
    else {
      outputs.set(id, k);
      if (c > k) found.push({ kind: 'result_before_call', at: k, id, call: c });
    }
  }
  return outputs;
}

/**
 * Step 3: calls with no result anywhere. A group of parallel calls is a run of `call` items and
 * of items of the kind `glue` (Responses: reasoning items, which stand between the calls of one
 * response); a call is `partial_answer` when a sibling of its group was answered.
 */
export function scanOpenCalls(
  items: readonly IdItem[],
  calls: ReadonlyMap<string, number>,
  outputs: ReadonlyMap<string, number>,
  glue: string,
  found: IdFinding[],
): void {
  let k = 0;
  while (k < items.length) {
    if ((items[k] as IdItem).kind !== 'call') {
      k++;
      continue;
    }
    // The group is items k … end-1; a first pass finds whether any call of it was answered.
    let end = k;
    let anyAnswered = false;
    for (; end < items.length; end++) {
      const it = items[end] as IdItem;
      if (it.kind === 'call') anyAnswered ||= firstCallAnswered(it, end, calls, outputs);
      else if (it.kind !== glue) break;
    }
    for (let g = k; g < end; g++) {
      const it = items[g] as IdItem;
      const id = it.callId;
      if (it.kind !== 'call' || id === null || calls.get(id) !== g || outputs.has(id)) continue;
      const rule: RuleId =
        end >= items.length
          ? 'trailing_tool_use'
          : anyAnswered
            ? 'partial_answer'
            : 'unanswered_tool_use';
      found.push({ kind: 'open', at: g, id, rule });
    }
    k = end;
  }
}

/** True when the call at `g` is the first of its id and some result answers it. */
function firstCallAnswered(
  it: IdItem,
  g: number,
  calls: ReadonlyMap<string, number>,
  outputs: ReadonlyMap<string, number>,
): boolean {
  const id = it.callId;
  return id !== null && calls.get(id) === g && outputs.has(id);
}
