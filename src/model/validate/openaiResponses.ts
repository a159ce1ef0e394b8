/**
 * OpenAI Responses API validator.
 *
 * Rules R1–R7 of the rule catalogue (docs/rules.md). The Responses
 * API pairs `function_call_output` to `function_call` by `call_id` anywhere in `input`; no
 * adjacency is demanded (leookun/cursor-byok#307, confidence I). Reasoning rules R3–R5 apply only
 * to items that carry server ids (`fc_…`, `msg_…`, `rs_…`): content replayed without ids avoids
 * them. The error names no index: `param` is always `input`.
 *
 * A transcript from another format is first rendered into Responses items
 * (openaiResponses.render.ts); calls and outputs are paired by the by-id scan (rules/byId.ts).
 */
import { parserFor } from '../parse/registry.ts';
import type { Transcript } from '../types.ts';
import { byScanOrder, hasError, violation, type ViolationInput } from './rules/common.ts';
import { checkResponsesCompaction } from './compaction.ts';
import { openaiEnvelope, responsesEnvelope, ruleSpec, ruleText } from './catalogue/index.ts';
import { renderResponses, type ResponsesItem } from './openaiResponses.render.ts';
import { scanCallIds, scanOpenCalls, scanResults, type IdFinding } from './rules/byId.ts';
import { isSessionLog } from './rules/request.ts';
import { idShapeOf } from './rules/toolIds.ts';
import type { ProviderValidator, RuleId, ValidateOptions, Validation, Violation } from './types.ts';

export { responsesEnvelope, renderResponses, type ResponsesItem };

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
  for (const it of items) if (it.kind === 'reasoning') return true;
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
  malformed_tool_id: [
    'A call_id longer than 64 characters',
    'The Responses API takes call_id values of at most 64 characters; ids built from a tool or server name plus a UUID (MCP bridges, the Codex app server) run past it. Shortening the id in the call and its output together keeps the pair.',
  ],
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

/** A finding without its place (filled in from the item that holds it). */
type Finding = Omit<
  ViolationInput,
  'title' | 'why' | 'providerPath' | 'messageIndex' | 'index' | 'blockIndex'
>;

/** A finding of the by-id pairing scan (rules/byId.ts) in the Responses API's words. */
function pairingViolation(f: IdFinding): Finding {
  switch (f.kind) {
    case 'duplicate_call':
      return {
        rule: 'duplicate_tool_use_id',
        code: 'RW1',
        ids: [f.id],
        message: `call_id ${f.id} is used by an earlier function call too.`,
        confidence: 'I',
        severity: 'warning',
      };
    case 'call_without_id':
    case 'result_without_id':
      return {
        rule: 'missing_tool_id',
        code: 'R7',
        ids: [],
        message: `Missing required parameter: 'input[${f.at}].call_id'.`,
        confidence: 'I',
      };
    case 'orphan':
      return {
        rule: 'orphan_tool_result',
        code: 'R1',
        ids: [f.id],
        message: `No tool call found for function call output with call_id ${f.id}.`,
        confidence: 'V',
      };
    case 'duplicate_result':
      return {
        rule: 'duplicate_tool_result',
        code: 'RW2',
        ids: [f.id],
        message: `A second output answers ${f.id}.`,
        confidence: 'I',
        severity: 'warning',
      };
    case 'result_before_call':
      return {
        rule: 'role_order',
        code: 'RW3',
        ids: [f.id],
        message: `The output for ${f.id} comes before its call.`,
        confidence: '?',
        severity: 'warning',
      };
    case 'open':
      return {
        rule: f.rule,
        code: 'R2',
        ids: [f.id],
        message: `No tool output found for function call ${f.id}.`,
        confidence: 'V',
      };
  }
}

/** A finding and the index of the item that holds it (the provider's scan order). */
interface Placed {
  at: number;
  finding: Finding;
  /** A schema error (R8): its own `param` and `code`, and met before every other check. */
  schema?: { param: string; code: string };
}

/** R8: the most characters of a `call_id` (calls and outputs alike; only the length is checked). */
const CALL_ID_MAX = idShapeOf('openai-responses').max;

/** R8: call and output items whose `call_id` is longer than the API takes. */
function checkCallIdLength(items: readonly ResponsesItem[], found: Placed[]): void {
  for (let k = 0; k < items.length; k++) {
    const id = (items[k] as ResponsesItem).callId;
    if (id === null || id.length <= CALL_ID_MAX) continue;
    found.push({
      at: k,
      finding: {
        rule: 'malformed_tool_id',
        code: 'R8',
        ids: [id],
        message: ruleText('R8', { n: k, length: id.length }),
        confidence: 'V',
      },
      schema: { param: `input[${k}].call_id`, code: 'string_above_max_length' },
    });
  }
}

/** Server ids of output items: only a stored response makes them (R6b). */
const SERVER_OUTPUT_ID = /^(fc|msg|rs)_/;

/**
 * R6: an item id sent twice; R6b: in a request that continues server-held history, the first
 * output item re-sent with its server id (the server holds it already).
 */
function checkItemIds(items: readonly ResponsesItem[], found: Placed[], chained: boolean): void {
  const seen = new Set<string>();
  let held = !chained;
  for (let k = 0; k < items.length; k++) {
    const it = items[k] as ResponsesItem;
    const id = it.itemId;
    if (id === null) continue;
    const again = seen.has(id);
    if (again || (!held && it.kind !== 'output' && SERVER_OUTPUT_ID.test(id))) {
      const code = again ? 'R6' : 'R6b';
      if (!again) held = true;
      found.push({
        at: k,
        finding: {
          rule: 'duplicate_item',
          code,
          ids: [id],
          message: ruleText(code, { id }),
          confidence: ruleSpec(code).confidence,
        },
      });
    }
    seen.add(id);
  }
}

/** The position of the first `item_reference` item, or -1. */
function firstItemReference(items: readonly ResponsesItem[]): number {
  for (let k = 0; k < items.length; k++) {
    const it = items[k] as ResponsesItem;
    if (it.kind === 'other' && it.type === 'item_reference') return k;
  }
  return -1;
}

/**
 * An output after an `item_reference` answers a call the reference resolves server-side: it is
 * not R1 (the reference names the stored item's id, not its call_id, so which one is not known).
 */
function dropReferencedOrphans(
  items: readonly ResponsesItem[],
  pairing: IdFinding[],
  notes: string[],
): void {
  const ref = firstItemReference(items);
  if (ref < 0) return;
  let dropped = 0;
  for (let i = pairing.length - 1; i >= 0; i--) {
    const f = pairing[i] as IdFinding;
    if (f.kind === 'orphan' && f.at > ref) {
      pairing.splice(i, 1);
      dropped++;
    }
  }
  if (dropped > 0)
    notes.push(
      'Outputs after an `item_reference` answer calls the server holds (the reference resolves there): R1 was not judged for them.',
    );
}

/** True when some item carries a server id. */
function anyItemId(items: readonly ResponsesItem[]): boolean {
  for (const it of items) if (it.itemId !== null) return true;
  return false;
}

/**
 * R3/R3b/R4: items with server ids need the reasoning item of their response before them.
 * In a session log (`logged`) the run of items before an output is what the model produced: a
 * run with no reasoning item came from a response that produced none (a Codex reply with
 * `reasoning_output_tokens: 0`), and the API asks only for the reasoning item of the item's own
 * response (its text names that `rs_…`), so R3/R4 are not reported there.
 * @returns how many items a log's run without reasoning left unreported
 */
function checkReasoningBefore(
  items: readonly ResponsesItem[],
  found: Placed[],
  logged: boolean,
): number {
  let unjudged = 0;
  // The reasoning before the current run of outputs: none, replayed without its id (R3b: the
  // API cannot link it to the outputs' ids), or with it.
  let reasoning: 'none' | 'no-id' | 'id' = 'none';
  for (let k = 0; k < items.length; k++) {
    const it = items[k] as ResponsesItem;
    if (it.kind === 'reasoning') {
      if (reasoning !== 'id') reasoning = it.itemId !== null ? 'id' : 'no-id';
      continue;
    }
    if (!isAssistantOutput(it)) {
      reasoning = 'none';
      continue;
    }
    if (reasoning === 'id' || it.itemId === null || it.kind === 'other') continue;
    if (logged && reasoning === 'none') {
      unjudged++;
      continue;
    }
    const type = it.kind === 'call' ? it.type : 'message';
    found.push({
      at: k,
      finding: {
        rule: 'reasoning_missing',
        code: it.kind === 'call' ? (reasoning === 'no-id' ? 'R3b' : 'R3') : 'R4',
        ids: [it.itemId],
        message: `Item '${it.itemId}' of type '${type}' was provided without its required 'reasoning' item: 'rs_…'.`,
        confidence: 'V',
      },
    });
  }
  return unjudged;
}

/** R5: a reasoning item with an id and no output item after it. */
function checkReasoningAfter(items: readonly ResponsesItem[], found: Placed[]): void {
  for (let k = 0; k < items.length; k++) {
    const it = items[k] as ResponsesItem;
    if (it.kind !== 'reasoning' || it.itemId === null) continue;
    let j = k + 1;
    while (j < items.length && (items[j] as ResponsesItem).kind === 'reasoning') j++;
    const next = items[j];
    if (next && isAssistantOutput(next)) continue;
    found.push({
      at: k,
      finding: {
        rule: 'reasoning_without_following',
        code: 'R5',
        ids: [it.itemId],
        message: `Item '${it.itemId}' of type 'reasoning' was provided without its required following item.`,
        confidence: 'V',
      },
    });
  }
}

/** R3/R3b/R4 (when the request shows a reasoning model and server ids) and R5. */
function checkReasoning(
  t: Transcript,
  items: readonly ResponsesItem[],
  found: Placed[],
  notes: string[],
): void {
  if (!anyItemId(items))
    notes.push(
      'No item carries a server id (fc_…, msg_…, rs_…), so the reasoning rules R3–R5 do not apply.',
    );
  else if (!reasoningEvident(t, items))
    notes.push(
      'No sign of a reasoning model (no reasoning items, no `reasoning` setting), so R3/R4 (items replayed without their reasoning item) were not checked.',
    );
  else if (checkReasoningBefore(items, found, isSessionLog(t)) > 0)
    notes.push(
      'This is a session log: it records every item the model produced, so an assistant item with no reasoning item before it came from a response that produced none; the API asks only for the reasoning item of the item\u2019s own response, so R3/R4 were not reported for it.',
    );
  checkReasoningAfter(items, found);
}

/** Move the by-id scan's findings into `found`, worded as the Responses API words them. */
function placePairing(list: IdFinding[], found: Placed[]): void {
  for (const f of list) found.push({ at: f.at, finding: pairingViolation(f) });
  list.length = 0;
}

/** The violations of `found`, each at the message and block of its item, in scan order. */
function toViolations(items: readonly ResponsesItem[], found: readonly Placed[]): Violation[] {
  const placed: { order: number; v: Violation }[] = [];
  for (const { at, finding, schema } of found) {
    const it = items[at] as ResponsesItem;
    const [title, why] = TEXT[finding.rule] ?? ['', ''];
    const input: ViolationInput = {
      ...finding,
      messageIndex: it.msg.rawIndex,
      index: it.msg.index,
      blockIndex: it.blockIndex,
      title,
      why,
      providerPath: finding.severity === 'warning' ? null : (schema?.param ?? 'input'),
    };
    const v = schema
      ? violation(input, (message) => openaiEnvelope(message, schema.param, schema.code))
      : violation(input, responsesEnvelope);
    placed.push({ order: schema ? at - items.length : at, v });
  }
  return byScanOrder(placed).map((x) => x.v);
}

/**
 * The Responses verdict: render the messages as items, pair calls and outputs by call_id (R1,
 * R2, R7, RW1–RW3), item ids (R6), reasoning items (R3–R5). Plain loops and arrays, no closures:
 * this runs on every check of a request (issue 17).
 */
function validate(t: Transcript, opts: ValidateOptions = {}): Validation {
  const source = opts.messages ?? t.messages;
  const items = renderResponses(source, parserFor(t.format)?.itemIds === true);
  const found: Placed[] = [];
  const notes: string[] = [];
  // A request that continues server-held history (`previous_response_id`, `conversation`)
  // answers calls the body does not hold: an output without its call is the normal case (R1).
  const chained = continuesServerHistory(t);
  if (chained)
    notes.push(
      'The request continues server-held history (`previous_response_id` / `conversation`), where the calls of its outputs are: R1 (an output without its call) was not judged.',
    );
  checkCallIdLength(items, found);
  const pairing: IdFinding[] = [];
  const calls = scanCallIds(items, pairing);
  placePairing(pairing, found);
  checkItemIds(items, found, chained);
  const outputs = scanResults(items, calls, chained ? 'skip' : 'report', pairing);
  dropReferencedOrphans(items, pairing, notes);
  scanOpenCalls(items, calls, outputs, 'reasoning', pairing);
  placePairing(pairing, found);
  checkReasoning(t, items, found, notes);
  const violations = found.length === 0 ? [] : toViolations(items, found);
  checkResponsesCompaction(source, (v) => void violations.push(violation(v, responsesEnvelope)));
  return {
    provider: 'openai-responses',
    valid: !hasError(violations),
    violations,
    notes,
  };
}

export const openaiResponsesValidator: ProviderValidator = {
  id: 'openai-responses',
  label: 'OpenAI Responses',
  validate,
};
