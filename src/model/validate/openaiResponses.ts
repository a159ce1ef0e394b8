/**
 * OpenAI Responses API validator.
 *
 * Rules R1–R7 of the rule catalogue (docs/rules.md). The Responses
 * API pairs `function_call_output` to `function_call` by `call_id` anywhere in `input`; no
 * adjacency is demanded (leookun/cursor-byok#307, confidence I). Reasoning rules R3–R5 apply only
 * to items that carry server ids (`fc_…`, `msg_…`, `rs_…`): content replayed without ids avoids
 * them. The error names no index: `param` is always `input`.
 *
 * A transcript from another format is first rendered into Responses items: each tool_use becomes a
 * `function_call` item, each tool_result a `function_call_output` item, each run of text a
 * message item, each run of thinking blocks a reasoning item.
 */
import type { Message, Transcript } from '../types.ts';
import { byScanOrder, violation, type ViolationInput } from './common.ts';
import { responsesEnvelope } from './catalogue/index.ts';
import type { ProviderValidator, RuleId, ValidateOptions, Validation, Violation } from './types.ts';

export { responsesEnvelope };

/** One Responses input item as the API sees it. */
export interface ResponsesItem {
  kind: 'message' | 'call' | 'output' | 'reasoning' | 'other';
  /** Message role for `message` items; `assistant` for calls, reasoning and server items. */
  role: string;
  /** The source message and the block that makes this item (null for a whole message). */
  msg: Message;
  blockIndex: number | null;
  callId: string | null;
  /** Server item id (`fc_…`, `msg_…`, `rs_…`), when the item carries one. */
  itemId: string | null;
  /** Responses item type for messages (`function_call`, `custom_tool_call`, …). */
  type: string;
}

/** Formats whose message `meta.sourceId` is a Responses item id. */
const ITEM_ID_FORMATS = new Set<Transcript['format']>(['openai-responses', 'codex-jsonl']);

/**
 * Render normalised messages as Responses input items (see the file comment). A message parsed
 * from a Responses item gives exactly one item.
 * @param messages the messages to send (any subset)
 * @param itemIds whether `meta.sourceId` holds Responses item ids (true for Responses and Codex)
 */
export function renderResponses(messages: readonly Message[], itemIds: boolean): ResponsesItem[] {
  const out: ResponsesItem[] = [];
  // Plain loops, no closure per message: this runs on every check of a request (issue 17).
  for (const m of messages) {
    const start = out.length;
    let pending: ResponsesItem | null = null;
    const rawType =
      typeof m.raw === 'object' &&
      m.raw !== null &&
      typeof (m.raw as { type?: unknown }).type === 'string'
        ? String((m.raw as { type: string }).type)
        : '';
    for (let bi = 0; bi < m.blocks.length; bi++) {
      const b = m.blocks[bi] as Message['blocks'][number];
      switch (b.type) {
        case 'text':
        case 'image':
        case 'document':
          if (pending?.kind !== 'message') {
            if (pending) out.push(pending);
            pending = {
              kind: 'message',
              role: m.role === 'tool' ? 'user' : m.role,
              msg: m,
              blockIndex: bi,
              callId: null,
              itemId: null,
              type: 'message',
            };
          }
          break;
        case 'thinking':
        case 'redacted_thinking':
          if (pending?.kind !== 'reasoning') {
            if (pending) out.push(pending);
            pending = {
              kind: 'reasoning',
              role: 'assistant',
              msg: m,
              blockIndex: bi,
              callId: null,
              itemId: null,
              type: 'reasoning',
            };
          }
          if (b.type === 'redacted_thinking' && b.itemId)
            (pending as ResponsesItem).itemId = b.itemId;
          break;
        case 'tool_use':
          if (pending) out.push(pending);
          pending = null;
          if (b.server)
            out.push({
              kind: 'other',
              role: 'assistant',
              msg: m,
              blockIndex: bi,
              callId: b.id,
              itemId: null,
              type: 'server_tool',
            });
          else
            out.push({
              kind: 'call',
              role: 'assistant',
              msg: m,
              blockIndex: bi,
              callId: b.id,
              itemId: b.itemId ?? null,
              type: rawType && rawType.endsWith('_call') ? rawType : 'function_call',
            });
          break;
        case 'tool_result':
          if (pending) out.push(pending);
          pending = null;
          if (b.server !== undefined)
            out.push({
              kind: 'other',
              role: 'assistant',
              msg: m,
              blockIndex: bi,
              callId: b.toolUseId,
              itemId: null,
              type: 'server_tool',
            });
          else
            out.push({
              kind: 'output',
              role: 'user',
              msg: m,
              blockIndex: bi,
              callId: b.toolUseId,
              itemId: null,
              type: rawType || 'function_call_output',
            });
          break;
        case 'other':
          if (pending) out.push(pending);
          pending = null;
          out.push({
            kind: 'other',
            role: m.role,
            msg: m,
            blockIndex: bi,
            callId: null,
            itemId: null,
            type: b.label,
          });
          break;
      }
    }
    if (pending) out.push(pending);
    if (out.length === start)
      out.push({
        kind: 'message',
        role: m.role,
        msg: m,
        blockIndex: null,
        callId: null,
        itemId: null,
        type: 'message',
      });
    // A message item parsed from Responses keeps its server id in meta.sourceId.
    const only = out.length === start + 1 ? out[start] : undefined;
    if (itemIds && only && only.itemId === null && m.meta?.sourceId) only.itemId = m.meta.sourceId;
  }
  return out;
}

/** Items that a reasoning item may be followed by: the outputs of the same response. */
function isAssistantOutput(it: ResponsesItem): boolean {
  return (
    it.kind === 'call' ||
    (it.kind === 'message' && it.role === 'assistant') ||
    (it.kind === 'other' && it.role === 'assistant')
  );
}

/** True when the request shows a reasoning model, so R3/R4 can be judged. */
function reasoningEvident(t: Transcript, items: readonly ResponsesItem[]): boolean {
  if (items.some((it) => it.kind === 'reasoning')) return true;
  const raw = t.raw as { reasoning?: { effort?: unknown } } | null | undefined;
  if (
    raw &&
    typeof raw === 'object' &&
    !Array.isArray(raw) &&
    raw.reasoning &&
    typeof raw.reasoning === 'object'
  ) {
    return raw.reasoning.effort !== 'none';
  }
  return /^(o\d)/.test(t.settings.model ?? '');
}

const TEXT: Partial<Record<RuleId, [string, string]>> = {
  orphan_tool_result: [
    'Function call output with no matching call',
    'The Responses API pairs each function_call_output with a function_call of the same call_id anywhere in input; none exists here, typically because a trim or summary removed the call.',
  ],
  unanswered_tool_use: [
    'Function call without an output',
    'Every function_call in input needs a function_call_output with its call_id somewhere in input; this call has none, typically because the run was cancelled before the tool answered.',
  ],
  partial_answer: [
    'Only some parallel calls have outputs',
    'Each parallel function_call needs its own function_call_output; this one lost its output while its siblings kept theirs.',
  ],
  trailing_tool_use: [
    'The input ends on a function call with no output',
    'The last items are function calls with no outputs after them; the API needs an output for each call.',
  ],
  reasoning_missing: [
    'Item replayed without its reasoning item',
    'A reasoning model produced this item together with a reasoning item; when the item is replayed with its server id, the reasoning item that came before it must be replayed too. Dropping the id (pairing by call_id only) also avoids the error. The id of the dropped reasoning item is not in the request, so the message shows it as rs_….',
  ],
  reasoning_without_following: [
    'Reasoning item with nothing after it',
    'A reasoning item with a server id must be followed by the output item it led to (a message or a function call); the cut landed right after it.',
  ],
  duplicate_item: [
    'The same item id sent twice',
    'Item ids must be unique in a request, and an item already held by previous_response_id must not be re-sent.',
  ],
  missing_tool_id: [
    'Function call item without a call_id',
    'Calls and outputs are paired by call_id, which is required.',
  ],
  duplicate_tool_use_id: [
    'Two function calls with the same call_id',
    'Not captured as an error, but an output can answer only one of them.',
  ],
  duplicate_tool_result: [
    'Two outputs for one call',
    'Not captured as an error; the model sees both outputs.',
  ],
  role_order: [
    'Output placed before its call',
    'The Responses API is not known to enforce an order between a call and its output, but an output before its call is unusual.',
  ],
};

/** True when the body continues server-held history (`previous_response_id`, `conversation`). */
function continuesServerHistory(t: Transcript): boolean {
  if (t.raw === null || typeof t.raw !== 'object' || Array.isArray(t.raw)) return false;
  const raw = t.raw as Record<string, unknown>;
  return typeof raw.previous_response_id === 'string' || (raw.conversation ?? null) !== null;
}

function validate(t: Transcript, opts: ValidateOptions = {}): Validation {
  const source = opts.messages ?? t.messages;
  const items = renderResponses(source, ITEM_ID_FORMATS.has(t.format));
  const found: { v: Violation; order: number }[] = [];
  const notes: string[] = [];
  const push = (order: number, v: Omit<ViolationInput, 'title' | 'why' | 'providerPath'>) => {
    const [title, why] = TEXT[v.rule] ?? ['', ''];
    found.push({
      order,
      v: violation(
        { ...v, title, why, providerPath: v.severity === 'warning' ? null : 'input' },
        responsesEnvelope,
      ),
    });
  };
  const at = (it: ResponsesItem) => ({
    messageIndex: it.msg.rawIndex,
    index: it.msg.index,
    blockIndex: it.blockIndex,
  });

  const calls = new Map<string, number>();
  const outputs = new Map<string, number>();
  // A request that continues server-held history (`previous_response_id`, `conversation`)
  // answers calls the body does not hold: an output without its call is the normal case (R1).
  const chained = continuesServerHistory(t);
  if (chained)
    notes.push(
      'The request continues server-held history (`previous_response_id` / `conversation`), where the calls of its outputs are: R1 (an output without its call) was not judged.',
    );
  items.forEach((it, k) => {
    if (it.kind === 'call' && it.callId !== null) {
      if (calls.has(it.callId))
        push(k, {
          rule: 'duplicate_tool_use_id',
          code: 'RW1',
          ...at(it),
          ids: [it.callId],
          message: `call_id ${it.callId} is used by an earlier function call too.`,
          confidence: 'I',
          severity: 'warning',
        });
      else calls.set(it.callId, k);
    }
  });

  // R6: duplicate item ids.
  const seenItems = new Set<string>();
  items.forEach((it, k) => {
    if (it.itemId === null) return;
    if (seenItems.has(it.itemId))
      push(k, {
        rule: 'duplicate_item',
        code: 'R6',
        ...at(it),
        ids: [it.itemId],
        message: `Duplicate item found with id ${it.itemId}`,
        confidence: 'V',
      });
    seenItems.add(it.itemId);
  });

  // R1 (and missing call_id): outputs.
  items.forEach((it, k) => {
    if (it.kind === 'output') {
      if (it.callId === null) {
        push(k, {
          rule: 'missing_tool_id',
          code: 'R7',
          ...at(it),
          ids: [],
          message: `Missing required parameter: 'input[${k}].call_id'.`,
          confidence: 'I',
        });
        return;
      }
      const c = calls.get(it.callId);
      if (c === undefined && chained) return; // its call is in the server-held history
      if (c === undefined) {
        push(k, {
          rule: 'orphan_tool_result',
          code: 'R1',
          ...at(it),
          ids: [it.callId],
          message: `No tool call found for function call output with call_id ${it.callId}.`,
          confidence: 'V',
        });
        return;
      }
      if (outputs.has(it.callId)) {
        push(k, {
          rule: 'duplicate_tool_result',
          code: 'RW2',
          ...at(it),
          ids: [it.callId],
          message: `A second output answers ${it.callId}.`,
          confidence: 'I',
          severity: 'warning',
        });
        return;
      }
      outputs.set(it.callId, k);
      if (c > k)
        push(k, {
          rule: 'role_order',
          code: 'RW3',
          ...at(it),
          ids: [it.callId],
          message: `The output for ${it.callId} comes before its call.`,
          confidence: '?',
          severity: 'warning',
        });
    } else if (it.kind === 'call' && it.callId === null) {
      push(k, {
        rule: 'missing_tool_id',
        code: 'R7',
        ...at(it),
        ids: [],
        message: `Missing required parameter: 'input[${k}].call_id'.`,
        confidence: 'I',
      });
    }
  });

  // R2: calls with no output anywhere. A group is a run of call (and reasoning) items.
  let k = 0;
  while (k < items.length) {
    const it = items[k] as ResponsesItem;
    if (it.kind !== 'call') {
      k++;
      continue;
    }
    let end = k;
    const group: number[] = [];
    while (
      end < items.length &&
      ((items[end] as ResponsesItem).kind === 'call' ||
        (items[end] as ResponsesItem).kind === 'reasoning')
    ) {
      if ((items[end] as ResponsesItem).kind === 'call') group.push(end);
      end++;
    }
    // Whether any call of the group (first with its call_id) has an output: a loop, not a
    // filtered array per group (this runs on every check).
    let answered = false;
    for (const g of group) {
      const c = items[g] as ResponsesItem;
      if (c.callId !== null && calls.get(c.callId) === g && outputs.has(c.callId)) answered = true;
    }
    for (const g of group) {
      const c = items[g] as ResponsesItem;
      if (c.callId === null || calls.get(c.callId) !== g || outputs.has(c.callId)) continue;
      const rule: RuleId =
        end >= items.length
          ? 'trailing_tool_use'
          : answered
            ? 'partial_answer'
            : 'unanswered_tool_use';
      push(g, {
        rule,
        code: 'R2',
        ...at(c),
        ids: [c.callId],
        message: `No tool output found for function call ${c.callId}.`,
        confidence: 'V',
      });
    }
    k = end;
  }

  // R3/R4: items with server ids need the reasoning item of their response before them.
  if (!items.some((it) => it.itemId !== null)) {
    notes.push(
      'No item carries a server id (fc_…, msg_…, rs_…), so the reasoning rules R3–R5 do not apply.',
    );
  } else if (!reasoningEvident(t, items)) {
    notes.push(
      'No sign of a reasoning model (no reasoning items, no `reasoning` setting), so R3/R4 (items replayed without their reasoning item) were not checked.',
    );
  } else {
    // The reasoning before the current run of outputs: none, replayed without its id (R3b: the
    // API cannot link it to the outputs' ids), or with it.
    let reasoning: 'none' | 'no-id' | 'id' = 'none';
    items.forEach((it, k2) => {
      if (it.kind === 'reasoning') {
        if (reasoning !== 'id') reasoning = it.itemId !== null ? 'id' : 'no-id';
        return;
      }
      if (!isAssistantOutput(it)) {
        reasoning = 'none';
        return;
      }
      if (reasoning === 'id' || it.itemId === null) return;
      const type = it.kind === 'call' ? it.type : it.kind === 'message' ? 'message' : it.type;
      if (it.kind === 'other') return;
      push(k2, {
        rule: 'reasoning_missing',
        code: it.kind === 'call' ? (reasoning === 'no-id' ? 'R3b' : 'R3') : 'R4',
        ...at(it),
        ids: [it.itemId],
        message: `Item '${it.itemId}' of type '${type}' was provided without its required 'reasoning' item: 'rs_…'.`,
        confidence: 'V',
      });
    });
  }

  // R5: a reasoning item with an id and no output item after it.
  items.forEach((it, k2) => {
    if (it.kind !== 'reasoning' || it.itemId === null) return;
    let j = k2 + 1;
    while (j < items.length && (items[j] as ResponsesItem).kind === 'reasoning') j++;
    const next = items[j];
    if (next && isAssistantOutput(next)) return;
    push(k2, {
      rule: 'reasoning_without_following',
      code: 'R5',
      ...at(it),
      ids: [it.itemId],
      message: `Item '${it.itemId}' of type 'reasoning' was provided without its required following item.`,
      confidence: 'V',
    });
  });

  const violations = byScanOrder(found).map((x) => x.v);
  return {
    provider: 'openai-responses',
    valid: !violations.some((v) => v.severity === 'error'),
    violations,
    notes,
  };
}

export const openaiResponsesValidator: ProviderValidator = {
  id: 'openai-responses',
  label: 'OpenAI Responses',
  validate,
};
