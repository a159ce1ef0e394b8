/**
 * Slow, obviously correct references for Bedrock Converse (B1–B4, B8, B9, B11, B12) and Gemini (G1–G3), written
 * straight from the rule catalogue with no shared code with the real validators. Used only by
 * property tests (reference.turns.test.ts).
 */
import type { Block, Message } from '../types.ts';

export interface TurnFinding {
  code: string;
  /** Raw index of the message holding the cause. */
  messageIndex: number;
}

interface Turn {
  role: 'user' | 'assistant';
  blocks: { b: Block; m: Message }[];
  first: Message;
}

/** Converse / Gemini turns: system and developer leave, the rest by role, merged unless native. */
function turns(messages: readonly Message[], merge: boolean): Turn[] {
  const out: Turn[] = [];
  for (const m of messages) {
    if (m.role === 'system' || m.role === 'developer') continue;
    const role = m.role === 'assistant' ? 'assistant' : 'user';
    const blocks = m.blocks.map((b) => ({ b, m }));
    const last = out[out.length - 1];
    if (merge && last && last.role === role) last.blocks.push(...blocks);
    else out.push({ role, blocks, first: m });
  }
  return out;
}

const isCall = (b: Block) => b.type === 'tool_use' && b.server !== true;
const isResult = (b: Block) => b.type === 'tool_result' && b.server === undefined;
const idOf = (b: Block) =>
  b.type === 'tool_use' ? b.id : b.type === 'tool_result' ? b.toolUseId : null;

/** The block of a turn's calls (or results) that first repeats an id, or undefined. */
function firstRepeat(turn: Turn, pick: (b: Block) => boolean): { m: Message } | undefined {
  const list = turn.blocks.filter((x) => pick(x.b) && idOf(x.b) !== null);
  return list.find((x, i) => list.slice(0, i).some((y) => idOf(y.b) === idOf(x.b)));
}

/**
 * Bedrock: B3 (first not user), B4 (same role twice), B8/B9 (an id twice among a message's calls
 * or results), B1 (more results than calls), B2 (missing).
 */
export function referenceBedrock(messages: readonly Message[], native: boolean): TurnFinding[] {
  const ts = turns(messages, !native);
  const out: TurnFinding[] = [];
  ts.forEach((turn, n) => {
    const prev = ts[n - 1];
    out.push(...blankFindings(turn, n === ts.length - 1));
    if (n === 0 && turn.role !== 'user')
      out.push({ code: 'B3', messageIndex: turn.first.rawIndex });
    if (prev && prev.role === turn.role)
      out.push({ code: 'B4', messageIndex: turn.first.rawIndex });
    const repeat = firstRepeat(turn, turn.role === 'user' ? isResult : isCall);
    if (repeat)
      out.push({ code: turn.role === 'user' ? 'B9' : 'B8', messageIndex: repeat.m.rawIndex });
    if (turn.role !== 'user') return;
    const results = turn.blocks.filter((x) => isResult(x.b));
    const calls =
      prev && prev.role === 'assistant'
        ? prev.blocks.filter((x) => isCall(x.b) && idOf(x.b) !== null)
        : [];
    if (results.length > calls.length) {
      const callIds = calls.map((x) => idOf(x.b));
      const stray = results.find((x) => !callIds.includes(idOf(x.b))) ?? results[calls.length];
      out.push({ code: 'B1', messageIndex: (stray as { m: Message }).m.rawIndex });
    }
    const answered = results.map((x) => idOf(x.b));
    const missing = calls.find((x) => !answered.includes(idOf(x.b)));
    if (missing) out.push({ code: 'B2', messageIndex: missing.m.rawIndex });
  });
  return out;
}

/**
 * B11 (no blocks, or one message sent as the empty string; a final assistant message may be
 * empty) or else B12 for each text block that is empty or only whitespace.
 */
function blankFindings(turn: Turn, last: boolean): TurnFinding[] {
  const first = turn.first;
  const emptyString =
    first.stringContent === true &&
    turn.blocks.every((x) => x.m === first && x.b.type === 'text' && x.b.text === '');
  if (turn.blocks.length === 0 || emptyString)
    return last && turn.role === 'assistant' ? [] : [{ code: 'B11', messageIndex: first.rawIndex }];
  return turn.blocks
    .filter((x) => x.b.type === 'text' && x.b.text.trim() === '')
    .map((x) => ({ code: 'B12', messageIndex: x.m.rawIndex }));
}

/** Gemini: G1 (responses not right after calls), G2 (calls not after a user turn), G3 (counts). */
export function referenceGemini(messages: readonly Message[], native: boolean): TurnFinding[] {
  const ts = turns(messages, !native);
  const out: { f: TurnFinding; n: number }[] = [];
  ts.forEach((turn, n) => {
    const prev = ts[n - 1];
    const responses = turn.blocks.filter((x) => isResult(x.b));
    const calls = turn.role === 'assistant' ? turn.blocks.filter((x) => isCall(x.b)) : [];
    const prevCalls =
      prev && prev.role === 'assistant' ? prev.blocks.filter((x) => isCall(x.b)) : [];
    if (responses.length > 0 && prevCalls.length === 0)
      out.push({ f: { code: 'G1', messageIndex: (responses[0] as { m: Message }).m.rawIndex }, n });
    if (calls.length > 0 && !(prev && prev.role === 'user'))
      out.push({ f: { code: 'G2', messageIndex: (calls[0] as { m: Message }).m.rawIndex }, n });
    const next = ts[n + 1];
    if (calls.length === 0 || !next) return;
    const answers = next.role === 'user' ? next.blocks.filter((x) => isResult(x.b)) : [];
    if (answers.length !== calls.length) out.push({ f: { code: 'G3', messageIndex: -1 }, n });
  });
  return out.map((x) => x.f);
}
