/**
 * Google Gemini (generativelanguage / Vertex AI) validator.
 *
 * Rules G1–G9 of the rule catalogue (docs/rules.md): G6 and G7 only as warnings (historic or
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
import type { Message, ToolUseBlock, Transcript } from '../types.ts';
import { geminiEnvelope, ruleText } from './catalogue/index.ts';
import { isClientToolUse, renderTurns, violation, type ViolationInput } from './common.ts';
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

export { geminiEnvelope };

/**
 * Render normalised messages as Gemini contents (roles `user` / `model`), see the file comment.
 * @param messages the messages to send
 * @param native true when they were parsed from a Gemini body (no merging at all)
 * @returns one rendered content per Gemini turn, with the source messages it came from
 */
export function renderGemini(messages: readonly Message[], native = false): RenderedMessage[] {
  return renderTurns(messages, 'model', !native);
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

function validate(t: Transcript, opts: ValidateOptions = {}): Validation {
  const source = opts.messages ?? t.messages;
  const contents = renderGemini(source, t.format === 'gemini');
  const found: Violation[] = [];
  const empty = emptyRequest(source, 'G8', 'beside', geminiEnvelope);
  if (empty) found.push(empty);
  const notes: string[] = [];
  const push = (v: Omit<ViolationInput, 'title' | 'why' | 'providerPath'>) => {
    const [title, why] = TEXT[v.rule] ?? ['', ''];
    found.push(violation({ ...v, title, why, providerPath: null }, geminiEnvelope));
  };
  const callsOf = (c: RenderedMessage) => c.items.filter((it) => isClientToolUse(it.block));
  const responsesOf = (c: RenderedMessage) =>
    c.items.filter((it) => it.block.type === 'tool_result' && it.block.server === undefined);
  const idOf = (it: RenderedItem) =>
    it.block.type === 'tool_use'
      ? it.block.id
      : it.block.type === 'tool_result'
        ? it.block.toolUseId
        : null;
  const ids = (list: RenderedItem[]) =>
    list.flatMap((it) => {
      const id = idOf(it);
      return id !== null ? [id] : [];
    });

  contents.forEach((c, n) => {
    const prev = n > 0 ? contents[n - 1] : undefined;
    if (c.items.length === 0) {
      const src = c.sources[0] as Message;
      found.push(
        violation(
          {
            rule: 'empty_content',
            code: 'G9',
            messageIndex: src.rawIndex,
            index: src.index,
            blockIndex: null,
            ids: [],
            providerPath: `contents[${n}].parts`,
            message: ruleText('G9', { n }),
            title: 'Content with no parts',
            why: 'Every content Gemini receives must hold at least one part; an empty message (a dropped tool result, an empty reply) is refused.',
            confidence: 'V',
          },
          geminiEnvelope,
        ),
      );
    }
    const responses = responsesOf(c);
    const calls = c.role === 'model' ? callsOf(c) : [];
    // G1: a function response turn not right after a function call turn.
    if (responses.length > 0 && !(prev && prev.role === 'model' && callsOf(prev).length > 0)) {
      const first = responses[0] as RenderedItem;
      push({
        rule: 'orphan_tool_result',
        code: 'G1',
        messageIndex: first.msg.rawIndex,
        index: first.msg.index,
        blockIndex: first.blockIndex,
        ids: ids(responses),
        message: G1,
        confidence: 'V',
      });
    }
    // G2: a function call turn not after a user turn or a function response turn.
    if (calls.length > 0 && !(prev && prev.role === 'user')) {
      const first = calls[0] as RenderedItem;
      push({
        rule: 'role_order',
        code: 'G2',
        messageIndex: first.msg.rawIndex,
        index: first.msg.index,
        blockIndex: first.blockIndex,
        ids: ids(calls),
        message: G2,
        confidence: 'V',
      });
    } else if (
      prev &&
      prev.role === c.role &&
      responses.length === 0 &&
      !(c.role === 'model' && callsOf(prev).length > 0)
    ) {
      const src = c.sources[0] as Message;
      push({
        rule: 'same_role_neighbours',
        code: 'G6',
        messageIndex: src.rawIndex,
        index: src.index,
        blockIndex: null,
        ids: [],
        message: G6,
        confidence: 'V',
        severity: 'warning',
      });
    }
    if (calls.length === 0) return;
    // G3: the next turn must hold as many function responses as this turn has calls.
    const next = contents[n + 1];
    const first = calls[0] as RenderedItem;
    if (!next) {
      push({
        rule: 'trailing_tool_use',
        code: 'G7',
        messageIndex: first.msg.rawIndex,
        index: first.msg.index,
        blockIndex: first.blockIndex,
        ids: ids(calls),
        message: G7,
        confidence: '?',
        severity: 'warning',
      });
      return;
    }
    const answers = next.role === 'user' ? responsesOf(next) : [];
    if (answers.length === calls.length) {
      const callIds = new Set(ids(calls));
      const stray = answers.filter((a) => {
        const id = idOf(a);
        return id !== null && callIds.size > 0 && !callIds.has(id);
      });
      if (stray.length > 0) {
        const s = stray[0] as RenderedItem;
        found.push(
          violation(
            {
              rule: 'tool_result_wrong_id',
              code: 'GW1',
              messageIndex: s.msg.rawIndex,
              index: s.msg.index,
              blockIndex: s.blockIndex,
              ids: ids(stray),
              providerPath: null,
              message: 'A functionResponse id matches no functionCall id of the call turn.',
              title: 'Function response with an id the call turn did not use',
              why: 'Gemini checks counts, not ids, so this is accepted, but the model may attribute the response to the wrong call.',
              confidence: '?',
              severity: 'warning',
            },
            geminiEnvelope,
          ),
        );
      }
      return;
    }
    if (answers.length > calls.length) {
      const extra = answers[calls.length] as RenderedItem;
      push({
        rule: 'count_mismatch',
        code: 'G3',
        messageIndex: extra.msg.rawIndex,
        index: extra.msg.index,
        blockIndex: extra.blockIndex,
        ids: ids(answers),
        message: G3,
        confidence: 'V',
      });
      return;
    }
    // Which calls are unanswered: by id when both sides have ids, else by position.
    const answeredIds = new Set(ids(answers));
    const byId = calls.every((it) => idOf(it) !== null) && answers.every((it) => idOf(it) !== null);
    const missing = byId
      ? calls.filter((it) => !answeredIds.has(idOf(it) as string))
      : calls.slice(answers.length);
    const m0 = (missing[0] ?? first) as RenderedItem;
    push({
      rule: answers.length === 0 ? 'unanswered_tool_use' : 'partial_answer',
      code: 'G3',
      messageIndex: m0.msg.rawIndex,
      index: m0.msg.index,
      blockIndex: m0.blockIndex,
      ids: ids(missing),
      message: G3,
      confidence: 'V',
    });
  });

  // G4: thought signatures on the current turn's function calls (Gemini 3).
  if (needsThoughtSignatures(t.settings.model)) {
    let turnStart = 0;
    contents.forEach((c, n) => {
      if (c.role === 'user' && c.items.some((it) => it.block.type !== 'tool_result'))
        turnStart = n + 1;
    });
    for (let n = turnStart; n < contents.length; n++) {
      const c = contents[n] as RenderedMessage;
      if (c.role !== 'model') continue;
      const firstCall = c.items.find((it) => isClientToolUse(it.block));
      if (!firstCall) continue;
      const b = firstCall.block as ToolUseBlock;
      if (b.signature) continue;
      push({
        rule: 'thought_signature_missing',
        code: 'G4',
        messageIndex: firstCall.msg.rawIndex,
        index: firstCall.msg.index,
        blockIndex: firstCall.blockIndex,
        ids: b.id !== null ? [b.id] : [],
        message: g4Message(b.name, n + 1),
        confidence: 'V',
      });
    }
  } else {
    notes.push(
      `Thought signatures (G4) are checked only for Gemini 3 models; model ${t.settings.model ?? '(unknown)'}.`,
    );
  }

  const last = contents[contents.length - 1];
  if (last && last.role === 'model' && callsOf(last).length === 0) {
    const src = last.sources[0] as Message;
    push({
      rule: 'trailing_assistant',
      code: 'G7',
      messageIndex: src.rawIndex,
      index: src.index,
      blockIndex: null,
      ids: [],
      message: G7,
      confidence: '?',
      severity: 'warning',
    });
  }
  notes.push('Signatures from another model or route (G5) cannot be checked from the request.');
  // Keep the provider's order: by content position (the first error is the 400). Keyed by our
  // index: raw indices repeat (a retry copy, a Gemini CLI turn and its stored results).
  const order = new Map(contents.flatMap((c, n) => c.sources.map((s) => [s.index, n] as const)));
  const violations = found
    .map((v, i) => ({ v, i }))
    .sort((a, b) => (order.get(a.v.index) ?? 0) - (order.get(b.v.index) ?? 0) || a.i - b.i)
    .map((x) => x.v);
  return {
    provider: 'gemini',
    valid: !violations.some((v) => v.severity === 'error'),
    violations,
    notes,
  };
}

export const geminiValidator: ProviderValidator = {
  id: 'gemini',
  label: 'Google Gemini',
  validate,
};
