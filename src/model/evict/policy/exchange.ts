/**
 * `exchange`: drop the oldest whole exchanges (a user request with every turn and result up to
 * the next one), the newest kept, system pinned — the safe unit: no cut inside an exchange
 * splits a call from its result.
 */
import type { EvictionPolicy } from '../types.ts';

/** Every exchange start is a cut point; the newest exchange is never evicted. */
export const exchangeCuts: EvictionPolicy['cuts'] = (ctx, task) => {
  const starts = ctx.exchangeStarts;
  return { candidates: starts, floor: starts[starts.length - 1] ?? task };
};

/** One unit per exchange (its messages). */
export const exchangeUnits: EvictionPolicy['units'] = (_messages, exchanges) =>
  exchanges.map((x) => x.messages);

export const exchangePolicy: EvictionPolicy = {
  help: 'drop the oldest whole exchanges, newest kept, system pinned',
  options: ['pinFirst'],
  keepsTask: false,
  summarises: false,
  monotone: true,
  cuts: exchangeCuts,
  units: exchangeUnits,
};
