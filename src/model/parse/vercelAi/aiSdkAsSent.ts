/**
 * What the Vercel AI SDK actually sends for a `ModelMessage[]` (or a `UIMessage[]` after
 * `convertToModelMessages`): the request is judged as sent, not as stored. Observed with `ai`
 * 6.0.326, `@ai-sdk/anthropic` 3.0.140 and `@ai-sdk/openai` 3.0.141 through a stub fetch
 * (`convertToLanguageModelPrompt` and the providers' prompt converters):
 *
 * - empty text parts are removed from user and assistant messages;
 * - a `tool` message left with no part (`pruneMessages({emptyMessages: 'keep'})`) is dropped;
 *   an empty user or assistant message is sent as it is (an empty assistant message becomes
 *   `content: []` for Anthropic: A10, and `content: ""` for OpenAI, never null: no O11; seen
 *   with `ai` 7.0.173 and `@ai-sdk/openai` 4.0.118);
 * - in each assistant message the `tool_use` blocks are moved to the end of their run between
 *   thinking blocks (`moveToolUseBlocksToEnd` in `@ai-sdk/anthropic`), so text after a tool call
 *   does not raise A5.
 *
 * What the SDK refuses to send at all (an unanswered tool call, no message, a system message in
 * `messages`) is in aiSdkRefusals.ts: a note on the validation, beside the provider's rule for
 * the same fault.
 */
import type { Block, Message } from '../../types.ts';

function isCall(b: Block): boolean {
  return b.type === 'tool_use' && b.server !== true;
}

/** `moveToolUseBlocksToEnd`: tool calls last within each run between thinking blocks. */
function callsLast(blocks: readonly Block[]): Block[] {
  const out: Block[] = [];
  let segment: Block[] = [];
  const flush = () => {
    for (const b of segment) if (!isCall(b)) out.push(b);
    for (const b of segment) if (isCall(b)) out.push(b);
    segment = [];
  };
  for (const b of blocks) {
    if (b.type === 'thinking' || b.type === 'redacted_thinking') {
      flush();
      out.push(b);
    } else segment.push(b);
  }
  flush();
  return out;
}

function sameOrder(a: readonly Block[], b: readonly Block[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * The messages the AI SDK sends for these (see the file comment). Messages keep their `index`,
 * `rawIndex` and `path`, so findings still point at the rows the user sees; a message that is
 * not changed is the same object, and the list itself is returned when nothing changes.
 */
export function aiSdkAsSent(messages: readonly Message[], chat: boolean): readonly Message[] {
  let out: Message[] | null = null;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i] as Message;
    let blocks: readonly Block[] = m.blocks;
    if (m.role === 'user' || m.role === 'assistant') {
      if (blocks.some((b) => b.type === 'text' && b.text === ''))
        blocks = blocks.filter((b) => b.type !== 'text' || b.text !== '');
      if (m.role === 'assistant') {
        const ordered = callsLast(blocks);
        if (!sameOrder(ordered, blocks)) blocks = ordered;
      }
    }
    const drop = m.role === 'tool' && blocks.length === 0;
    // An assistant message left with nothing is still sent: `content: []` to Anthropic, Gemini
    // and Bedrock (A10, G9, B11), `content: ""` to the Chat Completions family (never null: no
    // O11).
    const emptied = chat && m.role === 'assistant' && blocks.length === 0 && !m.stringContent;
    if (blocks === m.blocks && !drop && !emptied) {
      out?.push(m);
      continue;
    }
    out ??= messages.slice(0, i);
    if (emptied) out.push({ ...m, blocks: [{ type: 'text', text: '' }], stringContent: true });
    else if (!drop) out.push({ ...m, blocks: [...blocks] });
  }
  return out ?? messages;
}
