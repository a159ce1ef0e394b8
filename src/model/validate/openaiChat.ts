/**
 * OpenAI Chat Completions validator (and the OpenAI-compatible variants that share its shape).
 *
 * Rules O1–O9 of the rule catalogue (docs/rules.md). OpenAI is
 * lenient (assistant-first, consecutive user messages, tool→user are accepted; the order of tool
 * messages inside a run is free), but the run of `tool` messages must follow the assistant's
 * `tool_calls` contiguously and answer every id.
 */
import type { Message, ToolUseBlock, Transcript } from '../types.ts';
import { openaiEnvelope, ruleSpec, ruleText } from './catalogue/index.ts';
import { violation, type ViolationInput } from './common.ts';
import { isClientCall } from './rules/pairing.ts';
import { emptyRequest } from './shared.ts';
import type {
  ProviderValidator,
  RenderedItem,
  RenderedMessage,
  RuleId,
  ValidateOptions,
  Validation,
  Violation,
} from './types.ts';

export { openaiEnvelope };

/**
 * Render normalised messages as Chat Completions messages: a user message carrying tool results
 * (Anthropic shape) becomes one `tool` message per result, followed by a user message with the
 * rest of its content, if any. Everything else maps one to one.
 */
export function renderOpenAIChat(messages: readonly Message[]): RenderedMessage[] {
  const out: RenderedMessage[] = [];
  for (const m of messages) {
    // Loops, no closures or filtered arrays per message: this runs on every check (issue 17).
    const items: RenderedItem[] = [];
    let results = 0;
    for (let blockIndex = 0; blockIndex < m.blocks.length; blockIndex++) {
      const block = m.blocks[blockIndex] as Message['blocks'][number];
      if (block.type === 'tool_result') results++;
      items.push({ block, msg: m, blockIndex });
    }
    // A user message carrying results (Anthropic shape), or one `tool` message carrying several
    // (the AI SDK's shape), becomes one Chat Completions `tool` message per result.
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

/**
 * A provider of the OpenAI family as data: its rule codes (texts, paths and confidence come from
 * the rule catalogue), its 400 body, and provider-specific checks.
 */
export interface ChatDialect {
  provider: 'openai-chat' | 'deepseek' | 'qwen' | 'mistral';
  label: string;
  codes: {
    /** A tool message with no tool_calls before its run (O1). */
    orphan: string;
    /** Calls without their tool messages (O2). */
    missing: string;
    /** A tool message answering an id its run's assistant did not call (O3). */
    wrongId: string;
    /** Two tool messages with one tool_call_id; a warning code when no capture exists (O6). */
    duplicateResult: string;
    /** An empty `messages` array (O8); absent when the provider's answer is unknown. */
    empty?: string;
  };
  /**
   * The provider's 400 body. `param`: where OpenAI would point (`messages.[N].role`, `messages`);
   * `n`: the message the text counts (Qwen names it).
   */
  envelope: (message: string, param: string | null, code?: string | null) => unknown;
  /** The `n` a code's text is filled with: the message that broke the run, else the call's. */
  textIndex?: (callAt: number, breakAt: number | null, toolAt: number) => number;
  /** Provider-specific structural checks on the rendered messages, met before the pairing checks. */
  structure?: (msgs: RenderedMessage[], t: Transcript) => Violation[];
  /** False when the provider does not apply OpenAI's tool-run pairing rules (Mistral counts instead). */
  pairing?: boolean;
}

export const OPENAI_DIALECT: ChatDialect = {
  provider: 'openai-chat',
  label: 'OpenAI Chat Completions',
  codes: { orphan: 'O1', missing: 'O2', wrongId: 'O3', duplicateResult: 'O6', empty: 'O8' },
  envelope: (message, param, code = null) => openaiEnvelope(message, param, code),
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
  duplicate_tool_result: [
    'Two results for one call',
    'Each tool_call_id may be answered by one tool message only; an aborted placeholder result and the real one, or a late result after a timeout error, send two.',
  ],
  duplicate_tool_use_id: [
    'The same tool_call id used twice',
    'OpenAI has not been reported to reject a repeated tool_call id, but a replayed turn is usually a retry bug, and Anthropic and the Responses API reject it.',
  ],
  missing_tool_id: [
    'Tool message without a tool_call_id',
    'Every tool message must name the call it answers.',
  ],
};

/** The source of a rendered message's first item (or of the message), for a violation. */
function sourceOf(
  m: RenderedMessage,
): Pick<ViolationInput, 'messageIndex' | 'index' | 'blockIndex'> {
  const it = m.items[0];
  const src = it?.msg ?? (m.sources[0] as Message | undefined);
  return {
    messageIndex: src?.rawIndex ?? 0,
    index: src?.index ?? -1,
    blockIndex: it?.blockIndex ?? null,
  };
}

/** The tool_call_id a rendered `tool` message answers, or null. */
function toolCallIdOf(m: RenderedMessage): string | null {
  const b = m.items[0]?.block;
  return b && b.type === 'tool_result' ? b.toolUseId : null;
}

/** A legacy `role: "function"` message as sent (O7): no id, a name. */
function isLegacyResult(m: RenderedMessage): boolean {
  const it = m.items[0];
  const b = it?.block;
  if (b === undefined || b.type !== 'tool_result' || b.toolUseId !== null) return false;
  const raw = it?.msg.raw;
  return typeof raw === 'object' && raw !== null && (raw as { role?: unknown }).role === 'function';
}

/** A legacy assistant `function_call` (O7): a client call without an id. */
function hasLegacyCall(m: RenderedMessage): boolean {
  return (
    m.role === 'assistant' && m.items.some((it) => isClientCall(it.block) && it.block.id === null)
  );
}

/** The scan's state: where violations go and the tool messages seen so far (O6). */
interface ChatScan {
  dialect: ChatDialect;
  found: Violation[];
  /** Rendered index of the first tool message answering each id. */
  toolAt: Map<string, number>;
}

/** Push a violation whose text comes from the catalogue entry of `code`. */
function report(
  scan: ChatScan,
  v: Omit<ViolationInput, 'title' | 'why' | 'confidence' | 'severity'>,
  param: string | null,
  envelopeCode: string | null = null,
): void {
  const spec = ruleSpec(v.code);
  const [title, why] = TEXT[v.rule] ?? ['', ''];
  const severity = spec.severity;
  scan.found.push(
    violation({ ...v, title, why, confidence: spec.confidence, severity }, (message) =>
      scan.dialect.envelope(message, param, envelopeCode),
    ),
  );
}

/**
 * O6: a tool message answering an id that an earlier tool message already answered (request-wide;
 * only answers to a call of their run count as the first). True when it was reported.
 */
function checkDuplicate(scan: ChatScan, m: RenderedMessage, j: number, id: string): boolean {
  const first = scan.toolAt.get(id);
  if (first === undefined) return false;
  const code = scan.dialect.codes.duplicateResult;
  const spec = ruleSpec(code);
  report(
    scan,
    {
      rule: 'duplicate_tool_result',
      code,
      ...sourceOf(m),
      ids: [id],
      providerPath: spec.severity === 'error' ? `messages.[${j}].tool_call_id` : null,
      message: spec.text
        ? spec.text({ id, n: first, m: j })
        : `A second tool message answers ${id}.`,
    },
    `messages.[${j}].tool_call_id`,
  );
  return true;
}

/**
 * Validate with a dialect of the Chat Completions rules.
 * @returns violations in array order (the first is the 400 the request gets).
 */
export function validateChat(
  t: Transcript,
  dialect: ChatDialect,
  opts: ValidateOptions = {},
): Validation {
  const source = opts.messages ?? t.messages;
  const msgs = renderOpenAIChat(source);
  const scan: ChatScan = { dialect, found: [], toolAt: new Map() };
  const notes: string[] = [];
  const empty = dialect.codes.empty
    ? emptyRequest(source, dialect.codes.empty, 'in-list', (message) =>
        dialect.envelope(message, 'messages', 'empty_array'),
      )
    : null;
  if (empty) scan.found.push(empty);
  if (dialect.structure) scan.found.push(...dialect.structure(msgs, t));
  const seenCallIds = new Set<string>();
  let i = 0;
  while (dialect.pairing !== false && i < msgs.length) {
    const m = msgs[i] as RenderedMessage;
    if (m.role === 'tool') {
      checkOrphan(scan, msgs, i);
      i++;
      continue;
    }
    const calls = m.role === 'assistant' ? callsOf(m) : NO_CALLS;
    if (calls.length === 0) {
      i++;
      continue;
    }
    for (const it of calls) {
      const id = (it.block as ToolUseBlock).id as string;
      if (seenCallIds.has(id))
        report(
          scan,
          {
            rule: 'duplicate_tool_use_id',
            code: 'OW1',
            messageIndex: it.msg.rawIndex,
            index: it.msg.index,
            blockIndex: it.blockIndex,
            ids: [id],
            providerPath: null,
            message: `tool_call id ${id} is used by an earlier assistant message too.`,
          },
          null,
        );
      seenCallIds.add(id);
    }
    i = checkRun(scan, msgs, i, calls);
  }
  return {
    provider: dialect.provider,
    valid: !scan.found.some((v) => v.severity === 'error'),
    violations: scan.found,
    notes,
  };
}

const NO_CALLS: readonly RenderedItem[] = [];

/** The client tool calls with an id of an assistant message (a loop: it runs per message). */
function callsOf(m: RenderedMessage): readonly RenderedItem[] {
  let calls: RenderedItem[] | null = null;
  for (const it of m.items)
    if (isClientCall(it.block) && it.block.id !== null) (calls ??= []).push(it);
  return calls ?? NO_CALLS;
}

/** O1 (a tool message outside any run) or O7 (a legacy function message), then O6. */
function checkOrphan(scan: ChatScan, msgs: readonly RenderedMessage[], i: number): void {
  const m = msgs[i] as RenderedMessage;
  if (isLegacyResult(m)) {
    const prev = msgs[i - 1];
    if (prev !== undefined && hasLegacyCall(prev)) return; // O7: answers the function_call
    report(
      scan,
      {
        rule: 'orphan_tool_result',
        code: 'O7',
        ...sourceOf(m),
        ids: [],
        providerPath: null,
        message: 'A legacy function message with no function_call right before it.',
      },
      null,
    );
    return;
  }
  const id = toolCallIdOf(m);
  const code = scan.dialect.codes.orphan;
  report(
    scan,
    {
      rule: 'orphan_tool_result',
      code,
      ...sourceOf(m),
      ids: id ? [id] : [],
      providerPath: `messages.[${i}].role`,
      message: ruleText(code, { n: i }),
    },
    `messages.[${i}].role`,
  );
}

/**
 * The run of tool messages after assistant message `i` with `calls`: missing ids (O9), wrong ids
 * (O3), duplicates (O6), then the calls left without a tool message (O2).
 * @returns the index of the first message after the run
 */
function checkRun(
  scan: ChatScan,
  msgs: readonly RenderedMessage[],
  i: number,
  calls: readonly RenderedItem[],
): number {
  const ids: string[] = [];
  for (const it of calls) ids.push((it.block as ToolUseBlock).id as string);
  const answered = new Set<string>();
  let j = i + 1;
  for (; j < msgs.length && (msgs[j] as RenderedMessage).role === 'tool'; j++) {
    const m = msgs[j] as RenderedMessage;
    const id = toolCallIdOf(m);
    if (id === null) {
      report(
        scan,
        {
          rule: 'missing_tool_id',
          code: 'O9',
          ...sourceOf(m),
          ids: [],
          providerPath: `messages[${j}].tool_call_id`,
          message: ruleText('O9', { n: j }),
        },
        `messages[${j}].tool_call_id`,
        'missing_required_parameter',
      );
    } else if (checkDuplicate(scan, m, j, id)) {
      answered.add(id); // reported as O6; it still answers its call (no O2 on top)
    } else if (!ids.includes(id)) {
      const code = scan.dialect.codes.wrongId;
      report(
        scan,
        {
          rule: 'tool_result_wrong_id',
          code,
          ...sourceOf(m),
          ids: [id],
          providerPath: `messages.[${j}].role`,
          message: ruleText(code, { id, n: j }),
        },
        `messages.[${j}].role`,
      );
    } else {
      answered.add(id);
      scan.toolAt.set(id, j);
    }
  }
  if (answered.size === ids.length && ids.every((id) => answered.has(id))) return j;
  const missingIdx = ids.map((id, k) => (answered.has(id) ? -1 : k)).filter((k) => k >= 0);
  if (missingIdx.length === 0) return j;
  const missing = missingIdx.map((k) => ids[k] as string);
  const first = calls[missingIdx[0] as number] as RenderedItem;
  const ended = j >= msgs.length;
  const param = ended ? 'messages' : `messages.[${j}].role`;
  const rule: RuleId =
    j === i + 1 && ended
      ? 'trailing_tool_use'
      : answered.size > 0
        ? 'partial_answer'
        : 'unanswered_tool_use';
  const code = scan.dialect.codes.missing;
  const n = scan.dialect.textIndex ? scan.dialect.textIndex(i, ended ? null : j, j) : i;
  report(
    scan,
    {
      rule,
      code,
      messageIndex: first.msg.rawIndex,
      index: first.msg.index,
      blockIndex: first.blockIndex,
      ids: missing,
      providerPath: param,
      message: ruleText(code, { ids: missing, n }),
    },
    param,
  );
  return j;
}

export const openaiChatValidator: ProviderValidator = {
  id: 'openai-chat',
  label: 'OpenAI Chat Completions',
  cuts: { kind: 'tool-runs', render: renderOpenAIChat },
  validate: (t, opts) => validateChat(t, OPENAI_DIALECT, opts),
};
