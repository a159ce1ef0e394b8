/**
 * `message`: drop the oldest message one at a time, system and developer messages pinned — the
 * naive pass most trims do, and the one that orphans tool results.
 */
import { isPinned } from '../../exchanges.ts';
import type { EvictionPolicy } from '../types.ts';

/** Every non-pinned message is a cut point; the newest is never evicted. */
export const messageCuts: EvictionPolicy['cuts'] = (ctx) => {
  const np = ctx.nonPinned;
  return { candidates: np, floor: np[np.length - 1] as number };
};

/** One unit per non-pinned message. */
export const messageUnits: EvictionPolicy['units'] = (messages) =>
  messages.filter((m) => !isPinned(m)).map((m) => [m.index]);

export const messagePolicy: EvictionPolicy = {
  help: 'drop the oldest message one at a time, system pinned (the naive pass)',
  options: ['pinFirst'],
  keepsTask: false,
  summarises: false,
  monotone: true,
  cuts: messageCuts,
  units: messageUnits,
};
