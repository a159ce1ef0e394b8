/**
 * Anthropic A12: a trailing assistant message is a prefill, which newer models reject, forced tool
 * use and structured output never allow, and which may not end in whitespace.
 */
import type { Transcript } from '../types.ts';
import type { Push } from './rules/common.ts';
import { isSessionLog, sessionLogNote } from './rules/request.ts';
import { isClientCall } from './rules/pairing.ts';
import { turnHead, turnItems, turnRole, type Turns } from './rules/turns.ts';
import type { ValidateOptions } from './types.ts';

/**
 * Models that reject any trailing assistant message (A12, Anthropic errors page): Opus 4.6 and
 * later, Sonnet 4.6 and later, and the 5.x families.
 */
export function rejectsPrefill(model: string | undefined): boolean {
  if (!model) return false;
  const m = /claude-(opus|sonnet|haiku|fable|mythos)-(\d+)(?:-(\d+))?/.exec(model);
  if (!m) return /fable|mythos/.test(model);
  const family = m[1] as string;
  const major = Number(m[2]);
  const minor = m[3] !== undefined && m[3].length <= 2 ? Number(m[3]) : 0;
  if (family === 'fable' || family === 'mythos') return true;
  if (major >= 5) return true;
  return major === 4 && minor >= 6 && family !== 'haiku';
}

/** True when a model id names a Claude model (directly, or as a Bedrock/Vertex id holds it). */
export function isClaudeModel(model: string): boolean {
  return /claude|fable|mythos/i.test(model);
}

/**
 * The note of how A12 was judged: by the Claude model the body names, or — for a model that is
 * not a Claude model (another API's body judged as Anthropic) or none — as for the older Claude
 * models, which take a prefill. It never says a non-Claude model accepts a prefill.
 */
export function prefillNote(model: string | undefined, prefill: 'rejected' | 'allowed'): string {
  if (model === undefined)
    return 'A trailing assistant message is accepted as prefill for model (unknown: older models assumed) (A12).';
  if (!isClaudeModel(model))
    return `A trailing assistant message: ${model} is not a Claude model, so A12 was judged as for the older Claude models, which take it as a prefill.`;
  return `A trailing assistant message is ${prefill === 'rejected' ? 'rejected' : 'accepted as prefill'} for model ${model} (A12).`;
}

/** A12: a trailing assistant message (prefill), model-dependent. */
export function checkTrailing(
  t: Transcript,
  T: Turns,
  opts: ValidateOptions,
  push: Push,
  notes: string[],
): void {
  const lastN = T.count - 1;
  if (lastN < 0 || turnRole(T, lastN) !== 'assistant') return;
  const lastItems = turnItems(T, lastN);
  if (lastItems.some((it) => isClientCall(it.block))) return; // reported as A2 (trailing_tool_use)
  if (isSessionLog(t)) {
    notes.push(sessionLogNote('A12'));
    return;
  }
  const src = turnHead(T, lastN);
  const base = {
    rule: 'trailing_assistant' as const,
    code: 'A12',
    messageIndex: src.rawIndex,
    index: src.index,
    blockIndex: null,
    ids: [],
    providerPath: 'messages',
    confidence: 'V' as const,
  };
  if (t.settings.toolChoiceForced || t.settings.outputFormat) {
    const what = t.settings.toolChoiceForced ? 'When using tools' : 'When using output format';
    push({
      ...base,
      message: `Your API request included an \`assistant\` message in the final position, which would pre-fill the \`assistant\` response. ${what}, pre-filling the \`assistant\` response is not supported.`,
      title: 'Prefill with forced tools or output format',
      why: 'A trailing assistant message asks the model to continue it, which forced tool use and structured output do not allow.',
    });
    return;
  }
  const prefill = opts.prefill ?? (rejectsPrefill(t.settings.model) ? 'rejected' : 'allowed');
  if (opts.prefill === undefined) notes.push(prefillNote(t.settings.model, prefill));
  if (prefill === 'rejected') {
    push({
      ...base,
      providerPath: null,
      message: 'Prefilling assistant messages is not supported for this model.',
      title: 'Trailing assistant message (prefill) on a model that rejects it',
      why: 'Newer Claude models refuse a request whose last message is from the assistant.',
    });
    return;
  }
  const lastText = [...lastItems].reverse().find((it) => it.block.type === 'text');
  if (lastText && lastText.block.type === 'text' && /\s$/.test(lastText.block.text)) {
    push({
      ...base,
      message: 'messages: final assistant content cannot end with trailing whitespace',
      title: 'Prefill ends with whitespace',
      why: 'A prefilled assistant message must not end in whitespace.',
    });
  }
}
