/**
 * What the Vercel AI SDK refuses to send at all: it throws before any request leaves, so the
 * provider never answers. Read from `ai` 7.0.173 (`standardizePrompt`,
 * `convertToLanguageModelPrompt`) and from ai 6.0.333 (the dev dependency: ai 7 needs Node 22),
 * and checked in aiSdkRefusals.test.ts against ai 6 called with ai 7's defaults:
 *
 * - no message: `AI_InvalidPromptError` "Invalid prompt: messages must not be empty" (both);
 * - a system message inside `messages`: the majors differ. ai 7 refuses it with
 *   `AI_InvalidPromptError` unless the call passes `allowSystemInMessages: true` (its migration
 *   guide: rejected by default; vercel/ai#15483); ai 6 sends it with a console warning, and
 *   refuses it only when the call passes `allowSystemInMessages: false` (ai 6.0.333,
 *   `standardizePrompt`). The note says which does what;
 * - a client tool call still unanswered when a user or system message comes, or at the end
 *   (consecutive tool messages count as one): `AI_MissingToolResultsError` (both). A call
 *   answered after a later assistant message is accepted by the SDK (the provider may still
 *   refuse it).
 */
import type { Message } from '../../types.ts';

const SOURCE = '(ai 6.0.333 and 7.0.173, before any request is sent)';

/** ai 7's refusal of a system message inside `messages` (ai 6 names its `system` option instead). */
const SYSTEM_REFUSAL =
  'Invalid prompt: System messages are not allowed in the prompt or messages fields. Use the instructions option instead.';

/** The SDK's `MissingToolResultsError` text for these call ids. */
export function missingToolResultsText(ids: readonly string[]): string {
  const many = ids.length > 1;
  return `Tool result${many ? 's are' : ' is'} missing for tool call${many ? 's' : ''} ${ids.join(', ')}.`;
}

/** Ids of the client tool calls still open when a user or system message comes, or at the end. */
function openCalls(messages: readonly Message[]): string[] {
  const open = new Set<string>();
  for (const m of messages) {
    if (m.role === 'assistant') {
      for (const b of m.blocks)
        if (b.type === 'tool_use' && b.server !== true) open.add(b.id ?? '');
    } else if (m.role === 'tool') {
      for (const b of m.blocks) if (b.type === 'tool_result') open.delete(b.toolUseId ?? '');
    } else if (open.size > 0) break;
  }
  return [...open];
}

/**
 * What the AI SDK refuses in these messages (its input, as parsed), as sentences for the
 * validation's notes; empty when it sends the request.
 */
export function aiSdkRefusals(messages: readonly Message[]): string[] {
  if (messages.length === 0)
    return [
      `The AI SDK refuses this prompt ${SOURCE}: AI_InvalidPromptError "Invalid prompt: messages must not be empty".`,
    ];
  const out: string[] = [];
  if (messages.some((m) => m.role === 'system'))
    out.push(
      `A system message inside \`messages\`: ai 7 refuses it before any request is sent, AI_InvalidPromptError "${SYSTEM_REFUSAL}", unless the call sets \`allowSystemInMessages: true\` (ai 7.0.173; its migration guide: rejected by default). ai 6 (6.0.333) sends it with a console warning, and refuses it only when the call sets \`allowSystemInMessages: false\`. Pass it as \`instructions\` (ai 7) or \`system\` (ai 6) instead.`,
    );
  const ids = openCalls(messages);
  if (ids.length > 0)
    out.push(
      `The AI SDK refuses this prompt ${SOURCE}: AI_MissingToolResultsError "${missingToolResultsText(ids)}" The provider's rule for the same fault is shown.`,
    );
  return out;
}
