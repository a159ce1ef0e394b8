/**
 * `drop` (not a loop fault, for teaching: the lesson's step two): one message removed, as a naive
 * "drop the oldest message" trim does. It fits any message, so it lists no targets.
 */
import { z } from 'zod';
import { fail, withMessages } from './common.ts';
import { MessageIndexSchema } from './targets.ts';
import type { FaultDef } from './types.ts';

const schema = z.object({ kind: z.literal('drop'), messageIndex: MessageIndexSchema });

export const dropFault: FaultDef<z.infer<typeof schema>> = {
  label: 'Drop this message',
  code: 'd',
  target: 'message',
  schema,
  targets: () => [],
  apply: (t, spec) => {
    const i = spec.messageIndex;
    const m = t.messages[i];
    if (!m) return fail(`There is no message at position ${i}.`);
    const messages = t.messages.filter((_, k) => k !== i);
    return {
      ok: true,
      value: {
        transcript: withMessages(t, messages),
        describe: (label) =>
          `Message ${label(m)} (${m.role}) was dropped, as a naive "drop the oldest message" trim does.`,
      },
    };
  },
};
