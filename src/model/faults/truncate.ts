/** `truncate`: the last N messages dropped, as a retry path that rolls back does. */
import { z } from 'zod';
import { fail, withMessages } from './common.ts';
import { CountSchema } from './targets.ts';
import type { FaultDef } from './types.ts';

const schema = z.object({ kind: z.literal('truncate'), count: CountSchema });

export const truncateFault: FaultDef<z.infer<typeof schema>> = {
  label: 'Trailing truncation',
  code: 'n',
  target: 'count',
  schema,
  targets: (t) =>
    Array.from({ length: Math.min(3, t.messages.length) }, (_, k) => ({
      kind: 'truncate' as const,
      count: k + 1,
    })),
  apply: (t, spec) => {
    const n = Math.floor(spec.count);
    if (!(n >= 1)) return fail('Truncation needs a count of at least 1.');
    if (n > t.messages.length)
      return fail(`The transcript has only ${t.messages.length} messages.`);
    const messages = t.messages.slice(0, t.messages.length - n);
    const description = `The last ${n} message${n === 1 ? ' was' : 's were'} dropped, as a retry path that rolls back does.`;
    return {
      ok: true,
      value: { transcript: withMessages(t, messages), describe: () => description },
    };
  },
};
