/**
 * `retry`: a network error after the reply; the retry stored the assistant message twice and its
 * results once (a replayed turn: duplicate tool_use ids, A6).
 */
import { z } from 'zod';
import { messageLabels } from '../messageLabels.ts';
import type { Message } from '../types.ts';
import { derivedMessage, fail, withMessages } from './common.ts';
import { MessageIndexSchema } from './targets.ts';
import type { FaultDef } from './types.ts';

const schema = z.object({ kind: z.literal('retry'), messageIndex: MessageIndexSchema });

export const retryFault: FaultDef<z.infer<typeof schema>> = {
  label: 'Retry after a network error',
  code: 'y',
  target: 'message',
  schema,
  targets: (_t, { callsIn }) =>
    [...callsIn.keys()].map((i) => ({ kind: 'retry' as const, messageIndex: i })),
  apply: (t, spec) => {
    const i = spec.messageIndex;
    const m = t.messages[i];
    if (!m) return fail(`There is no message at position ${i} to retry.`);
    if (m.role !== 'assistant')
      return fail(`Message ${messageLabels(t.messages).of(i)} is not an assistant message.`);
    const copy = derivedMessage(m, { blocks: m.blocks.map((b) => ({ ...b })) }, true);
    copy.path = `retry copy of ${m.path}`;
    const messages = [...t.messages.slice(0, i + 1), copy, ...t.messages.slice(i + 1)];
    const calls = m.blocks.filter((b) => b.type === 'tool_use' && !b.server).length;
    const describe = (label: (x: Message) => string) =>
      `A network error hit after the reply; the retry stored assistant message ${label(m)} twice (the copy is ${label(copy)})${calls > 0 ? `, so its ${calls} tool_use id${calls === 1 ? '' : 's'} now appear${calls === 1 ? 's' : ''} twice,` : ''} and its results once.`;
    return { ok: true, value: { transcript: withMessages(t, messages), describe } };
  },
};
