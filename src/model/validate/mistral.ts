/**
 * Mistral (La Plateforme chat completions). Mistral does not apply OpenAI's tool-run rules; it
 * validates role order and counts (M1–M3 and M5 of the rule catalogue), as mistral-common's validator
 * does (mistralai/mistral-common `protocol/instruct/validator.py`):
 * - a request of one message must hold a user or system message (M5); with two or more, any role
 *   may open it, and the last message must not be an assistant message without `prefix: true`;
 * - after user → assistant/system/user; after assistant → assistant/user/tool; after tool →
 *   assistant/tool; after system → user/assistant/system;
 * - the number of tool messages after an assistant's tool_calls, up to the next assistant message
 *   or the end, must equal the number of calls. The request's first message is left out of this
 *   count: a tool message there is not counted, nor are the calls of an assistant message there.
 * Envelope: `{"object":"error","message","type":"invalid_request_message_order","param":null,"code":"3230"}`.
 */
import type { Message, Transcript } from '../types.ts';
import { mistralEnvelope } from './catalogue/index.ts';
import { violation, type ViolationInput } from './rules/common.ts';
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

type Push = (v: ViolationInput) => void;

/** The ids of the tool results a message carries. */
function resultIds(m: RenderedMessage): string[] {
  return m.items.flatMap((it) =>
    it.block.type === 'tool_result' && it.block.toolUseId !== null ? [it.block.toolUseId] : [],
  );
}

/**
 * M2: a role that may not follow the one before it. A system prompt that sits beside the list
 * (Anthropic `system`, Gemini `systemInstruction`) is sent as the first message, so the first
 * message of the list follows a system message.
 */
function roleOrder(msgs: RenderedMessage[], systemFirst: boolean, push: Push): void {
  const roleAt = (i: number): MistralRole =>
    i < 0 ? 'system' : roleOf(msgs[i] as RenderedMessage);
  for (let i = systemFirst ? 0 : 1; i < msgs.length; i++) {
    // Positions in the request as sent (the system prompt, when sent, is its message 0); any role
    // may open it.
    const f = roleOrderAt(i + (systemFirst ? 1 : 0), roleAt(i), roleAt(i - 1), ROLE_ORDER);
    if (f?.kind !== 'after') continue;
    const { prev, role: cur } = f;
    const m = msgs[i] as RenderedMessage;
    push({
      rule: cur === 'tool' ? 'orphan_tool_result' : 'role_order',
      code: 'M2',
      ...firstSource(m),
      ids: resultIds(m),
      providerPath: null,
      message: `Unexpected role '${cur}' after role '${prev}'`,
      title:
        cur === 'tool'
          ? `An orphan tool message, right after a ${prev} message`
          : `A ${cur} message right after a ${prev} message`,
      why:
        cur === 'tool'
          ? 'On Mistral a tool message may follow only an assistant message or another tool message; this one answers no call of the message before it.'
          : 'After tool messages Mistral needs an assistant message before anything else; OpenAI accepts tool → user, Mistral does not.',
      confidence: 'V',
    });
  }
}

/**
 * The tool messages counted against one assistant message: from it (or from the start) up to the
 * next assistant message or the end.
 */
interface Segment {
  /** The assistant message with calls that opens it, or null (the start, or no calls). */
  owner: RenderedMessage | null;
  /** Its calls: what the tool messages are counted against. */
  calls: number;
  /** The tool messages, in order. */
  tools: RenderedMessage[];
  /**
   * The request's first message, when it is an assistant message with calls that the count
   * leaves out (the segment then counts its tool messages against no call); else null.
   */
  uncounted: RenderedMessage | null;
}

const M3 = 'Not the same number of function calls and responses';

/**
 * M3 of one segment whose count is wrong, named at the message that breaks it: the assistant
 * message when its calls outnumber the tool messages, else the first tool message past the
 * count (an orphan when no call comes before it; the first message's role when the calls before
 * it are those of the request's first message, which the count leaves out).
 */
function countFinding(s: Segment, push: Push): void {
  const base = { code: 'M3', providerPath: null, message: M3, confidence: 'V' as const };
  if (s.owner && s.tools.length < s.calls) {
    push({
      ...base,
      rule: 'count_mismatch',
      ...firstSource(s.owner),
      ids: callIds(s.owner),
      title: 'Tool calls and tool messages do not match in number',
      why: 'Mistral counts the tool messages between an assistant message with tool_calls and the next assistant message (or the end); here there are fewer than its calls.',
    });
    return;
  }
  const extra = s.tools.slice(s.calls);
  if (s.uncounted) {
    push({
      ...base,
      rule: 'first_message_role',
      ...firstSource(extra[0] as RenderedMessage),
      ids: extra.flatMap(resultIds),
      title: 'The tool calls of the first message are not counted',
      why: 'Mistral leaves the first message of the request out of its count of calls and responses, so the calls of an assistant message that opens the request answer nothing and its tool messages are one too many. Start the request with a user message, or drop this leading exchange.',
    });
    return;
  }
  const orphan = s.owner === null;
  push({
    ...base,
    rule: orphan ? 'orphan_tool_result' : 'count_mismatch',
    ...firstSource(extra[0] as RenderedMessage),
    ids: extra.flatMap(resultIds),
    title: orphan
      ? 'An orphan tool message: no assistant tool call before it'
      : 'More tool messages than tool calls',
    why: orphan
      ? 'Mistral counts the tool messages after each assistant message with tool_calls against its calls; this one has no call before it (a trim or a lost turn removed it), so the count is off.'
      : 'Mistral counts the tool messages between an assistant message with tool_calls and the next assistant message (or the end); here there are more than its calls.',
  });
}

/**
 * M3: the tool messages after each assistant message, up to the next assistant message or the
 * end, must be as many as its calls; tool messages with no assistant message with calls before
 * them are counted against none. mistral-common's count starts at the request's second message,
 * so when `msgs[0]` is the request's first message (no system prompt sent before it) it is left
 * out: a tool message there is not counted, and the calls of an assistant message there are not
 * registered (its tool messages are then one too many).
 * @param skipFirst true when `msgs[0]` is the first message of the request as sent
 */
function callCounts(msgs: RenderedMessage[], skipFirst: boolean, push: Push): void {
  const first = skipFirst ? msgs[0] : undefined;
  const uncounted =
    first && roleOf(first) === 'assistant' && callIds(first).length > 0 ? first : null;
  let s: Segment = { owner: null, calls: 0, tools: [], uncounted };
  const close = () => {
    if (s.tools.length !== s.calls) countFinding(s, push);
  };
  for (let i = skipFirst ? 1 : 0; i < msgs.length; i++) {
    const m = msgs[i] as RenderedMessage;
    const r = roleOf(m);
    if (r === 'tool') s.tools.push(m);
    else if (r === 'assistant') {
      close();
      const calls = callIds(m).length;
      s = { owner: calls > 0 ? m : null, calls, tools: [], uncounted: null };
    }
  }
  close();
}

/**
 * M1: the last message of a request of two or more is an assistant message without `prefix`.
 * mistral-common refuses only that: a trailing system message passes its check.
 */
function lastRole(last: RenderedMessage, push: Push): void {
  const r = roleOf(last);
  if (r !== 'assistant' || hasPrefix(last)) return;
  push({
    rule: 'trailing_assistant',
    code: 'M1',
    ...firstSource(last),
    ids: callIds(last),
    providerPath: null,
    message: `Expected last role User or Tool (or Assistant with prefix or continue_final_message set to True) for serving but got ${r}`,
    title: 'The request ends with an assistant message',
    why: 'Mistral refuses a request that ends with an assistant message, unless that message is marked `prefix: true` (the reply then continues it); end with a user or tool message.',
    confidence: 'V',
  });
}

/**
 * M5: a request of a single message holds a user or system message. mistral-common checks the
 * role of a lone message only, and checks it instead of M1 (the last message's role).
 */
function loneRole(m: RenderedMessage, push: Push): void {
  const r = roleOf(m);
  if (r === 'user' || r === 'system') return;
  push({
    rule: 'first_message_role',
    code: 'M5',
    ...firstSource(m),
    ids: r === 'tool' ? resultIds(m) : callIds(m),
    providerPath: null,
    message: 'Conversation must start with a user message or system message',
    title: `A request of one ${r} message`,
    why: 'Mistral takes a request of a single message only when it is a user or system message.',
    confidence: '?',
  });
}

/**
 * Mistral's structural checks, in the order mistral-common meets them (a lone message's role, or
 * the last message's; then role order; then call/response counts).
 * @param msgs messages rendered as Chat Completions messages (`renderOpenAIChat`)
 * @param systemFirst true when a system prompt beside the list is sent before it
 * @returns violations; the first one is the 400 the request gets
 */
export function mistralStructure(msgs: RenderedMessage[], systemFirst = false): Violation[] {
  const out: Violation[] = [];
  const push = (v: ViolationInput) => out.push(violation(v, (message) => mistralEnvelope(message)));
  const last = msgs[msgs.length - 1];
  if (!last) return out;
  if (msgs.length === 1 && !systemFirst) loneRole(last, push);
  else lastRole(last, push);
  roleOrder(msgs, systemFirst, push);
  callCounts(msgs, !systemFirst, push);
  return out;
}

/** The envelope code of Mistral's id check (M4), as captured. */
const ID_CODE = '3280';

/** Mistral's checks but the id check (M4): what LangChain's client sends, ids renamed to fit. */
const LANGCHAIN_DIALECT: ChatDialect = {
  provider: 'mistral',
  label: 'Mistral',
  // Mistral reports pairing faults as order or count errors (structure, M1–M3, M5); the pairing
  // codes are not used.
  codes: { orphan: 'M2', missing: 'M3', wrongId: 'M3', duplicateResult: 'M3' },
  envelope: (message, _param, code) =>
    code === ID_CODE
      ? mistralEnvelope(message, 'invalid_function_call', code)
      : mistralEnvelope(message),
  structure: (msgs: RenderedMessage[], t: Transcript) =>
    mistralStructure(msgs, t.system.length > 0),
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
