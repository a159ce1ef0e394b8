/**
 * Slow, obviously correct reference for Mistral's structural rules (M1–M3, M5), written straight from
 * the rule catalogue (mistral-common's validator) with no shared code with the real validator.
 * Used only by property tests (reference.chat.test.ts), on Chat Completions transcripts.
 */
import type { Message } from '../types.ts';

export interface ChatFinding {
  code: string;
  /** Raw index of the message holding the cause. */
  messageIndex: number;
}

type Role = 'system' | 'user' | 'assistant' | 'tool';

const ALLOWED_AFTER: Record<Role, readonly Role[]> = {
  system: ['user', 'assistant', 'system'],
  user: ['assistant', 'system', 'user'],
  assistant: ['assistant', 'user', 'tool'],
  tool: ['assistant', 'tool'],
};

function role(m: Message): Role {
  if (m.role === 'developer') return 'system';
  return m.role as Role;
}

function calls(m: Message): number {
  return m.blocks.filter((b) => b.type === 'tool_use' && b.server !== true).length;
}

function prefixed(m: Message): boolean {
  const raw = m.raw as { prefix?: unknown } | null;
  return typeof raw === 'object' && raw !== null && raw.prefix === true;
}

/**
 * Mistral: M5 (a request of one message that is not user or system; a lone message is not
 * checked for M1), M1 (the last message of two or more is an assistant message without
 * `prefix`; a trailing system message passes), M2 (a role that may not follow the one before it), M3 (the tool messages after an
 * assistant message with calls, up to the next assistant message or the end, are not as many as
 * its calls; named at that assistant message when they are fewer, else at the first tool message
 * past its calls). The first message is left out of M3: neither a tool message there nor the calls
 * of an assistant message there are counted. In the order mistral-common meets them: M5 or M1,
 * then M2s, then M3s.
 */
export function referenceMistral(messages: readonly Message[]): ChatFinding[] {
  const out: ChatFinding[] = [];
  const last = messages[messages.length - 1];
  if (last && messages.length === 1) {
    if (!['user', 'system'].includes(role(last)))
      out.push({ code: 'M5', messageIndex: last.rawIndex });
  } else if (last && role(last) === 'assistant' && !prefixed(last))
    out.push({ code: 'M1', messageIndex: last.rawIndex });
  for (let i = 1; i < messages.length; i++) {
    const prev = role(messages[i - 1] as Message);
    const cur = messages[i] as Message;
    if (!ALLOWED_AFTER[prev].includes(role(cur)))
      out.push({ code: 'M2', messageIndex: cur.rawIndex });
  }
  // Split the messages after the first at assistant messages: each segment is an assistant
  // message and the messages after it (the first segment has no assistant message).
  let owner: Message | null = null;
  let tools: Message[] = [];
  const close = () => {
    const expected = owner ? calls(owner) : 0;
    if (tools.length === expected) return;
    const at = tools.length < expected ? owner : tools[expected];
    out.push({ code: 'M3', messageIndex: (at as Message).rawIndex });
  };
  for (const m of messages.slice(1)) {
    if (role(m) === 'assistant') {
      close();
      owner = calls(m) > 0 ? m : null;
      tools = [];
    } else if (role(m) === 'tool') tools.push(m);
  }
  close();
  return out;
}
