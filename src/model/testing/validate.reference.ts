/**
 * Slow, obviously correct reference validators for the pairing rules, written straight from the
 * rule catalogue (A1, A2, A5, A6, A6b and O1, O2, O3, O6) with no shared code with the real ones.
 * Used only by property tests: the real validators must report the same pairing violations.
 */
import type { Block, Message } from '../types.ts';
import type { Violation } from '../validate/types.ts';

export interface RefViolation {
  rule: 'orphan' | 'missing' | 'duplicate_id' | 'duplicate_result' | 'wrong_id';
  messageIndex: number;
  ids: string[];
}

const isCall = (b: Block) => b.type === 'tool_use' && !b.server;
const isResult = (b: Block) => b.type === 'tool_result' && b.server === undefined;
const callId = (b: Block) => (b.type === 'tool_use' ? b.id : null);
const resultId = (b: Block) => (b.type === 'tool_result' ? b.toolUseId : null);

/** Anthropic: merge same-role neighbours, then A1 for each user message, A2/A6 for each assistant. */
export function referenceAnthropic(messages: readonly Message[]): RefViolation[] {
  type Turn = { role: string; blocks: { b: Block; m: Message }[] };
  const turns: Turn[] = [];
  for (const m of messages) {
    if (m.role === 'system' || m.role === 'developer') continue;
    const role = m.role === 'assistant' ? 'assistant' : 'user';
    const blocks = m.blocks.map((b) => ({ b, m }));
    const last = turns.at(-1);
    if (last && last.role === role) last.blocks.push(...blocks);
    else turns.push({ role, blocks });
  }
  const out: RefViolation[] = [];
  const seen: string[] = [];
  turns.forEach((turn, n) => {
    if (turn.role === 'user') {
      const prev = turns[n - 1];
      const prevIds =
        prev && prev.role === 'assistant'
          ? prev.blocks.filter((x) => isCall(x.b)).map((x) => callId(x.b))
          : [];
      const answered: string[] = [];
      let duplicate = false;
      for (const x of turn.blocks) {
        const id = resultId(x.b);
        if (!isResult(x.b) || id === null) continue;
        if (!prevIds.includes(id)) {
          out.push({ rule: 'orphan', messageIndex: x.m.rawIndex, ids: [id] });
          continue;
        }
        // A6b: the first id answered twice in the turn, reported once.
        if (!duplicate && answered.includes(id)) {
          duplicate = true;
          out.push({ rule: 'duplicate_result', messageIndex: x.m.rawIndex, ids: [id] });
        }
        answered.push(id);
      }
      return;
    }
    const calls = turn.blocks.filter((x) => isCall(x.b) && callId(x.b) !== null);
    for (const x of calls) {
      const id = callId(x.b) as string;
      if (seen.includes(id))
        out.push({ rule: 'duplicate_id', messageIndex: x.m.rawIndex, ids: [id] });
      seen.push(id);
    }
    const next = turns[n + 1];
    const leading: string[] = [];
    if (next && next.role === 'user') {
      for (const x of next.blocks) {
        if (!isResult(x.b)) break;
        const id = resultId(x.b);
        if (id !== null) leading.push(id);
      }
    }
    // A5: a call with anything but another client call after it in the turn is not followed
    // "immediately" by its result, answered or not.
    const followed = (x: { b: Block }) =>
      turn.blocks
        .slice(turn.blocks.indexOf(x as { b: Block; m: Message }) + 1)
        .some((y) => !isCall(y.b));
    const missing = calls.filter(
      (x) => !leading.includes(callId(x.b) as string) || (next !== undefined && followed(x)),
    );
    if (missing.length > 0)
      out.push({
        rule: 'missing',
        messageIndex: (missing[0] as { m: Message }).m.rawIndex,
        ids: missing.map((x) => callId(x.b) as string),
      });
  });
  return out;
}

/** OpenAI Chat: each run of `tool` messages must follow an assistant with tool_calls and cover them. */
export function referenceOpenAIChat(messages: readonly Message[]): RefViolation[] {
  // Expand user messages carrying results into tool messages, as Chat Completions requires.
  type Item = { role: string; m: Message; blocks: Block[] };
  const items: Item[] = [];
  for (const m of messages) {
    if (m.role === 'user' && m.blocks.some(isResult)) {
      for (const b of m.blocks.filter(isResult)) items.push({ role: 'tool', m, blocks: [b] });
      const rest = m.blocks.filter((b) => !isResult(b));
      if (rest.length > 0) items.push({ role: 'user', m, blocks: rest });
    } else items.push({ role: m.role, m, blocks: m.blocks });
  }
  const out: RefViolation[] = [];
  let open: { ids: string[]; answered: string[]; m: Message } | null = null;
  const close = () => {
    if (open) {
      const missing = open.ids.filter((i) => !open!.answered.includes(i));
      if (missing.length > 0) {
        const first = open.m;
        out.push({ rule: 'missing', messageIndex: first.rawIndex, ids: missing });
      }
    }
    open = null;
  };
  let prevRole = '';
  // O6: ids answered by a tool message in a run, anywhere before.
  const answeredAnywhere: string[] = [];
  for (const it of items) {
    if (it.role === 'tool') {
      const id = resultId(it.blocks[0] as Block);
      if (open === null || (prevRole !== 'tool' && prevRole !== 'assistant-calls'))
        out.push({ rule: 'orphan', messageIndex: it.m.rawIndex, ids: id ? [id] : [] });
      else if (id !== null && answeredAnywhere.includes(id)) {
        out.push({ rule: 'duplicate_result', messageIndex: it.m.rawIndex, ids: [id] });
        (open as { answered: string[] }).answered.push(id); // a second answer still answers
      } else if (id !== null && !(open as { ids: string[] }).ids.includes(id))
        out.push({ rule: 'wrong_id', messageIndex: it.m.rawIndex, ids: [id] });
      else if (id !== null && !(open as { answered: string[] }).answered.includes(id)) {
        (open as { answered: string[] }).answered.push(id);
        answeredAnywhere.push(id);
      }
      prevRole = 'tool';
      continue;
    }
    close();
    const ids =
      it.role === 'assistant'
        ? it.blocks
            .filter(isCall)
            .map(callId)
            .filter((x): x is string => x !== null)
        : [];
    if (ids.length > 0) {
      open = { ids, answered: [], m: it.m };
      prevRole = 'assistant-calls';
    } else prevRole = it.role;
  }
  close();
  return out;
}

/** The pairing part of a real validation (errors only), in the reference's vocabulary. */
export function pairingOf(vs: Violation[]): RefViolation[] {
  const map: Partial<Record<Violation['rule'], RefViolation['rule']>> = {
    orphan_tool_result: 'orphan',
    unanswered_tool_use: 'missing',
    partial_answer: 'missing',
    trailing_tool_use: 'missing',
    tool_result_not_first: 'missing',
    content_after_tool_use: 'missing',
    duplicate_tool_use_id: 'duplicate_id',
    duplicate_tool_result: 'duplicate_result',
    tool_result_wrong_id: 'wrong_id',
  };
  return vs.flatMap((v) => {
    const rule = map[v.rule];
    if (!rule) return [];
    if (v.severity === 'warning') return [];
    return [{ rule, messageIndex: v.messageIndex, ids: v.ids }];
  });
}
