/**
 * AWS Bedrock Converse validator.
 *
 * Rules B1–B7 of the rule catalogue (docs/rules.md). Converse
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
import { bedrockEnvelope } from './catalogue/index.ts';
import { idList, isClientToolUse, renderTurns, violation, type ViolationInput } from './common.ts';
import type {
  ProviderValidator,
  RenderedItem,
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
  return renderTurns(messages, 'assistant', !native);
}

const TEXT: Partial<Record<RuleId, [string, string]>> = {
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
  error_result_empty: [
    'Error tool result with empty content',
    'A toolResult with status "error" must say what went wrong: its content may not be empty.',
  ],
};

function validate(t: Transcript, opts: ValidateOptions = {}): Validation {
  const source = opts.messages ?? t.messages;
  const msgs = renderBedrock(source, t.format === 'bedrock-converse');
  const found: Violation[] = [];
  const notes: string[] = [];
  const claude = isClaudeOnBedrock(t.settings.model);
  const push = (v: Omit<ViolationInput, 'title' | 'why'>) => {
    const [title, why] = TEXT[v.rule] ?? ['', ''];
    found.push(violation({ ...v, title, why }, bedrockEnvelope));
  };
  const idOf = (it: RenderedItem) =>
    it.block.type === 'tool_use'
      ? it.block.id
      : it.block.type === 'tool_result'
        ? it.block.toolUseId
        : null;
  const isResult = (it: RenderedItem) =>
    it.block.type === 'tool_result' && it.block.server === undefined;

  // B7: tool blocks without toolConfig (only when the body says there are no tools).
  const anyTool = msgs.some((m) =>
    m.items.some((it) => it.block.type === 'tool_use' || it.block.type === 'tool_result'),
  );
  if (t.tools === null)
    notes.push('toolConfig was not given, so B7 (tool blocks without toolConfig) was not checked.');
  else if (t.tools.length === 0 && anyTool) {
    const first = source.find((m) =>
      m.blocks.some((b) => b.type === 'tool_use' || b.type === 'tool_result'),
    );
    push({
      rule: 'tools_not_defined',
      code: 'B7',
      messageIndex: first?.rawIndex ?? 0,
      index: first?.index ?? -1,
      blockIndex: null,
      ids: [],
      providerPath: 'toolConfig',
      message:
        'The toolConfig field must be defined when using toolUse and toolResult content blocks.',
      confidence: 'V',
    });
  }

  // B3: first message must be user.
  const head = msgs[0];
  if (head && head.role !== 'user') {
    push({
      rule: 'first_message_role',
      code: 'B3',
      messageIndex: (head.sources[0] as Message).rawIndex,
      index: (head.sources[0] as Message).index,
      blockIndex: null,
      ids: [],
      providerPath: 'messages.0',
      message:
        'A conversation must start with a user message. Try again with a conversation that starts with a user message.',
      confidence: 'V',
    });
  }

  msgs.forEach((m, n) => {
    const prev = n > 0 ? msgs[n - 1] : undefined;
    const src = m.sources[0] as Message;
    // B4: no merging of same-role neighbours.
    if (prev && prev.role === m.role) {
      push({
        rule: 'same_role_neighbours',
        code: 'B4',
        messageIndex: src.rawIndex,
        index: src.index,
        blockIndex: null,
        ids: [],
        providerPath: `messages.${n}`,
        message:
          'A conversation must alternate between user and assistant roles. Make sure the conversation alternates between user and assistant roles and try again.',
        confidence: 'V',
      });
    }
    if (m.role === 'user') {
      const results = m.items.filter(isResult);
      // B2 is reported against this message for the previous assistant turn's calls.
      if (prev && prev.role === 'assistant') {
        const calls = prev.items.filter((it) => isClientToolUse(it.block) && it.block.id !== null);
        const answered = new Set(results.map(idOf));
        const missing = calls.filter((it) => !answered.has(idOf(it)));
        const callIds = new Set(calls.map(idOf));
        // B1: more results than the previous turn had calls.
        if (results.length > calls.length) {
          const stray = results.filter((it) => !callIds.has(idOf(it)));
          const first = (stray[0] ?? results[calls.length]) as RenderedItem;
          push({
            rule: stray.length > 0 ? 'orphan_tool_result' : 'count_mismatch',
            code: 'B1',
            messageIndex: first.msg.rawIndex,
            index: first.msg.index,
            blockIndex: first.blockIndex,
            ids: (stray.length > 0 ? stray : results).flatMap((it) =>
              idOf(it) !== null ? [idOf(it) as string] : [],
            ),
            providerPath: `messages.${n}.content`,
            message: `The number of toolResult blocks at messages.${n}.content exceeds the number of toolUse blocks of previous turn.`,
            confidence: 'V',
          });
        }
        if (missing.length > 0) {
          const ids = missing.map((it) => idOf(it) as string);
          const first = missing[0] as RenderedItem;
          const rule: RuleId =
            missing.length < calls.length && results.some((it) => callIds.has(idOf(it)))
              ? 'partial_answer'
              : 'unanswered_tool_use';
          push({
            rule,
            code: 'B2',
            messageIndex: first.msg.rawIndex,
            index: first.msg.index,
            blockIndex: first.blockIndex,
            ids,
            providerPath: `messages.${n}.content`,
            message: `Expected toolResult blocks at messages.${n}.content for the following Ids: ${idList(ids)}`,
            confidence: 'V',
          });
        }
      } else if (results.length > 0) {
        const first = results[0] as RenderedItem;
        push({
          rule: 'orphan_tool_result',
          code: 'B1',
          messageIndex: first.msg.rawIndex,
          index: first.msg.index,
          blockIndex: first.blockIndex,
          ids: results.flatMap((it) => (idOf(it) !== null ? [idOf(it) as string] : [])),
          providerPath: `messages.${n}.content`,
          message: `The number of toolResult blocks at messages.${n}.content exceeds the number of toolUse blocks of previous turn.`,
          confidence: 'V',
        });
      }
      // B5: text next to tool results (model-dependent).
      if (results.length > 0) {
        const textIdx = m.items.findIndex((it) => it.block.type === 'text');
        const it = m.items[textIdx];
        if (it) {
          // An error only for a known non-Claude Bedrock model id (a model named by another format is not one).
          const bedrockModel = t.format === 'bedrock-converse' && t.settings.model !== undefined;
          const severity = bedrockModel && !claude ? 'error' : 'warning';
          push({
            rule: 'mixed_result_and_text',
            code: 'B5',
            messageIndex: it.msg.rawIndex,
            index: it.msg.index,
            blockIndex: it.blockIndex,
            ids: [],
            providerPath: `messages.${n}.content`,
            message: `messages.${n}.content: Conversation blocks and tool result blocks cannot be provided in the same turn.`,
            confidence: 'V',
            severity,
          });
          if (severity === 'warning')
            notes.push(
              `B5 (text next to tool results in messages.${n}) is reported for some model families only; ${claude ? 'Claude models are not reported to raise it' : 'the Bedrock model is unknown'}, so it is a warning here.`,
            );
        }
      }
      // B6: error result with empty content.
      m.items.forEach((it, mIdx) => {
        const b = it.block;
        if (
          b.type === 'tool_result' &&
          b.server === undefined &&
          b.isError &&
          b.content.length === 0
        ) {
          push({
            rule: 'error_result_empty',
            code: 'B6',
            messageIndex: it.msg.rawIndex,
            index: it.msg.index,
            blockIndex: it.blockIndex,
            ids: b.toolUseId !== null ? [b.toolUseId] : [],
            providerPath: `messages.${n}.content.${mIdx}.toolResult`,
            message: `The content field at messages.${n}.content.${mIdx}.toolResult cannot be empty when status value is error.`,
            confidence: 'V',
          });
        }
      });
    } else if (n === msgs.length - 1) {
      const calls = m.items.filter((it) => isClientToolUse(it.block) && it.block.id !== null);
      const first = calls[0];
      if (first && !claude) {
        push({
          rule: 'trailing_tool_use',
          code: 'BW1',
          messageIndex: first.msg.rawIndex,
          index: first.msg.index,
          blockIndex: first.blockIndex,
          ids: calls.map((it) => idOf(it) as string),
          providerPath: null,
          message: 'The conversation ends on toolUse blocks with no toolResult after them.',
          confidence: '?',
          severity: 'warning',
        });
      }
    }
  });

  if (claude) {
    const inner = anthropicValidator.validate(t, opts);
    // Same rule, same message (ours: raw indices repeat for retry copies and split messages).
    const key = (v: Violation) => `${v.rule}|${v.index}|${v.ids.join(',')}`;
    const seen = new Set(found.map(key));
    const bedrockHas = (rule: RuleId) => found.some((v) => v.rule === rule);
    for (const v of inner.violations) {
      if (v.severity !== 'error' || seen.has(key(v))) continue;
      if (v.rule === 'tools_not_defined' && bedrockHas('tools_not_defined')) continue;
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
      'The model is unknown: if it is Claude, Bedrock also runs the Anthropic checks (pick a Claude model id to see them).',
    );
  }
  return {
    provider: 'bedrock',
    valid: !found.some((v) => v.severity === 'error'),
    violations: found,
    notes,
  };
}

export const bedrockValidator: ProviderValidator = {
  id: 'bedrock',
  label: 'AWS Bedrock Converse',
  validate,
};
