/**
 * Google Gemini (generativelanguage / Vertex AI) validator.
 *
 * Rules G1–G10 of the rule catalogue (docs/rules.md): G6 and G7 only as warnings (historic or
 * unconfirmed), G5 only as a note. Gemini checks turn order and
 * part counts, not ids, and names no index in its messages: `providerPath` is null, while
 * `messageIndex` / `blockIndex` still point at the content and part that cause the error.
 *
 * A transcript from another format is first rendered into Gemini contents as converters such as
 * LiteLLM do: system/developer messages leave the list (they go to `systemInstruction`),
 * assistant → `model`, tool results → `user`, and consecutive messages of the same rendered role
 * are merged into one content (so parallel Responses `function_call` items form one model turn).
 * A transcript already in Gemini format is checked as pasted: nothing is merged.
 */
import type { Block, Message, ToolUseBlock, Transcript } from '../types.ts';
import { geminiEnvelope, ruleSpec, ruleText } from './catalogue/index.ts';
import { hasError, violation, type ViolationInput } from './rules/common.ts';
import {
  blocksOf,
  callTurnStats,
  idsOf,
  isClientCall,
  isClientResult,
  pairCallTurn,
  pairResultTurn,
  type PairFinding,
  type PairingSpec,
  type TurnBlock,
} from './rules/pairing.ts';
import {
  buildTurns,
  renderTurnList,
  turnHead,
  turnRole,
  turnSize,
  type Turns,
} from './rules/turns.ts';
import { emptyRequest, isSessionLog, sessionLogNote } from './rules/request.ts';
import type {
  ProviderValidator,
  RenderedItem,
  RenderedMessage,
  RuleId,
  ValidateOptions,
  Validation,
  Violation,
} from './types.ts';

export { geminiEnvelope };

/**
 * Render normalised messages as Gemini contents (roles `user` / `model`), see the file comment.
 * @param messages the messages to send
 * @param native true when they were parsed from a Gemini body (no merging at all)
 * @returns one rendered content per Gemini turn, with the source messages it came from
 */
export function renderGemini(messages: readonly Message[], native = false): RenderedMessage[] {
  return renderTurnList(buildTurns(messages, !native), 'model');
}

const G1 =
  'Please ensure that function response turn comes immediately after a function call turn.';
const G2 =
  'Please ensure that function call turn comes immediately after a user turn or after a function response turn.';
const G3 =
  'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.';
const G6 = 'Please ensure that multiturn requests alternate between user and model.';
const G7 = 'Please ensure that multiturn requests ends with a user role or a function response.';

/** G4 text (verbatim template; `position` inferred to be the 1-based content position). */
export function g4Message(name: string, position: number): string {
  return `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${name}\` , position ${position}. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`;
}

const TEXT: Partial<Record<RuleId, [string, string]>> = {
  orphan_tool_result: [
    'Function response turn without a function call turn before it',
    'Gemini requires a turn of functionResponse parts to come immediately after the model turn whose functionCall parts it answers; a trim that dropped the call turn, or a message placed between them, breaks that.',
  ],
  role_order: [
    'Function call turn in the wrong place',
    'Gemini requires a model turn with functionCall parts to follow a user turn or a function-response turn; a history that starts with the model call (after a trim) or has two model turns in a row is refused.',
  ],
  unanswered_tool_use: [
    'Function calls not answered in the next turn',
    'Gemini counts parts: the turn after a function call turn must hold one functionResponse per functionCall; here it holds none (a new prompt was typed over the open calls, or the responses were dropped).',
  ],
  partial_answer: [
    'Only some parallel calls were answered',
    'Gemini counts parts: the response turn must hold as many functionResponse parts as the call turn has functionCall parts.',
  ],
  count_mismatch: [
    'More function responses than calls',
    'Gemini counts parts: the response turn holds more functionResponse parts than the call turn had functionCall parts.',
  ],
  invalid_signature: [
    'Thought step with an empty signature',
    'The Interactions API once refused a tool continuation whose thought step had an empty signature (June 2026); it has accepted it since, but the reasoning of that step cannot be restored.',
  ],
  thought_signature_missing: [
    'Function call replayed without its thought signature',
    'On Gemini 3 with thinking, the first functionCall part of each model step in the current turn must carry the thoughtSignature it came with; a converter or store that dropped it breaks the request.',
  ],
  trailing_tool_use: [
    'The history ends on function calls',
    'Nothing answers the last function calls; Gemini once required the history to end with a user or function-response turn (2023 capture; current behaviour unconfirmed).',
  ],
  trailing_assistant: [
    'The history ends on a model turn',
    'Gemini once required the history to end with a user or function-response turn (2023 capture; current behaviour unconfirmed).',
  ],
  same_role_neighbours: [
    'Two turns of the same role in a row',
    'Older Gemini models and Vertex (2024) required user and model turns to alternate; current enforcement is unconfirmed.',
  ],
};

/** True when the model needs thought signatures on function calls (Gemini 3 family). */
export function needsThoughtSignatures(model: string | undefined): boolean {
  return model !== undefined && /gemini-3/.test(model);
}

/** Gemini's pairing (G1, G3): turn order and part counts, not ids. */
const PAIRING: PairingSpec = {
  answers: 'anywhere',
  match: 'count',
  orphans: 'no-call-turn',
  duplicateResults: false,
  callsLast: false,
};

type Push = (v: Omit<ViolationInput, 'title' | 'why' | 'providerPath' | 'confidence'>) => void;

/** A violation at one block of the request. */
function at(it: RenderedItem): Pick<ViolationInput, 'messageIndex' | 'index' | 'blockIndex'> {
  return { messageIndex: it.msg.rawIndex, index: it.msg.index, blockIndex: it.blockIndex };
}

/** The pairing findings of the shared rule functions, in Gemini's words (G1, G3, G7, GW1). */
function pairingFinding(f: PairFinding, push: Push): void {
  if (f.kind === 'orphan') {
    push({
      rule: 'orphan_tool_result',
      code: 'G1',
      ...at(f.at),
      ids: idsOf(f.results),
      message: G1,
    });
  } else if (f.kind === 'excess') {
    push({ rule: 'count_mismatch', code: 'G3', ...at(f.at), ids: idsOf(f.results), message: G3 });
  } else if (f.kind === 'open' && f.rule === 'trailing_tool_use') {
    push({
      rule: 'trailing_tool_use',
      code: 'G7',
      ...at(f.at),
      ids: idsOf(f.calls),
      message: G7,
      severity: 'warning',
    });
  } else if (f.kind === 'open') {
    push({ rule: f.rule, code: 'G3', ...at(f.at), ids: idsOf(f.calls), message: G3 });
  } else if (f.kind === 'stray_id') {
    push({
      rule: 'tool_result_wrong_id',
      code: 'GW1',
      ...at(f.at),
      ids: idsOf(f.results),
      message: 'A functionResponse id matches no functionCall id of the call turn.',
      severity: 'warning',
    });
  }
}

/**
 * True when turn `n` holds a block that passes `keep`: `blocksOf` without the list, for the
 * checks every turn of every request goes through (the list is built only for a finding).
 */
function hasBlock(T: Turns, n: number, keep: (b: Block) => boolean): boolean {
  if (n < 0 || n >= T.count) return false;
  for (let s = T.start[n] as number; s < (T.start[n + 1] as number); s++)
    for (const b of (T.msgs[s] as Message).blocks) if (keep(b)) return true;
  return false;
}

/** The fields of a finding about a whole turn (its first message). */
function turnWhere(T: Turns, n: number) {
  const head = turnHead(T, n);
  return { messageIndex: head.rawIndex, index: head.index, blockIndex: null, ids: [] };
}

/** G9 (a content with no parts), G2 (a call turn in the wrong place), G6 (same-role turns). */
function checkTurnOrder(T: Turns, n: number, push: Push, found: Violation[]): void {
  if (turnSize(T, n) === 0)
    found.push(
      violation(
        {
          ...turnWhere(T, n),
          rule: 'empty_content',
          code: 'G9',
          providerPath: `contents[${n}].parts`,
          message: ruleText('G9', { n }),
          title: 'Content with no parts',
          why: 'Every content Gemini receives must hold at least one part; an empty message (a dropped tool result, an empty reply) is refused.',
          confidence: 'V',
        },
        geminiEnvelope,
      ),
    );
  const role = turnRole(T, n);
  const prevRole = n > 0 ? turnRole(T, n - 1) : null;
  if (role === 'assistant' && prevRole !== 'user' && hasBlock(T, n, isClientCall)) {
    const calls = blocksOf(T, n, isClientCall);
    push({
      rule: 'role_order',
      code: 'G2',
      ...at(calls[0] as TurnBlock),
      ids: idsOf(calls),
      message: G2,
    });
    return;
  }
  if (prevRole !== role || hasBlock(T, n, isClientResult)) return;
  if (role === 'assistant' && hasBlock(T, n - 1, isClientCall)) return;
  push({
    ...turnWhere(T, n),
    rule: 'same_role_neighbours',
    code: 'G6',
    message: G6,
    severity: 'warning',
  });
}

/**
 * G10: every `functionResponse` names its function. A Gemini body's name is read as written; a
 * transcript from another format is named as converters name it (the Gemini writer does the
 * same): its own name, else the name of a call with its id in the request — a result whose call
 * is not there (trimmed away, its id lost) goes out with an empty name.
 */
function checkResponseNames(t: Transcript, T: Turns, found: Violation[]): void {
  const native = t.format === 'gemini';
  const called = new Set<string>();
  if (!native)
    for (const m of T.msgs)
      for (const b of m.blocks) if (b.type === 'tool_use' && b.id !== null) called.add(b.id);
  for (let n = 0; n < T.count; n++) {
    let part = 0;
    for (let s = T.start[n] as number; s < (T.start[n + 1] as number); s++) {
      const m = T.msgs[s] as Message;
      m.blocks.forEach((b, block) => {
        const at = part++;
        if (b.type !== 'tool_result' || (b.name !== undefined && b.name !== '')) return;
        if (!native && b.toolUseId !== null && called.has(b.toolUseId)) return;
        found.push(
          violation(
            {
              messageIndex: m.rawIndex,
              index: m.index,
              blockIndex: block,
              ids: b.toolUseId !== null ? [b.toolUseId] : [],
              rule: 'tool_result_unnamed',
              code: 'G10',
              providerPath: `contents[${n}].parts[${at}].function_response.name`,
              message: ruleText('G10', { n, m: at }),
              title: 'Function response without its function name',
              why: native
                ? 'Gemini refuses a functionResponse part whose name is empty or missing: the name says which function it answers.'
                : 'Gemini refuses a functionResponse part whose name is empty, and a converter names a result after the call with its id in the request: this one has none (its call was trimmed away, or its id lost), so it goes out unnamed.',
              confidence: 'V',
            },
            geminiEnvelope,
          ),
        );
      });
    }
  }
}

/**
 * G11: a content of role `system` in a Gemini body's `contents` (its roles are `user` and
 * `model`; the system prompt goes in `systemInstruction`). Only a Gemini body is judged so: other
 * formats' system messages go to `systemInstruction` when converted.
 */
function checkSystemRole(source: readonly Message[], found: Violation[]): void {
  for (const m of source) {
    if (m.role !== 'system') continue;
    found.push(
      violation(
        {
          messageIndex: m.rawIndex,
          index: m.index,
          blockIndex: null,
          ids: [],
          rule: 'system_role_in_list',
          code: 'G11',
          providerPath: null,
          message: ruleText('G11', {}),
          title: 'System content inside contents',
          why: 'Gemini takes only the roles user and model in contents; the system prompt goes in `systemInstruction`.',
          confidence: 'V',
        },
        geminiEnvelope,
      ),
    );
  }
}

/** G4: the first call of each model step of the current turn carries its thought signature. */
function checkSignatures(t: Transcript, T: Turns, push: Push, notes: string[]): void {
  if (!needsThoughtSignatures(t.settings.model)) {
    notes.push(
      `Thought signatures (G4) are checked only for Gemini 3 models; model ${t.settings.model ?? '(unknown)'}.`,
    );
    return;
  }
  let turnStart = 0;
  for (let n = 0; n < T.count; n++)
    if (turnRole(T, n) === 'user' && blocksOf(T, n, (b) => b.type !== 'tool_result').length > 0)
      turnStart = n + 1;
  for (let n = turnStart; n < T.count; n++) {
    if (turnRole(T, n) !== 'assistant') continue;
    const first = blocksOf(T, n, isClientCall)[0];
    if (!first) continue;
    const b = first.block as ToolUseBlock;
    if (b.signature) continue;
    push({
      rule: 'thought_signature_missing',
      code: 'G4',
      ...at(first),
      ids: b.id !== null ? [b.id] : [],
      message: g4Message(b.name, n + 1),
    });
  }
}

/**
 * GW2 (Interactions API): an unsigned `thought` step in the model turn of a function call; see
 * the catalogue entry for why it is only a warning now.
 */
function checkUnsignedThoughts(t: Transcript, T: Turns, push: Push): void {
  if (t.format !== 'gemini-interactions') return;
  for (let n = 0; n < T.count; n++) {
    if (turnRole(T, n) !== 'assistant' || blocksOf(T, n, isClientCall).length === 0) continue;
    const unsigned = blocksOf(T, n, (b) => b.type === 'thinking' && b.signature === '')[0];
    if (!unsigned) continue;
    push({
      rule: 'invalid_signature',
      code: 'GW2',
      ...at(unsigned),
      ids: idsOf(blocksOf(T, n, isClientCall)),
      message: 'A thought step with an empty signature before function calls.',
      severity: 'warning',
    });
  }
}

function validate(t: Transcript, opts: ValidateOptions = {}): Validation {
  const source = opts.messages ?? t.messages;
  const T = buildTurns(source, t.format !== 'gemini');
  const found: Violation[] = [];
  const empty = emptyRequest(source, 'G8', 'beside', geminiEnvelope);
  if (empty) found.push(empty);
  if (t.format === 'gemini') checkSystemRole(source, found);
  const notes: string[] = [];
  const push: Push = (v) => {
    const [title, why] = TEXT[v.rule] ?? ['', ''];
    const { confidence } = ruleSpec(v.code);
    found.push(violation({ ...v, title, why, providerPath: null, confidence }, geminiEnvelope));
  };
  // The pairing functions' findings of one turn (an array, not a callback: issue 17).
  const pairs: PairFinding[] = [];
  for (let n = 0; n < T.count; n++) {
    checkTurnOrder(T, n, push, found);
    if (turnRole(T, n) === 'user') pairResultTurn(T, n, PAIRING, pairs);
    else pairCallTurn(T, n, PAIRING, callTurnStats(T, n), pairs);
    for (const f of pairs) pairingFinding(f, push);
    pairs.length = 0;
  }
  checkResponseNames(t, T, found);
  checkSignatures(t, T, push, notes);
  checkUnsignedThoughts(t, T, push);
  const last = T.count - 1;
  const trailing =
    last >= 0 && turnRole(T, last) === 'assistant' && !hasBlock(T, last, isClientCall);
  if (trailing && isSessionLog(t)) notes.push(sessionLogNote('G7'));
  else if (trailing) {
    const src = turnHead(T, last);
    push({
      rule: 'trailing_assistant',
      code: 'G7',
      messageIndex: src.rawIndex,
      index: src.index,
      blockIndex: null,
      ids: [],
      message: G7,
      severity: 'warning',
    });
  }
  notes.push('Signatures from another model or route (G5) cannot be checked from the request.');
  const violations = found.length < 2 ? found : byContent(T, found);
  return {
    provider: 'gemini',
    valid: !hasError(violations),
    violations,
    notes,
  };
}

/**
 * The findings in the provider's order: the request's field errors first, then by content
 * position (the first error is the 400).
 * Keyed by our index: raw indices repeat (a retry copy, a Gemini CLI turn and its stored
 * results). Only for two findings or more: the map costs a set per message of the request.
 */
function byContent(T: Turns, found: Violation[]): Violation[] {
  const order = new Map<number, number>();
  for (let n = 0; n < T.count; n++)
    for (let s = T.start[n] as number; s < (T.start[n + 1] as number); s++)
      order.set((T.msgs[s] as Message).index, n);
  // The request's field errors (`* GenerateContentRequest.…`: G8–G10, the ones with a path) are
  // the proto's validation, met before the turn checks (langflow-ai/langflow#9437 lists one per
  // content, nothing else).
  const field = (v: Violation) => (v.providerPath ? 0 : 1);
  return found
    .map((v, i) => ({ v, i }))
    .sort(
      (a, b) =>
        field(a.v) - field(b.v) ||
        (order.get(a.v.index) ?? 0) - (order.get(b.v.index) ?? 0) ||
        a.i - b.i,
    )
    .map((x) => x.v);
}

export const geminiValidator: ProviderValidator = {
  id: 'gemini',
  label: 'Google Gemini',
  validate,
};
