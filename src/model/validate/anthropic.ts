/**
 * Anthropic Messages API validator.
 *
 * Rules A1–A20 and T1–T6 of the rule catalogue (docs/rules.md). The API merges consecutive same-role messages before it checks pairing
 * (see docs/rules.md, Anthropic), so provider paths (`messages.N.content.M`) are computed after merging, while
 * `messageIndex`/`blockIndex` still point at the message and block as pasted.
 */
import type { Message, Transcript } from '../types.ts';
import { checkTrailing, rejectsPrefill } from './anthropic.prefill.ts';
import { checkSystemRole } from './anthropic.systemRole.ts';
import { checkUntyped } from './anthropic.untyped.ts';
import { checkThinking } from './anthropic.thinking.ts';
import { checkAnthropicCompaction } from './compaction.ts';
import { anthropicEnvelope } from './catalogue/index.ts';
import { hasError } from './rules/common.ts';
import { buildTurns, renderTurnList } from './rules/turns.ts';
import { emptyRequest, toolsNotDefined } from './rules/request.ts';
import type {
  ProviderValidator,
  RenderedMessage,
  ValidateOptions,
  Validation,
  Violation,
} from './types.ts';
import { anthropicChain } from './anthropic.chain.ts';
import { checkToolsDefined, checkTurn, newWalk, pushInto } from './anthropic.walk.ts';

export { rejectsPrefill };
export { anthropicEnvelope };

/**
 * Render normalised messages as the Anthropic API sees them: system/developer messages leave the
 * list (they go to `system`), role `tool` becomes `user`, and consecutive same-role messages are
 * merged into one (A9). An item object per block: for the eviction model's per-turn lookups;
 * the validator itself walks the same turns without them.
 */
export function renderAnthropic(messages: readonly Message[]): RenderedMessage[] {
  return renderTurnList(buildTurns(messages, true), 'assistant');
}

function validate(t: Transcript, opts: ValidateOptions = {}): Validation {
  const source = opts.messages ?? t.messages;
  const T = buildTurns(source, true);
  const found: Violation[] = [];
  const notes: string[] = [];
  const push = pushInto(found);
  // A18 is a schema error: met before every other check, so its findings go first.
  const ids: Violation[] = [];
  const pushId = pushInto(ids);
  // A19 is a schema error too (the role's values), met before the turns are read.
  checkSystemRole(t, source, pushId);
  // A20 too (a block's required `type`).
  checkUntyped(t, source, pushId);
  const empty = emptyRequest(source, 'A14', 'beside', anthropicEnvelope);
  if (empty) found.push(empty);
  checkToolsDefined(toolsNotDefined(t, source), push, notes);

  const w = newWalk(t, opts.uniqueToolUseIds === true ? null : new Set<string>());
  for (let n = 0; n < T.count; n++) checkTurn(T, n, w, push, pushId);

  checkTrailing(t, T, opts, push, notes);
  checkThinking(t, T, w.sig, push, notes);
  checkAnthropicCompaction(t, source, push);
  const violations = ids.length > 0 ? [...ids, ...found] : found;
  return {
    provider: 'anthropic',
    valid: !hasError(violations),
    violations,
    notes,
  };
}

export const anthropicValidator: ProviderValidator = {
  id: 'anthropic',
  label: 'Anthropic Messages',
  cuts: { kind: 'merged-turns', render: renderAnthropic },
  requestTurns: (_t, messages) => buildTurns(messages, true),
  validate,
  chain: anthropicChain,
};
