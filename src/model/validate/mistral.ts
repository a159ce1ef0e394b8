/**
 * Mistral (La Plateforme chat completions). Mistral does not apply OpenAI's tool-run rules; it
 * validates role order and counts (M1–M3 of the rule catalogue), as mistral-common's validator
 * does (mistralai/mistral-common `protocol/instruct/validator.py`):
 * - the last message must be user or tool (or an assistant with `prefix: true`);
 * - after user → assistant/system/user; after assistant → assistant/user/tool; after tool →
 *   assistant/tool; after system → user/assistant/system;
 * - the number of tool messages after an assistant's tool_calls, up to the next assistant message
 *   or the end, must equal the number of calls.
 * Envelope: `{"object":"error","message","type":"invalid_request_message_order","param":null,"code":"3230"}`.
 */
import type { Message, Transcript } from '../types.ts';
import { mistralEnvelope } from './catalogue/index.ts';
import { violation, type ViolationInput } from './common.ts';
import { validateChat, type ChatDialect } from './openaiChat.ts';
import { roleOrderAt, type RoleOrderSpec } from './rules/roleOrder.ts';
import { idShapeOf } from './rules/toolIds.ts';
import type { ProviderValidator, RenderedMessage, Violation } from './types.ts';

export { mistralEnvelope };

type MistralRole = 'system' | 'user' | 'assistant' | 'tool';

/** Which role may follow which (mistral-common's validator); any role may open the request. */
const ROLE_ORDER: RoleOrderSpec<MistralRole> = {
  next: {
    system: ['user', 'assistant', 'system'],
    user: ['assistant', 'system', 'user'],
    assistant: ['assistant', 'user', 'tool'],
    tool: ['assistant', 'tool'],
  },
};

function roleOf(m: RenderedMessage): MistralRole {
  return m.role === 'developer' ? 'system' : (m.role as MistralRole);
}

function firstSource(m: RenderedMessage): {
  messageIndex: number;
  index: number;
  blockIndex: number | null;
} {
  const it = m.items[0];
  const src = it?.msg ?? (m.sources[0] as Message | undefined);
  return {
    messageIndex: src?.rawIndex ?? 0,
    index: src?.index ?? -1,
    blockIndex: it?.blockIndex ?? null,
  };
}

function hasPrefix(m: RenderedMessage): boolean {
  const raw = (m.sources[0] as Message | undefined)?.raw;
  return typeof raw === 'object' && raw !== null && (raw as { prefix?: unknown }).prefix === true;
}

function callIds(m: RenderedMessage): string[] {
  return m.items.flatMap((it) =>
    it.block.type === 'tool_use' && it.block.server !== true ? [it.block.id ?? ''] : [],
  );
}

/**
 * Mistral's structural checks, in the order mistral-common meets them (last message, then role
 * order, then call/response counts).
 * @param msgs messages rendered as Chat Completions messages (`renderOpenAIChat`)
 * @returns violations; the first one is the 400 the request gets
 */
export function mistralStructure(msgs: RenderedMessage[]): Violation[] {
  const out: Violation[] = [];
  const push = (v: ViolationInput) => out.push(violation(v, (message) => mistralEnvelope(message)));
  const last = msgs[msgs.length - 1];
  if (last) {
    const r = roleOf(last);
    if (r !== 'user' && r !== 'tool' && !(r === 'assistant' && hasPrefix(last))) {
      push({
        rule: 'trailing_assistant',
        code: 'M1',
        ...firstSource(last),
        ids: callIds(last),
        providerPath: null,
        message: `Expected last role User or Tool (or Assistant with prefix or continue_final_message set to True) for serving but got ${r}`,
        title: 'The request does not end with a user or tool message',
        why: 'Mistral serves a completion only after a user or tool message (or an assistant message marked `prefix: true`).',
        confidence: 'V',
      });
    }
  }
  const roleAt = (i: number) => roleOf(msgs[i] as RenderedMessage);
  for (let i = 1; i < msgs.length; i++) {
    const f = roleOrderAt(i, roleAt(i), roleAt(i - 1), ROLE_ORDER);
    if (f?.kind === 'after') {
      const { prev, role: cur } = f;
      const m = msgs[i] as RenderedMessage;
      push({
        rule: cur === 'tool' ? 'orphan_tool_result' : 'role_order',
        code: 'M2',
        ...firstSource(m),
        ids: m.items.flatMap((it) =>
          it.block.type === 'tool_result' && it.block.toolUseId !== null
            ? [it.block.toolUseId]
            : [],
        ),
        providerPath: null,
        message: `Unexpected role '${cur}' after role '${prev}'`,
        title: `A ${cur} message right after a ${prev} message`,
        why:
          cur === 'tool'
            ? 'On Mistral a tool message may follow only an assistant message or another tool message.'
            : 'After tool messages Mistral needs an assistant message before anything else; OpenAI accepts tool → user, Mistral does not.',
        confidence: 'V',
      });
    }
  }
  let expected = 0;
  let owner: RenderedMessage | null = null;
  const mismatch = (at: RenderedMessage) => {
    const src = owner ?? at;
    push({
      rule: 'count_mismatch',
      code: 'M3',
      ...firstSource(src),
      ids: owner ? callIds(owner) : [],
      providerPath: null,
      message: 'Not the same number of function calls and responses',
      title: 'Tool calls and tool messages do not match in number',
      why: 'Mistral counts the tool messages between an assistant message with tool_calls and the next assistant message (or the end); the count must equal the number of calls.',
      confidence: 'V',
    });
  };
  for (const m of msgs) {
    const r = roleOf(m);
    if (r === 'tool') expected--;
    else if (r === 'assistant') {
      if (expected !== 0) mismatch(m);
      const ids = callIds(m);
      expected = ids.length;
      owner = ids.length > 0 ? m : null;
    }
  }
  if (expected !== 0 && last) mismatch(last);
  return out;
}

/** The envelope code of Mistral's id check (M4), as captured. */
const ID_CODE = '3280';

/** Mistral's checks but the id check (M4): what LangChain's client sends, ids renamed to fit. */
const LANGCHAIN_DIALECT: ChatDialect = {
  provider: 'mistral',
  label: 'Mistral',
  // Mistral reports pairing faults as order or count errors (structure, M1–M3); the pairing
  // codes are not used.
  codes: { orphan: 'M2', missing: 'M3', wrongId: 'M3', duplicateResult: 'M3' },
  envelope: (message, _param, code) =>
    code === ID_CODE
      ? mistralEnvelope(message, 'invalid_function_call', code)
      : mistralEnvelope(message),
  structure: (msgs: RenderedMessage[], _t: Transcript) => mistralStructure(msgs),
  pairing: false,
};

export const MISTRAL_DIALECT: ChatDialect = {
  ...LANGCHAIN_DIALECT,
  ids: {
    code: 'M4',
    shape: idShapeOf('mistral'),
    order: 'last',
    path: () => null,
    envelopeCode: ID_CODE,
    title: 'A tool call id Mistral refuses',
    why: 'Mistral takes tool call ids of exactly nine letters and digits; ids made for another provider (call_…, toolu_…) are refused. Renaming the id in the call and its tool message together keeps the pair.',
  },
};

/** Judged as sent: LangChain's ChatMistralAI renames every tool call id to nine characters. */
const LANGCHAIN_NOTE =
  'LangChain\u2019s Mistral client renames tool call ids to nine letters and digits before it sends them, so M4 was not checked.';

export const mistralValidator: ProviderValidator = {
  id: 'mistral',
  label: 'Mistral',
  chatCompletions: true,
  models: /mistral|mixtral|codestral|magistral|devstral|ministral/i,
  validate: (t, opts) => {
    if (t.format !== 'langchain') return validateChat(t, MISTRAL_DIALECT, opts);
    const v = validateChat(t, LANGCHAIN_DIALECT, opts);
    return { ...v, notes: [...v.notes, LANGCHAIN_NOTE] };
  },
};
