/**
 * OpenAI Chat Completions validator (and the OpenAI-compatible variants that share its shape).
 *
 * Rules O1–O9 of the rule catalogue (docs/rules.md). OpenAI is
 * lenient (assistant-first, consecutive user messages, tool→user are accepted; the order of tool
 * messages inside a run is free), but the run of `tool` messages must follow the assistant's
 * `tool_calls` contiguously and answer every id: the tool-run scan (rules/toolRuns.ts), which
 * this file words for each dialect of the family.
 */
import { requestIndexOf } from '../messageLabels.ts';
import type { Message, ProviderId, Transcript } from '../types.ts';
import { openaiEnvelope, ruleSpec, ruleText } from './catalogue/index.ts';
import { hasError, violation, type ViolationInput } from './rules/common.ts';
import { CHAT_TEXT as TEXT, NULL_CONTENT_AS_SENT } from './openaiChat.text.ts';
import { scanToolRuns, type RunFinding } from './rules/toolRuns.ts';
import { badIdsInRendered, idShapeOf, type BadId, type IdShape } from './rules/toolIds.ts';
import { unknownParts, untypedParts } from './rules/partTypes.ts';
import { renderOpenAIChat } from './openaiChat.render.ts';
import { emptyRequest } from './rules/request.ts';
import { hasEmptyToolCalls, hasNullContent } from './rawFields.ts';
import type {
  ProviderValidator,
  RenderedMessage,
  ValidateOptions,
  Validation,
  Violation,
} from './types.ts';

export { openaiEnvelope };
export { renderOpenAIChat } from './openaiChat.render.ts';

/**
 * A provider of the OpenAI family as data: its rule codes (texts, paths and confidence come from
 * the rule catalogue), its 400 body, and provider-specific checks.
 */
export interface ChatDialect {
  provider: ProviderId;
  label: string;
  /**
   * True for OpenAI's own schema (and an endpoint that passes it through, Azure): content part
   * types (O12) are checked and O11's `param` is set.
   */
  openaiSchema?: boolean;
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
    /** An assistant message with neither content nor tool_calls (O11); absent when unknown. */
    nullContent?: string;
    /**
     * An assistant message sent with `tool_calls: []` (O15), checked on bodies read as Chat
     * Completions; absent where the provider's answer is unknown or its own.
     */
    emptyToolCalls?: string;
    /**
     * A tool or user message sent with `content: null` (O16), checked on bodies read as Chat
     * Completions; absent where the provider's answer is unknown.
     */
    nullMessageContent?: string;
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
  /** Tool ids the provider's schema refuses (O10, M4); absent when no limit is known. */
  ids?: ChatIds;
}

/** How a dialect checks and words tool ids (rules/toolIds.ts). */
export interface ChatIds {
  code: string;
  shape: IdShape;
  /** 'first': a schema error, met before any other check; 'last': after the structure checks. */
  order: 'first' | 'last';
  /** The provider's path (and OpenAI `param`) for a refused id of message `n`. */
  path: (n: number, b: BadId) => string | null;
  /** The envelope's `code`. */
  envelopeCode: string;
  title: string;
  why: string;
}

export const OPENAI_DIALECT: ChatDialect = {
  provider: 'openai-chat',
  label: 'OpenAI Chat Completions',
  openaiSchema: true,
  codes: {
    orphan: 'O1',
    missing: 'O2',
    wrongId: 'O3',
    duplicateResult: 'O6',
    empty: 'O8',
    nullContent: 'O11',
    emptyToolCalls: 'O15',
    nullMessageContent: 'O16',
  },
  envelope: (message, param, code = null) => openaiEnvelope(message, param, code),
  ids: {
    code: 'O10',
    shape: idShapeOf('openai-chat'),
    order: 'first',
    path: (n, b) => `messages[${n}].tool_calls[${b.pos}].id`,
    envelopeCode: 'string_above_max_length',
    title: 'A tool_call id longer than 40 characters',
    why: 'Chat Completions takes tool_call ids of at most 40 characters. Ids made elsewhere are often longer: the Responses API\u2019s fc_\u2026 ids (50-odd), ids a gateway or agent framework generates. Shortening the id in the call and its tool message together keeps the pair.',
  },
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

/**
 * Push a violation whose text comes from the catalogue entry of `code`; its title and why are its
 * rule class's (`words`: a code's own, where one class has two).
 */
function report(
  scan: ChatScan,
  v: Omit<ViolationInput, 'title' | 'why' | 'confidence' | 'severity'>,
  param: string | null,
  envelopeCode: string | null = null,
  words: readonly [string, string] | undefined = TEXT[v.rule],
): void {
  const spec = ruleSpec(v.code);
  const [title, why] = words ?? ['', ''];
  const severity = spec.severity;
  const n = requestIndexOf(v.providerPath);
  const named = n === null ? undefined : scan.msgs[n]?.sources[0]?.index;
  const pathIndex = named !== undefined && named !== v.index ? { pathIndex: named } : {};
  scan.found.push(
    violation(
      { ...v, ...pathIndex, title, why, confidence: spec.confidence, severity },
      (message) => scan.dialect.envelope(message, param, envelopeCode),
    ),
  );
}

/** The scan's state: the rendered request and where violations go. */
interface ChatScan {
  dialect: ChatDialect;
  msgs: readonly RenderedMessage[];
  found: Violation[];
  /**
   * The body was read as Chat Completions (its messages' raws are what is sent): content part
   * types (O12, for OpenAI itself) and `tool_calls: []` (O15) are checked.
   */
  asSent: boolean;
  /** Check content part types (O12, O13): OpenAI itself, on a body read as Chat Completions. */
  parts: boolean;
}

/** A finding of the tool-run scan as the dialect words it (codes, paths, texts). */
function reportRun(scan: ChatScan, f: RunFinding): void {
  const { codes } = scan.dialect;
  const src = (k: number) => sourceOf(scan.msgs[k] as RenderedMessage);
  switch (f.kind) {
    case 'orphan':
      return report(
        scan,
        {
          rule: 'orphan_tool_result',
          code: codes.orphan,
          ...src(f.at),
          ids: f.id ? [f.id] : [],
          providerPath: `messages.[${f.at}].role`,
          message: ruleText(codes.orphan, { n: f.at }),
        },
        `messages.[${f.at}].role`,
      );
    case 'legacy_orphan':
      return report(
        scan,
        {
          rule: 'orphan_tool_result',
          code: 'O7',
          ...src(f.at),
          ids: [],
          providerPath: null,
          message: 'A legacy function message with no function_call right before it.',
        },
        null,
      );
    case 'result_without_id':
      return report(
        scan,
        {
          rule: 'missing_tool_id',
          code: 'O9',
          ...src(f.at),
          ids: [],
          providerPath: `messages[${f.at}].tool_call_id`,
          message: ruleText('O9', { n: f.at }),
        },
        `messages[${f.at}].tool_call_id`,
        'missing_required_parameter',
      );
    case 'duplicate_result':
      return reportDuplicate(scan, f.at, f.id, f.first);
    case 'wrong_id':
      return report(
        scan,
        {
          rule: 'tool_result_wrong_id',
          code: codes.wrongId,
          ...src(f.at),
          ids: [f.id],
          providerPath: `messages.[${f.at}].role`,
          message: ruleText(codes.wrongId, { id: f.id, n: f.at }),
        },
        `messages.[${f.at}].role`,
      );
    case 'duplicate_call':
      return report(
        scan,
        {
          rule: 'duplicate_tool_use_id',
          code: 'OW1',
          messageIndex: f.item.msg.rawIndex,
          index: f.item.msg.index,
          blockIndex: f.item.blockIndex,
          ids: [f.id],
          providerPath: null,
          message: `tool_call id ${f.id} is used by an earlier assistant message too.`,
        },
        null,
      );
    case 'open':
      return reportOpen(scan, f);
  }
}

/** O6: a second tool message for one id (an error or a warning by the dialect's evidence). */
function reportDuplicate(scan: ChatScan, j: number, id: string, first: number): void {
  const code = scan.dialect.codes.duplicateResult;
  const spec = ruleSpec(code);
  report(
    scan,
    {
      rule: 'duplicate_tool_result',
      code,
      ...sourceOf(scan.msgs[j] as RenderedMessage),
      ids: [id],
      providerPath: spec.severity === 'error' ? `messages.[${j}].tool_call_id` : null,
      message: spec.text
        ? spec.text({ id, n: first, m: j })
        : `A second tool message answers ${id}.`,
    },
    `messages.[${j}].tool_call_id`,
  );
}

/** O2: calls left without a tool message, at the message that broke the run (or the end). */
function reportOpen(scan: ChatScan, f: Extract<RunFinding, { kind: 'open' }>): void {
  const ended = f.end >= scan.msgs.length;
  const param = ended ? 'messages' : `messages.[${f.end}].role`;
  const code = scan.dialect.codes.missing;
  const n = scan.dialect.textIndex
    ? scan.dialect.textIndex(f.call, ended ? null : f.end, f.end)
    : f.call;
  report(
    scan,
    {
      rule: f.rule,
      code,
      messageIndex: f.first.msg.rawIndex,
      index: f.first.msg.index,
      blockIndex: f.first.blockIndex,
      ids: f.ids,
      providerPath: param,
      message: ruleText(code, { ids: f.ids, n }),
    },
    param,
  );
}

/**
 * The request's type errors, met before any other check, in message order: per message an empty
 * `tool_calls` list (O15), a null content (O11, D3; O16 for a tool or user message), its parts
 * without a type (O13) and of unknown types (O12), then its refused ids when they come first
 * (O10).
 */
function reportSchema(scan: ChatScan): void {
  const { dialect } = scan;
  const ids = dialect.ids?.order === 'first' ? dialect.ids : null;
  const code = dialect.codes.nullContent;
  for (let n = 0; n < scan.msgs.length; n++) {
    const m = scan.msgs[n] as RenderedMessage;
    if (scan.asSent) reportEmptyCalls(scan, m, n);
    if (scan.asSent) reportNullAsSent(scan, m, n);
    if (code !== undefined && m.role === 'assistant' && m.items.length === 0) {
      const param = dialect.openaiSchema === true ? `messages.[${n}].content` : null;
      report(
        scan,
        {
          rule: 'null_content',
          code,
          ...sourceOf(m),
          ids: [],
          providerPath: param,
          message: ruleText(code, { n }),
        },
        param,
      );
    }
    if (scan.parts) {
      reportUntyped(scan, m, n);
      reportParts(scan, m, n);
    }
    if (ids) reportIdsAt(scan, ids, n);
  }
}

/** O15: message `n` is an assistant message sent with `tool_calls: []`. */
function reportEmptyCalls(scan: ChatScan, m: RenderedMessage, n: number): void {
  const code = scan.dialect.codes.emptyToolCalls;
  if (code === undefined || m.role !== 'assistant' || !hasEmptyToolCalls(m.sources[0]?.raw)) return;
  const param = `messages[${n}].tool_calls`;
  report(
    scan,
    {
      rule: 'empty_tool_calls',
      code,
      ...sourceOf(m),
      blockIndex: null,
      ids: [],
      providerPath: param,
      message: ruleText(code, { n }),
    },
    param,
    'empty_array',
  );
}

/** O16: message `n` is a tool or user message sent with `content: null`. */
function reportNullAsSent(scan: ChatScan, m: RenderedMessage, n: number): void {
  const code = scan.dialect.codes.nullMessageContent;
  if (code === undefined || (m.role !== 'tool' && m.role !== 'user')) return;
  if (!hasNullContent(m.sources[0]?.raw)) return;
  const param = `messages.[${n}].content`;
  report(
    scan,
    {
      rule: 'null_content',
      code,
      ...sourceOf(m),
      blockIndex: null,
      ids: [],
      providerPath: param,
      message: ruleText(code, { n }),
    },
    param,
    null,
    NULL_CONTENT_AS_SENT,
  );
}

/** O13: message `n`'s content parts with no `type` (OpenAI's missing-parameter error). */
function reportUntyped(scan: ChatScan, m: RenderedMessage, n: number): void {
  for (const { item, k } of untypedParts(m)) {
    const param = `messages[${n}].content[${k}].type`;
    const v = { rule: 'untyped_part' as const, code: 'O13', ids: [], providerPath: param };
    const at = {
      messageIndex: item.msg.rawIndex,
      index: item.msg.index,
      blockIndex: item.blockIndex,
    };
    const message = ruleText('O13', { n, m: k });
    report(scan, { ...v, ...at, message }, param, 'missing_required_parameter');
  }
}

/** O12: message `n`'s content parts of a type Chat Completions does not have. */
function reportParts(scan: ChatScan, m: RenderedMessage, n: number): void {
  for (const it of unknownParts(m)) {
    const param = `messages[${n}].content[${it.blockIndex}].type`;
    const type = it.block.type === 'other' ? it.block.label : '';
    const v = { rule: 'unknown_part_type' as const, code: 'O12', ids: [], providerPath: param };
    const at = { messageIndex: it.msg.rawIndex, index: it.msg.index, blockIndex: it.blockIndex };
    report(scan, { ...v, ...at, message: ruleText('O12', { type }) }, param, 'invalid_value');
  }
}

/**
 * M4 (a dialect whose ids are checked after the structure, `order: 'last'`): each refused id
 * once, at its call — Mistral's 400 names the id (`Tool call id was <id> …`), not a message, so
 * the call and the tool message that share it are one error, fixed by one rename. The tool
 * messages carrying the same id are named in the violation's `why`; an id only a tool message
 * carries (its call is gone) is reported there. In message order of each id's first carrier.
 */
function reportIds(scan: ChatScan, ids: ChatIds): void {
  const byId = new Map<string, { bad: BadId; n: number }[]>();
  for (let n = 0; n < scan.msgs.length; n++)
    for (const bad of badIdsInRendered(scan.msgs[n] as RenderedMessage, ids.shape) ?? []) {
      const seen = byId.get(bad.id);
      if (seen) seen.push({ bad, n });
      else byId.set(bad.id, [{ bad, n }]);
    }
  for (const carriers of byId.values()) {
    const at = carriers.find((c) => c.bad.kind === 'call') ?? (carriers[0] as (typeof carriers)[0]);
    const others = carriers
      .filter((c) => c !== at && c.bad.msg !== at.bad.msg)
      .map((c) => `#${c.bad.msg.rawIndex}`);
    const also =
      others.length === 0
        ? ''
        : ` The same id in message ${[...new Set(others)].join(', ')} is part of this one error: the 400 names the id once.`;
    reportBadId(scan, ids, at.bad, at.n, also);
  }
}

/** O10 / M4 of message `n`, in call order. */
function reportIdsAt(scan: ChatScan, ids: ChatIds, n: number): void {
  for (const b of badIdsInRendered(scan.msgs[n] as RenderedMessage, ids.shape) ?? [])
    reportBadId(scan, ids, b, n, '');
}

/** One refused id `b` of message `n`; `also` is added to the dialect's `why`. */
function reportBadId(scan: ChatScan, ids: ChatIds, b: BadId, n: number, also: string): void {
  const spec = ruleSpec(ids.code);
  const path = ids.path(n, b);
  const v: ViolationInput = {
    rule: 'malformed_tool_id',
    code: ids.code,
    messageIndex: b.msg.rawIndex,
    index: b.msg.index,
    blockIndex: b.blockIndex,
    ids: [b.id],
    providerPath: path,
    message: ruleText(ids.code, { n, m: b.pos, id: b.id, length: b.id.length }),
    title: ids.title,
    why: ids.why + also,
    confidence: spec.confidence,
    severity: spec.severity,
  };
  scan.found.push(
    violation(v, (message) => scan.dialect.envelope(message, path, ids.envelopeCode)),
  );
}

/**
 * The findings without the OW1 warning of an id whose second tool message gets the duplicate
 * result error (O6): OpenAI's 400 for a replayed call is that one (agno-agi/agno#5116, "a
 * replayed turn", docs provider-rules O6), so a warning that no rejection is known would
 * contradict it. OW1 stays for a repeated id answered once.
 */
function withoutAnsweredRepeats(found: Violation[]): Violation[] {
  const rejected = new Set<string>();
  for (const v of found)
    if (v.rule === 'duplicate_tool_result' && v.severity === 'error')
      for (const id of v.ids) rejected.add(id);
  if (rejected.size === 0) return found;
  return found.filter(
    (v) => !(v.code === 'OW1' && v.ids.length > 0 && v.ids.every((id) => rejected.has(id))),
  );
}

/**
 * Validate with a dialect of the Chat Completions rules: the empty request, the dialect's own
 * structure checks, then the tool-run scan (rules/toolRuns.ts).
 * @returns violations in array order (the first is the 400 the request gets).
 */
export function validateChat(
  t: Transcript,
  dialect: ChatDialect,
  opts: ValidateOptions = {},
): Validation {
  const source = opts.messages ?? t.messages;
  const msgs = renderOpenAIChat(source);
  const asSent = t.format === 'openai-chat';
  const parts = dialect.openaiSchema === true && asSent;
  const scan: ChatScan = { dialect, msgs, found: [], asSent, parts };
  const empty = dialect.codes.empty
    ? emptyRequest(source, dialect.codes.empty, 'in-list', (message) =>
        dialect.envelope(message, 'messages', 'empty_array'),
      )
    : null;
  if (empty) scan.found.push(empty);
  reportSchema(scan);
  if (dialect.structure) scan.found.push(...dialect.structure(msgs, t));
  if (dialect.ids?.order === 'last') reportIds(scan, dialect.ids);
  if (dialect.pairing !== false) scanToolRuns(msgs, (f) => reportRun(scan, f));
  const violations = withoutAnsweredRepeats(scan.found);
  return {
    provider: dialect.provider,
    valid: !hasError(violations),
    violations,
    notes: [],
  };
}

export const openaiChatValidator: ProviderValidator = {
  id: 'openai-chat',
  label: 'OpenAI Chat Completions',
  cuts: { kind: 'tool-runs', render: renderOpenAIChat },
  chatCompletions: true,
  validate: (t, opts) => validateChat(t, OPENAI_DIALECT, opts),
};
