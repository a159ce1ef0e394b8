/**
 * A history that starts with the model's call (G2, B3): the leading partial exchange dropped.
 */
import { groupExchanges } from '../../exchanges.ts';
import type { Message } from '../../types.ts';
import type { Violation } from '../../validate/index.ts';
import { isClientResult, type Work } from '../work.ts';

/**
 * G2 / B3: the history starts with the model's call (a trim cut the exchange's head): drop that
 * leading partial exchange when a later exchange exists.
 */
export function fixLeadingExchange(w: Work, v: Violation): boolean {
  const { exchanges } = groupExchanges(w.msgs);
  const x = exchanges[0];
  if (!x || !x.leading || exchanges.length < 2) return false;
  const gone = x.messages.map((i) => w.msgs[i] as Message);
  // Only when the violation is about this leading group (by its ids, else by its message).
  const named =
    v.ids.length > 0
      ? gone.some((m) =>
          m.blocks.some(
            (b) =>
              (b.type === 'tool_use' && b.id !== null && v.ids.includes(b.id)) ||
              (isClientResult(b) && v.ids.includes(b.toolUseId ?? '')),
          ),
        )
      : gone.some((m) => m === w.causeOf(v));
  if (!named) return false;
  w.removeExchange(
    gone,
    v.ids,
    `Removed the ${gone.length} message${gone.length === 1 ? '' : 's'} of an exchange whose start was cut: the history must start with a user turn, and the exchange is the unit to drop.`,
  );
  return true;
}
