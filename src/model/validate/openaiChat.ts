/**
 * OpenAI Chat Completions validator (and the OpenAI-compatible variants that share its shape).
 *
 * Rules and verbatim texts: ../shared/docs/provider-rules.md §2 (O1–O5) and §7.6: OpenAI is
 * lenient (assistant-first, consecutive user messages, tool→user are accepted; the order of tool
 * messages inside a run is free), but the run of `tool` messages must follow the assistant's
 * `tool_calls` contiguously and answer every id.
 */
import type { Message, Transcript } from '../types.ts';
import { idList, isClientToolUse, violation, type ViolationInput } from './common.ts';
import type {
  ProviderValidator,
  RenderedItem,
  RenderedMessage,
  RuleId,
  ValidateOptions,
  Validation,
  Violation,
} from './types.ts';

/** `{"error":{"message","type":"invalid_request_error","param","code":null}}` (§2). */
export function openaiEnvelope(
  message: string,
  param: string | null,
  code: string | null = null,
): unknown {
  return { error: { message, type: 'invalid_request_error', param, code } };
}

/**
 * Render normalised messages as Chat Completions messages: a user message carrying tool results
 * (Anthropic shape) becomes one `tool` message per result, followed by a user message with the
 * rest of its content, if any. Everything else maps one to one.
 */
export function renderOpenAIChat(messages: readonly Message[]): RenderedMessage[] {
  const out: RenderedMessage[] = [];
  for (const m of messages) {
    const items: RenderedItem[] = m.blocks.map((block, blockIndex) => ({
      block,
      msg: m,
      blockIndex,
    }));
    // A user message carrying results (Anthropic shape), or one `tool` message carrying several
    // (the AI SDK's shape), becomes one Chat Completions `tool` message per result.
    const results = items.filter((it) => it.block.type === 'tool_result').length;
    if ((m.role === 'user' && results > 0) || (m.role === 'tool' && results > 1)) {
      const rest: RenderedItem[] = [];
      for (const it of items) {
        if (it.block.type === 'tool_result') out.push({ role: 'tool', items: [it], sources: [m] });
        else rest.push(it);
      }
      if (rest.length > 0) out.push({ role: 'user', items: rest, sources: [m] });
    } else {
      out.push({ role: m.role, items, sources: [m] });
    }
  }
  return out;
}

/** Wording of a provider in the OpenAI family. */
export interface ChatDialect {
  provider: Transcript['format'] extends never
    ? never
    : 'openai-chat' | 'deepseek' | 'qwen' | 'mistral';
  label: string;
  orphan: (n: number) => { message: string; error: unknown; confidence: Violation['confidence'] };
  /** `next`: index of the message that broke the run of tool messages, or null at the end. */
  missing: (
    ids: string[],
    param: string | null,
    n: number,
    next: number | null,
  ) => { message: string; error: unknown; confidence: Violation['confidence'] };
  wrongId: (
    id: string,
    n: number,
  ) => { message: string; error: unknown; confidence: Violation['confidence'] };
  /** Provider-specific structural checks on the rendered messages, met before the pairing checks. */
  structure?: (msgs: RenderedMessage[], t: Transcript) => Violation[];
  /** False when the provider does not apply OpenAI's tool-run pairing rules (Mistral counts instead). */
  pairing?: boolean;
}

export const OPENAI_DIALECT: ChatDialect = {
  provider: 'openai-chat',
  label: 'OpenAI Chat Completions',
  orphan: (n) => {
    const message =
      "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.";
    return { message, error: openaiEnvelope(message, `messages.[${n}].role`), confidence: 'V' };
  },
  missing: (ids, param) => {
    const message = `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${idList(ids)}`;
    return { message, error: openaiEnvelope(message, param), confidence: 'V' };
  },
  wrongId: (id, n) => {
    const message = `Invalid parameter: 'tool_call_id' of '${id}' not found in 'tool_calls' of previous message.`;
    return { message, error: openaiEnvelope(message, `messages.[${n}].role`), confidence: 'V' };
  },
};

const TEXT: Partial<Record<RuleId, [string, string]>> = {
  orphan_tool_result: [
    'Tool message with no tool_calls before it',
    "A role 'tool' message must directly follow the assistant message whose tool_calls it answers (or another tool message of that run); a trim that dropped the assistant message leaves it orphaned.",
  ],
  tool_result_wrong_id: [
    'Tool message answers an id the previous message did not call',
    "The tool message follows an assistant tool_calls message, but its tool_call_id is not one of that message's calls.",
  ],
  unanswered_tool_use: [
    'Tool calls not answered',
    'An assistant message with tool_calls must be followed, contiguously, by one tool message per call; another message came first.',
  ],
  partial_answer: [
    'Only some parallel calls were answered',
    'Every id in tool_calls needs its own tool message in the run that follows; the error lists the ids left without one.',
  ],
  trailing_tool_use: [
    'The request ends on tool calls with no results',
    'The array ends right after an assistant message with tool_calls, so its calls have no tool messages.',
  ],
};

/**
 * Validate with a dialect of the Chat Completions rules.
 * @returns violations in array order (the first is the 400 the request gets).
 */
export function validateChat(
  t: Transcript,
  dialect: ChatDialect,
  opts: ValidateOptions = {},
): Validation {
  const msgs = renderOpenAIChat(opts.messages ?? t.messages);
  const found: Violation[] = [];
  const notes: string[] = [];
  const push = (
    v: Omit<ViolationInput, 'title' | 'why'> & { error: unknown },
    severity: Violation['severity'] = 'error',
  ) => {
    const [title, why] = TEXT[v.rule] ?? ['', ''];
    const { error, ...rest } = v;
    found.push(violation({ ...rest, title, why, severity }, () => error));
  };
  if (dialect.structure) found.push(...dialect.structure(msgs, t));
  const seenCallIds = new Set<string>();
  let i = 0;
  while (dialect.pairing !== false && i < msgs.length) {
    const m = msgs[i] as RenderedMessage;
    if (m.role === 'tool') {
      const it = m.items[0] as RenderedItem | undefined;
      const id = it && it.block.type === 'tool_result' ? it.block.toolUseId : null;
      const e = dialect.orphan(i);
      push({
        rule: 'orphan_tool_result',
        code: 'O1',
        messageIndex: it?.msg.rawIndex ?? (m.sources[0] as Message | undefined)?.rawIndex ?? 0,
        index: it?.msg.index ?? (m.sources[0] as Message | undefined)?.index ?? -1,
        blockIndex: it?.blockIndex ?? null,
        ids: id ? [id] : [],
        providerPath: `messages.[${i}].role`,
        message: e.message,
        error: e.error,
        confidence: e.confidence,
      });
      i++;
      continue;
    }
    const calls =
      m.role === 'assistant'
        ? m.items.filter((it) => isClientToolUse(it.block) && it.block.id !== null)
        : [];
    if (calls.length === 0) {
      i++;
      continue;
    }
    const ids = calls.map((it) => (it.block.type === 'tool_use' ? (it.block.id as string) : ''));
    for (const [k, id] of ids.entries()) {
      if (seenCallIds.has(id)) {
        const it = calls[k] as RenderedItem;
        found.push(
          violation(
            {
              rule: 'duplicate_tool_use_id',
              code: 'O4',
              messageIndex: it.msg.rawIndex,
              index: it.msg.index,
              blockIndex: it.blockIndex,
              ids: [id],
              providerPath: null,
              message: `tool_call id ${id} is used by an earlier assistant message too.`,
              title: 'The same tool_call id used twice',
              why: 'OpenAI has not been reported to reject a repeated tool_call id, but a replayed turn is usually a retry bug, and Anthropic and the Responses API reject it.',
              confidence: 'I',
              severity: 'warning',
            },
            () => null,
          ),
        );
      }
      seenCallIds.add(id);
    }
    const answered = new Set<string>();
    let j = i + 1;
    while (j < msgs.length && (msgs[j] as RenderedMessage).role === 'tool') {
      const it = (msgs[j] as RenderedMessage).items[0] as RenderedItem | undefined;
      const b = it?.block;
      const id = b && b.type === 'tool_result' ? b.toolUseId : null;
      if (id === null) {
        const message = `Missing required parameter: 'messages[${j}].tool_call_id'.`;
        push({
          rule: 'missing_tool_id',
          code: 'schema',
          messageIndex:
            it?.msg.rawIndex ??
            ((msgs[j] as RenderedMessage).sources[0] as Message | undefined)?.rawIndex ??
            0,
          index:
            it?.msg.index ??
            ((msgs[j] as RenderedMessage).sources[0] as Message | undefined)?.index ??
            -1,
          blockIndex: it?.blockIndex ?? null,
          ids: [],
          providerPath: `messages[${j}].tool_call_id`,
          message,
          error: openaiEnvelope(
            message,
            `messages[${j}].tool_call_id`,
            'missing_required_parameter',
          ),
          confidence: 'I',
        });
      } else if (!ids.includes(id)) {
        const e = dialect.wrongId(id, j);
        push({
          rule: 'tool_result_wrong_id',
          code: 'O3',
          messageIndex: it?.msg.rawIndex ?? 0,
          index: it?.msg.index ?? -1,
          blockIndex: it?.blockIndex ?? null,
          ids: [id],
          providerPath: `messages.[${j}].role`,
          message: e.message,
          error: e.error,
          confidence: e.confidence,
        });
      } else if (answered.has(id)) {
        found.push(
          violation(
            {
              rule: 'duplicate_tool_result',
              code: 'O4',
              messageIndex: it?.msg.rawIndex ?? 0,
              index: it?.msg.index ?? -1,
              blockIndex: it?.blockIndex ?? null,
              ids: [id],
              providerPath: null,
              message: `A second tool message answers ${id}.`,
              title: 'Two results for one call',
              why: 'OpenAI pairs tool messages by id and has not been reported to reject a repeated answer, but the model sees both results; other providers reject it.',
              confidence: 'I',
              severity: 'warning',
            },
            () => null,
          ),
        );
      } else answered.add(id);
      j++;
    }
    const missingIdx = ids.map((id, k) => (answered.has(id) ? -1 : k)).filter((k) => k >= 0);
    if (missingIdx.length > 0) {
      const missing = missingIdx.map((k) => ids[k] as string);
      const first = calls[missingIdx[0] as number] as RenderedItem;
      const param = j >= msgs.length ? 'messages' : `messages.[${j}].role`;
      const rule: RuleId =
        j === i + 1 && j >= msgs.length
          ? 'trailing_tool_use'
          : answered.size > 0
            ? 'partial_answer'
            : 'unanswered_tool_use';
      const e = dialect.missing(missing, param, i, j >= msgs.length ? null : j);
      push({
        rule,
        code: 'O2',
        messageIndex: first.msg.rawIndex,
        index: first.msg.index,
        blockIndex: first.blockIndex,
        ids: missing,
        providerPath: param,
        message: e.message,
        error: e.error,
        confidence: e.confidence,
      });
    }
    i = j;
  }
  return {
    provider: dialect.provider,
    valid: !found.some((v) => v.severity === 'error'),
    violations: found,
    notes,
  };
}

export const openaiChatValidator: ProviderValidator = {
  id: 'openai-chat',
  label: 'OpenAI Chat Completions',
  validate: (t, opts) => validateChat(t, OPENAI_DIALECT, opts),
};
