/**
 * `cancel`: the user cancelled mid-turn; the assistant turn was stored, none of its results, the
 * rest of that exchange never happened, and the user's next message follows the turn
 * (anthropics/claude-code#1956, openai/codex#394; reported cases 08 and 09).
 */
import { strToU8 } from 'fflate';
import { z } from 'zod';
import { groupExchanges } from '../exchanges.ts';
import { messageLabels } from '../messageLabels.ts';
import { pairToolCalls } from '../pairing.ts';
import { fromBase64Url, toBase64Url } from '../permalink/inline.ts';
import { decodeUtf8 } from '../permalink/web.ts';
import type { Block, Message } from '../types.ts';
import { derivedMessage, fail, removeBlocks, resultsOf, withMessages } from './common.ts';
import { LONE_SURROGATE, MessageIndexSchema } from './targets.ts';
import type { FaultDef } from './types.ts';

/** The user's next message appended by `cancel` when the transcript has none after the turn. */
export const DEFAULT_CANCEL_TEXT = 'Stop. Do something else instead.';

const schema = z.object({
  kind: z.literal('cancel'),
  messageIndex: MessageIndexSchema,
  userText: z
    .string()
    .max(2000)
    .refine((s) => !LONE_SURROGATE.test(s), 'well-formed UTF-16')
    .optional(),
});

export const cancelFault: FaultDef<z.infer<typeof schema>> = {
  label: 'Cancel mid-turn',
  code: 'c',
  target: 'message',
  schema,
  targets: (_t, { callsIn }) =>
    [...callsIn.keys()].map((i) => ({ kind: 'cancel' as const, messageIndex: i })),
  // The link item: `c5`, or `c5.<base64url of UTF-8>` when it carries its own user text.
  encode: (f) =>
    `${f.messageIndex}${f.userText !== undefined ? `.${toBase64Url(strToU8(f.userText))}` : ''}`,
  decode: (rest) => {
    const m = /^(\d{1,8})(?:\.([A-Za-z0-9_-]*))?$/.exec(rest);
    if (!m) return null;
    const f: { kind: 'cancel'; messageIndex: number; userText?: string } = {
      kind: 'cancel',
      messageIndex: Number(m[1]),
    };
    if (m[2] !== undefined) {
      const bytes = fromBase64Url(m[2]);
      const text = bytes ? decodeUtf8(bytes) : null;
      if (text === null) return null;
      f.userText = text;
    }
    return f;
  },
  apply: (t, spec) => {
    const i = spec.messageIndex;
    const m = t.messages[i];
    if (!m || m.role !== 'assistant' || !m.blocks.some((b) => b.type === 'tool_use' && !b.server))
      return fail(
        `${m ? `Message ${messageLabels(t.messages).of(i)}` : `There is no message at position ${i}, so it`} is not an assistant turn with tool calls.`,
      );
    // The rest of the exchange (results, later turns) never happened; the next exchange stays.
    const { exchanges, exchangeOf } = groupExchanges(t.messages);
    const x = exchanges[exchangeOf[i] ?? -1];
    const nextStart = x ? x.last + 1 : i + 1;
    const dropped = new Set<number>();
    for (let k = i + 1; k < nextStart; k++) {
      const mk = t.messages[k] as Message;
      if (mk.role !== 'system' && mk.role !== 'developer') dropped.add(k);
    }
    // Results of this turn's calls placed further away are dropped as well (none were stored).
    const late = resultsOf(pairToolCalls(t.messages), i).filter((r) => !dropped.has(r.message));
    const kept = removeBlocks(t, late, dropped);
    let messages = kept;
    let appended = false;
    if (!t.messages.slice(nextStart).some((mm) => mm.role === 'user')) {
      const text: Block = { type: 'text', text: spec.userText ?? DEFAULT_CANCEL_TEXT };
      messages = [
        ...kept,
        derivedMessage(m, { role: 'user', blocks: [text], stringContent: true }, true),
      ];
      appended = true;
    }
    const calls = m.blocks.filter((b) => b.type === 'tool_use' && !b.server).length;
    const describe = (label: (x: Message) => string) =>
      `The user cancelled while ${calls} tool call${calls === 1 ? ' was' : 's were'} running: the assistant turn (message ${label(m)}) was stored, none of its results, ${dropped.size} later message${dropped.size === 1 ? '' : 's'} of that exchange never happened, and ${appended ? 'a new user message was appended' : "the user's next message follows the turn"}.`;
    return { ok: true, value: { transcript: withMessages(t, messages), describe } };
  },
};
