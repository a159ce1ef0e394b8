/**
 * Derived data, never stored (docs/architecture.md#state). Each stage is memoised by the
 * reference of its inputs: the engine's answer (parse → analyze, in the worker: `engine/inspect.ts`) → rows here, tokens in
 * `tokens.ts`, find and filters in `find.ts`, violation targets, arcs, broken pairs and counts in
 * `pairs.ts` (re-exported here: this module is the state's selector API). A parse failure is derived too: `nextView` keeps the last
 * good analysis visible next to the error, while the text stays in the store.
 */
import type { Analysis } from '../model/analyze.ts';
import { memoWeak } from './session/index.ts';

export * from './find.ts';
export * from './pairs.ts';
export * from './tokens.ts';
export * from './windowVerdict.ts';
export { EMPTY_VIEW, nextView, selectRequest, type InspectorView } from './session/index.ts';

/** One row of the timeline: an exchange band label, or a message. */
export type Row =
  | { kind: 'band'; exchange: number; key: string }
  | {
      kind: 'message';
      message: number;
      /** -1 for pinned system/developer messages. */ exchange: number;
      key: string;
    };

export interface RowModel {
  /** Number of rows. */
  count: number;
  /** Per row: its message (ours), or -1 for a band label. */
  rowMessage: Int32Array;
  /** Per row: its exchange (-1 for pinned system/developer messages). */
  rowExchange: Int32Array;
  /** Row index of each message (ours). */
  rowOfMessage: Int32Array;
  /** Row index of each exchange's band label. */
  rowOfExchange: Int32Array;
  /** Row `i` as an object (made on demand, for the rows drawn), or undefined outside the model. */
  row(i: number): Row | undefined;
  /**
   * A number naming row `i` for the virtualiser (stable per message/exchange, like `Row.key`):
   * the message index for a message row, -(exchange + 1) for a band.
   */
  rowKey(i: number): number;
}

/**
 * Timeline rows: a band label before each exchange's first message, then its messages. O(n)
 * typed arrays, once per analysis; row objects only for the rows asked for (issue 7: 100,000
 * row objects with string keys were a fifth of the first render).
 */
export const selectRows = memoWeak((a: Analysis): RowModel => {
  const { messages } = a.transcript;
  const { exchanges, exchangeOf } = a.grouping;
  const n = messages.length;
  const rowOfMessage = new Int32Array(n).fill(-1);
  const rowOfExchange = new Int32Array(exchanges.length).fill(-1);
  const rowMessage = new Int32Array(n + exchanges.length);
  const rowExchange = new Int32Array(n + exchanges.length);
  let count = 0;
  for (let i = 0; i < n; i++) {
    const x = exchangeOf[i] ?? -1;
    if (x >= 0 && exchanges[x]?.first === i) {
      rowOfExchange[x] = count;
      rowMessage[count] = -1;
      rowExchange[count++] = x;
    }
    rowOfMessage[i] = count;
    rowMessage[count] = i;
    rowExchange[count++] = x;
  }
  return {
    count,
    rowMessage: rowMessage.subarray(0, count),
    rowExchange: rowExchange.subarray(0, count),
    rowOfMessage,
    rowOfExchange,
    row(i) {
      if (!(i >= 0 && i < count)) return undefined;
      const m = rowMessage[i] as number;
      const x = rowExchange[i] as number;
      return m < 0
        ? { kind: 'band', exchange: x, key: `x${x}` }
        : { kind: 'message', message: m, exchange: x, key: `m${m}` };
    },
    rowKey(i) {
      const m = rowMessage[i] ?? -1;
      return m >= 0 ? m : -((rowExchange[i] ?? 0) + 1);
    },
  };
});
