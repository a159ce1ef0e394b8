/** `tool_raised`: the tool threw and the loop never appended its tool_result. */
import { z } from 'zod';
import { describeCall, droppableResult, dropOneResult, withMessages } from './common.ts';
import { PairKeySchema } from './targets.ts';
import type { FaultDef } from './types.ts';

const schema = z.object({ kind: z.literal('tool_raised'), pairKey: PairKeySchema });

export const toolRaisedFault: FaultDef<z.infer<typeof schema>> = {
  label: 'Tool raised',
  code: 'r',
  target: 'pair',
  schema,
  targets: (_t, { pairs }) =>
    pairs.filter(droppableResult).map((p) => ({ kind: 'tool_raised' as const, pairKey: p.key })),
  apply: (t, spec) => {
    const r = dropOneResult(t, spec.pairKey);
    if (!r.ok) return r;
    const description = `The tool ${describeCall(r.value.pair)} raised and the loop never appended its tool_result; everything after was stored as usual.`;
    return {
      ok: true,
      value: { transcript: withMessages(t, r.value.messages), describe: () => description },
    };
  },
};
