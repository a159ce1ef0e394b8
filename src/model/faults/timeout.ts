/** `timeout`: one of several parallel calls timed out; only its siblings' results were appended. */
import { z } from 'zod';
import { describeCall, droppableResult, dropOneResult, withMessages } from './common.ts';
import { PairKeySchema } from './targets.ts';
import type { FaultDef } from './types.ts';

const schema = z.object({ kind: z.literal('timeout'), pairKey: PairKeySchema });

export const timeoutFault: FaultDef<z.infer<typeof schema>> = {
  label: 'Timeout of one parallel call',
  code: 't',
  target: 'pair',
  schema,
  targets: (_t, { pairs, callsIn }) =>
    pairs
      .filter((p) => droppableResult(p) && (callsIn.get(p.call?.message ?? -1) ?? 0) > 1)
      .map((p) => ({ kind: 'timeout' as const, pairKey: p.key })),
  apply: (t, spec) => {
    const r = dropOneResult(t, spec.pairKey);
    if (!r.ok) return r;
    const { pair, siblings } = r.value;
    if (siblings === 0)
      return {
        ok: false,
        error: `${describeCall(pair)} has no parallel siblings: a timeout of one parallel call needs at least two calls in the turn (use "tool raised").`,
      };
    const description = `${describeCall(pair)} timed out; only the results of its ${siblings} parallel sibling${siblings === 1 ? '' : 's'} were appended.`;
    return {
      ok: true,
      value: { transcript: withMessages(t, r.value.messages), describe: () => description },
    };
  },
};
