/**
 * AWS Bedrock Converse validator.
 *
 * Rules B1–B12 of the rule catalogue (docs/rules.md). Converse
 * answers HTTP 400 `ValidationException` with the body `{"message":"…"}`. Unlike Anthropic direct
 * it does NOT merge same-role neighbours (B4), so parallel results split over two user messages
 * fail (B2). When the model is Claude (`settings.model` contains "anthropic" or "claude"),
 * Converse's own checks run first, then the Anthropic validator's errors are passed through with
 * the prefix `The model returned the following errors: ` (n8n-io/n8n#16987).
 *
 * A transcript from another format is first rendered into Converse messages as converters such
 * as LiteLLM do: system/developer messages leave the list (they go to `system`), tool results go
 * to `user`, and consecutive messages of the same rendered role are merged (so parallel Responses
 * `function_call` items form one assistant message). A transcript already in Converse format is
 * checked as pasted: nothing is merged (B4).
 */
import type { Message, Transcript } from '../types.ts';
import { anthropicValidator } from './anthropic.ts';
import { bedrockEnvelope, ruleSpec, ruleText } from './catalogue/index.ts';
import { hasError, violation } from './rules/common.ts';
import { toolsNotDefined } from './rules/request.ts';
import { checkIds, type FindingPush } from './bedrock.ids.ts';
import { at, checkContent, checkResultContent } from './bedrock.content.ts';
import {
  callTurnStats,
  idsOf,
  isClientCall,
  isClientResult,
  pairCallTurn,
  pairResultTurn,
  type PairFinding,
  type PairingSpec,
} from './rules/pairing.ts';
import {
  buildTurns,
  renderTurnList,
  turnHead,
  turnRole,
  type TurnRole,
  type Turns,
} from './rules/turns.ts';
import { repeatedIdsIn } from './rules/duplicateIds.ts';
import { roleOrderAt, type RoleOrderSpec } from './rules/roleOrder.ts';
import type {
  ProviderValidator,
  RenderedMessage,
  RuleId,
  ValidateOptions,
  Validation,
  Violation,
} from './types.ts';

export { bedrockEnvelope };

/** Prefix of Claude validator errors passed through by Bedrock (n8n-io/n8n#16987). */
export const CLAUDE_PREFIX = 'The model returned the following errors: ';

/** True when a Bedrock model id names a Claude model. */
export function isClaudeOnBedrock(model: string | undefined): boolean {
  return model !== undefined && /anthropic|claude/i.test(model);
}

/**
 * Render normalised messages as Converse messages, see the file comment.
 * @param messages the messages to send
 * @param native true when they were parsed from a Converse body (no merging at all)
 * @returns one rendered message per Converse message, with its source messages
 */
export function renderBedrock(messages: readonly Message[], native = false): RenderedMessage[] {
  return renderTurnList(buildTurns(messages, !native), 'assistant');
}

const TEXT: Partial<Record<RuleId, [string, string]>> = {
  malformed_tool_id: [
    'A toolUseId Converse refuses',
    'Converse takes tool ids of 1 to 64 letters, digits, _ and -; an id made by another provider (dots, colons) or a long generated one is refused before anything else. Renaming it in the call and its result together keeps the pair.',
  ],
  tools_not_defined: [
    'Tool blocks without toolConfig',
    'Converse refuses toolUse / toolResult blocks in the history when the request defines no toolConfig.',
  ],
  first_message_role: [
    'The conversation does not start with a user message',
    'Converse requires the first message to be from the user; a trim that kept an assistant message first, or a leading tool call, is refused.',
  ],
  same_role_neighbours: [
    'Two messages of the same role in a row',
    'Converse does not merge consecutive same-role messages (Anthropic direct does); user and assistant must alternate.',
  ],
  orphan_tool_result: [
    'Tool results with no toolUse in the previous turn',
    'Converse counts the toolResult blocks of a user message against the toolUse blocks of the assistant turn right before it; these results have no call there.',
  ],
  count_mismatch: [
    'More tool results than tool calls',
    'The user message holds more toolResult blocks than the previous assistant turn had toolUse blocks.',
  ],
  unanswered_tool_use: [
    'Tool calls not answered in the next message',
    'Converse requires every toolUse id of an assistant turn to have a toolResult in the very next message.',
  ],
  partial_answer: [
    'Only some parallel calls answered in the next message',
    'Every toolUse id needs its toolResult in the very next message; results split over two user messages are not merged, so the later ones count as missing.',
  ],
  trailing_tool_use: [
    'The conversation ends on tool calls',
    'The last assistant message calls tools and nothing answers them.',
  ],
  mixed_result_and_text: [
    'Text and tool results in one user message',
    'Some Bedrock model families refuse conversation blocks (text) next to toolResult blocks in the same user turn.',
  ],
  duplicate_tool_use_id: [
    'The same toolUseId twice in one message',
    'Every toolUse block of a message needs its own id; a model that names its calls after the tool, or a retry that reuses the id, repeats one.',
  ],
  duplicate_tool_result: [
    'Two toolResult blocks for one call',
    'A user message may answer each toolUseId once; merging two tool messages for one call (a retry, a blocked call answered twice) repeats it.',
  ],
  empty_content: [
    'Empty message',
    'Converse needs at least one content block in every message; a reply whose only blocks were dropped or blank is refused for every model.',
  ],
  empty_text: [
    'Blank text block',
    'Converse refuses a text block that is empty or only whitespace (two newlines, a space), for every model.',
  ],
  error_result_empty: [
    'Error tool result with empty content',
    'A toolResult with status "error" must say what went wrong: its content may not be empty.',
  ],
};

/** Bedrock's pairing (B1, B2): results anywhere in the next message, counted against ids. */
const PAIRING: PairingSpec = {
  answers: 'anywhere',
  match: 'id',
  orphans: 'excess',
  duplicateResults: false,
  callsLast: false,
};

type Push = FindingPush;

/** Word the findings in `pairs` (B1, B2, BW1), then empty it. */
function wordPairs(pairs: PairFinding[], push: Push, claude: boolean, T: Turns): void {
  for (const f of pairs) pairingFinding(f, push, claude, T);
  pairs.length = 0;
}

/** One violation of Bedrock's and one of Claude's own check are the same: rule, message, ids. */
function violationKey(v: Violation): string {
  return `${v.rule}|${v.index}|${v.ids.join(',')}`;
}

/** True when `found` holds a violation of `rule`. */
function hasRule(found: readonly Violation[], rule: RuleId): boolean {
  for (const v of found) if (v.rule === rule) return true;
  return false;
}

/** The pairing findings of the shared rule functions, in Bedrock's words (B1, B2, BW1). */
function pairingFinding(f: PairFinding, push: Push, claude: boolean, T: Turns): void {
  if (f.kind === 'orphan') {
    push({
      rule: f.excess ? 'count_mismatch' : 'orphan_tool_result',
      code: 'B1',
      ...at(f.at),
      ids: idsOf(f.results),
      providerPath: `messages.${f.n}.content`,
      message: ruleText('B1', { n: f.n }),
    });
  } else if (f.kind === 'open' && f.rule === 'trailing_tool_use') {
    if (claude) return; // Claude's own check (A2) reports it
    push({
      rule: 'trailing_tool_use',
      code: 'BW1',
      ...at(f.at),
      ids: idsOf(f.calls),
      providerPath: null,
      message: 'The conversation ends on toolUse blocks with no toolResult after them.',
      severity: 'warning',
    });
  } else if (f.kind === 'open') {
    const ids = idsOf(f.calls);
    // The path names the turn after the call (B2): its first message, when there is one.
    const next = f.n + 1 < T.count ? turnHead(T, f.n + 1).index : undefined;
    push({
      rule: f.rule === 'partial_answer' ? 'partial_answer' : 'unanswered_tool_use',
      code: 'B2',
      ...at(f.at),
      ...(next !== undefined && next !== f.at.msg.index ? { pathIndex: next } : {}),
      ids,
      providerPath: `messages.${f.n + 1}.content`,
      message: ruleText('B2', { n: f.n + 1, ids }),
    });
  }
}

/** B7: tool blocks in the history while the body defines no toolConfig. */
function checkToolConfig(
  t: Transcript,
  source: readonly Message[],
  push: Push,
  notes: string[],
): void {
  const first = toolsNotDefined(t, source);
  if (first === 'unknown')
    notes.push('toolConfig was not given, so B7 (tool blocks without toolConfig) was not checked.');
  if (first === null || first === 'unknown') return;
  push({
    rule: 'tools_not_defined',
    code: 'B7',
    messageIndex: first.rawIndex,
    index: first.index,
    blockIndex: null,
    ids: [],
    providerPath: 'toolConfig',
    message: ruleText('B7', {}),
  });
}

/** B3/B4: the first message is from the user, and roles alternate (nothing is merged). */
const ROLE_ORDER: RoleOrderSpec<TurnRole> = {
  first: ['user'],
  next: { user: ['assistant'], assistant: ['user'] },
};

function checkRoles(T: Turns, n: number, push: Push): void {
  const f = roleOrderAt(n, turnRole(T, n), n > 0 ? turnRole(T, n - 1) : 'user', ROLE_ORDER);
  if (f === null) return;
  const head = turnHead(T, n);
  const base = { messageIndex: head.rawIndex, index: head.index, blockIndex: null, ids: [] };
  if (f.kind === 'first')
    push({
      ...base,
      rule: 'first_message_role',
      code: 'B3',
      providerPath: 'messages.0',
      message: ruleText('B3', {}),
    });
  else
    push({
      ...base,
      rule: 'same_role_neighbours',
      code: 'B4',
      providerPath: `messages.${n}`,
      message: ruleText('B4', {}),
    });
}

/** B8/B9: an id repeated among one message's toolUse or toolResult blocks. */
function checkRepeatedIds(T: Turns, n: number, push: Push): void {
  const user = turnRole(T, n) === 'user';
  const r = repeatedIdsIn(T, n, user ? isClientResult : isClientCall);
  if (r === null) return;
  const code = user ? 'B9' : 'B8';
  push({
    rule: user ? 'duplicate_tool_result' : 'duplicate_tool_use_id',
    code,
    ...at(r.at),
    ids: r.ids,
    providerPath: `messages.${n}.content`,
    message: ruleText(code, { n, ids: r.ids }),
  });
}

/**
 * Where the validator's findings go: `out`, with the rule's title and why, and its confidence
 * (the catalogue's, or `confidence`). Made here, not as a closure in `validate`: this runs per
 * check, and a named closure per call is measurable at this size (scripts/benchCheck.ts).
 */
function pushInto(out: Violation[], confidence?: Violation['confidence']): Push {
  return (v) => {
    const [title, why] = TEXT[v.rule] ?? ['', ''];
    const c = confidence ?? ruleSpec(v.code).confidence;
    out.push(violation({ ...v, title, why, confidence: c }, bedrockEnvelope));
  };
}

function validate(t: Transcript, opts: ValidateOptions = {}): Validation {
  const source = opts.messages ?? t.messages;
  const T = buildTurns(source, t.format !== 'bedrock-converse');
  const found: Violation[] = [];
  const notes: string[] = [];
  const claude = isClaudeOnBedrock(t.settings.model);
  const push = pushInto(found);
  // B10 is a schema error: met before every other check, so its findings go first.
  const ids: Violation[] = [];
  const pushId = pushInto(ids, 'V-doc');
  // The pairing functions' findings of one call (an array, not a callback: issue 17).
  const pairs: PairFinding[] = [];
  checkToolConfig(t, source, push, notes);
  for (let n = 0; n < T.count; n++) {
    checkContent(T, n, n === T.count - 1, push);
    checkRoles(T, n, push);
    checkRepeatedIds(T, n, push);
    checkIds(T, n, pushId);
    if (turnRole(T, n) === 'user') {
      pairResultTurn(T, n, PAIRING, pairs);
      // B2 is reported against this message for the previous assistant turn's calls.
      if (n > 0 && turnRole(T, n - 1) === 'assistant')
        pairCallTurn(T, n - 1, PAIRING, callTurnStats(T, n - 1, true), pairs);
      wordPairs(pairs, push, claude, T);
      checkResultContent(t, T, n, claude, push, notes);
    } else if (n === T.count - 1) {
      pairCallTurn(T, n, PAIRING, callTurnStats(T, n, true), pairs);
      wordPairs(pairs, push, claude, T);
    }
  }

  if (ids.length > 0) found.unshift(...ids);
  if (claude) {
    const inner = anthropicValidator.validate(t, opts);
    // Same rule, same message (ours: raw indices repeat for retry copies and split messages): violationKey.
    const seen = new Set<string>();
    if (inner.violations.length > 0) for (const v of found) seen.add(violationKey(v));
    for (const v of inner.violations) {
      if (v.severity !== 'error' || seen.has(violationKey(v))) continue;
      if (v.rule === 'tools_not_defined' && hasRule(found, 'tools_not_defined')) continue;
      const message = `${CLAUDE_PREFIX}${v.message}`;
      found.push({
        ...v,
        message,
        error: bedrockEnvelope(message),
        why: `${v.why} (Claude's own check, passed through by Bedrock.)`,
      });
    }
    for (const note of inner.notes) notes.push(`Claude on Bedrock: ${note}`);
  } else if (t.settings.model === undefined) {
    notes.push(
      'The model is unknown: if it is Claude, Bedrock also runs the Anthropic checks (pick a Claude model id under Model, or --model, to see them).',
    );
  }
  return {
    provider: 'bedrock',
    valid: !hasError(found),
    violations: found,
    notes,
  };
}

export const bedrockValidator: ProviderValidator = {
  id: 'bedrock',
  label: 'AWS Bedrock Converse',
  requestTurns: (t, messages) => buildTurns(messages, t.format !== 'bedrock-converse'),
  validate,
};
