/**
 * `turn-pair`: keep the task; drop an assistant message together with the user message after it
 * (its results), oldest first — what "drop the oldest turn pair" compactions do.
 */
import { turnPairs } from '../../exchanges.ts';
import { firstAfter } from '../bisect.ts';
import type { EvictionPolicy } from '../types.ts';

export const turnPairPolicy: EvictionPolicy = {
  help: 'keep the task; drop an assistant message with the user message after it, oldest first',
  options: [],
  keepsTask: true,
  summarises: false,
  monotone: true,
  cuts: (ctx, task) => {
    const np = ctx.nonPinned;
    const ta = ctx.turnAssistants.subarray(firstAfter(ctx.turnAssistants, task));
    const firstUnit = ta[0];
    // The head: every non-pinned message before the first droppable turn pair.
    const head = Array.from(
      firstUnit === undefined ? np : np.subarray(0, firstAfter(np, firstUnit - 1)),
    );
    return { candidates: ta, floor: ta[ta.length - 1] ?? ctx.cuts.n, head };
  },
  units: (messages, _exchanges, task) =>
    turnPairs(messages)
      .filter((p) => task === undefined || p.assistant > task)
      .map((p) => [p.assistant, ...p.replies]),
};
