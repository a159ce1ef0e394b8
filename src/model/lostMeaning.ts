/**
 * Lost meaning (issue 8): a well-formed request can still have lost what the model needed. After
 * an eviction (the kept and evicted message index lists of an `EvictionResult`), mark
 *
 * - `repeated_call`: a kept tool_use that repeats (same tool name, same input) an earlier call
 *   whose tool_result was evicted — the model did not have that answer any more and asked again;
 * - `evicted_reference`: an evicted user message whose distinctive tokens (file paths, quoted or
 *   backticked text, identifiers, ids with digits, URLs, long numbers) still occur in later kept
 *   messages — those messages refer to an instruction the model no longer sees;
 * - `cleared_reference`: a tool result whose content a policy cleared to a placeholder or removed
 *   (clear-tool-results, ai-sdk-prune) while later kept messages still quote its distinctive
 *   tokens — they cite an answer the model no longer has.
 *
 * A simple, explained heuristic; `LOST_MEANING_LIMITS` says what it cannot see. O(total text).
 */
import { type MessageLabels, messageLabels } from './messageLabels.ts';
import { pairToolCalls } from './pairing.ts';
import type { Block, Message, Transcript } from './types.ts';

export interface RepeatedCallMark {
  kind: 'repeated_call';
  /** The kept message (ours) holding the repeating call, and the call's block index. */
  messageIndex: number;
  /** That message's row label (`#3`, `#3.2`: `messageLabels`), as the timeline shows it. */
  label: string;
  blockIndex: number;
  id: string | null;
  name: string;
  /** The earlier call it repeats (message, block), and the message that held its evicted result. */
  earlier: { messageIndex: number; blockIndex: number; id: string | null };
  evictedResultIndex: number;
  /** Names the messages by their row labels (`#3`, `#3.2`). */
  note: string;
}

export interface EvictedReferenceMark {
  kind: 'evicted_reference';
  /** The evicted user message (ours). */
  messageIndex: number;
  /** Its row label (`#3`, `#3.2`: `messageLabels`), as the timeline shows it. */
  label: string;
  /** Kept messages after it that share its distinctive tokens, ascending. */
  referencedBy: number[];
  /** The shared tokens (at most 8), in the order the user wrote them. */
  tokens: string[];
  note: string;
}

export interface ClearedReferenceMark {
  kind: 'cleared_reference';
  /** The message (ours) holding the cleared result, and the result's block index. */
  messageIndex: number;
  /** Its row label (`#3`, `#3.2`: `messageLabels`), as the timeline shows it. */
  label: string;
  blockIndex: number;
  /** Kept messages after it that quote its distinctive tokens, ascending. */
  referencedBy: number[];
  /** The quoted tokens (at most 8), in the order the result has them. */
  tokens: string[];
  note: string;
}

export type LostMeaningMark = RepeatedCallMark | EvictedReferenceMark | ClearedReferenceMark;

export interface LostMeaning {
  marks: LostMeaningMark[];
  /** What the heuristic cannot see, to show next to the marks. */
  limits: string[];
}

/** What this heuristic cannot see (shown with the marks). */
export const LOST_MEANING_LIMITS: string[] = [
  'References are matched on literal distinctive tokens only: file paths, `backticked` or "quoted" text, identifiers such as camelCase or snake_case, ids with digits (INV-7, #101), URLs and numbers of four or more digits. Plain words are ignored, and so is a quoted word without a capital, digit or underscore.',
  'Paraphrase and pronouns ("do the same for the other file"), instructions that leave no shared token ("keep it short", "do not touch the tests"), images and documents are invisible to it.',
  'A repeated call is matched on the same tool name and identical input; a call with slightly different input (another offset, a reformatted path) is not matched.',
  'It does not know what a summary message carried over, nor what the system prompt restates (tokens that occur in the system prompt are not counted as lost).',
  'A later message that quotes a cleared result may itself be a cleared result: it is still counted as quoting it.',
];

/** Canonical JSON (sorted keys) so that `{a,b}` and `{b,a}` inputs compare equal. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

const CHUNK_SPLIT = /[^\w./:#@-]+/u;
const EDGE = /^[.:,#@-]+|[.:,@-]+$/g;

/** Split text into chunks the way both sides are compared (paths and ids stay whole). */
function chunks(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split(CHUNK_SPLIT)) {
    const c =
      raw.startsWith('#') && /^#\d/.test(raw) ? raw.replace(/[.:,]+$/, '') : raw.replace(EDGE, '');
    if (c.length > 0) out.push(c);
  }
  return out;
}

const PATH = /^\/?(?:[\w.-]+\/)+[\w.-]+$|^[\w-]+\.[A-Za-z][A-Za-z0-9]{0,5}$/;
const URL = /^[a-z]+:\/\//;
const CAMEL = /^[a-z]+[A-Z]\w*$|^[A-Z][a-z0-9]+[A-Z]\w*$/;
const SNAKE = /^[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+$/;
const WITH_DIGIT = /^[A-Za-z]+[-_]?\d+[\w-]*$/;
const NUMBER = /^\d{4,}$/;
const HASH_ID = /^#\d+$/;

/** True for a chunk distinctive enough to count as a reference. */
function distinctive(c: string): boolean {
  if (c.length < 3 || c.length > 200) return c.length >= 2 && HASH_ID.test(c);
  return (
    URL.test(c) ||
    PATH.test(c) ||
    CAMEL.test(c) ||
    SNAKE.test(c) ||
    WITH_DIGIT.test(c) ||
    NUMBER.test(c) ||
    HASH_ID.test(c)
  );
}

/**
 * Distinctive tokens of a text: every distinctive chunk, plus a `backticked` or "quoted" single
 * word (the user marked it as a name), in order of first appearance.
 * @param text any text
 * @returns unique tokens
 */
export function distinctiveTokens(text: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  const add = (c: string) => {
    if (!seen.has(c)) {
      seen.add(c);
      out.push(c);
    }
  };
  const quoted = new Set<string>();
  for (const m of text.matchAll(/`([^`\n]{2,80})`|"([^"\n]{3,80})"|“([^”\n]{3,80})”/g)) {
    // A quoted single name counts; a quoted phrase counts only through its distinctive chunks.
    const parts = chunks(m[1] ?? m[2] ?? m[3] ?? '');
    const only = parts[0];
    if (parts.length === 1 && only !== undefined && only.length >= 4 && /[A-Z0-9_]/.test(only))
      quoted.add(only);
  }
  for (const c of chunks(text)) if (distinctive(c) || quoted.has(c)) add(c);
  return out;
}

/** The text a model reads in a block (tool names and inputs included), for reference matching. */
function blockText(b: Block): string {
  switch (b.type) {
    case 'text':
      return b.text;
    case 'thinking':
      return b.thinking;
    case 'tool_use':
      return `${b.name} ${typeof b.input === 'string' ? b.input : canonicalJson(b.input)}`;
    case 'tool_result':
      return b.content.map(blockText).join('\n');
    default:
      return '';
  }
}

function messageText(m: Message): string {
  return m.blocks.map(blockText).join('\n');
}

/**
 * What `findLostMeaning` needs of a transcript whatever the cut: the calls with their
 * tool+input keys, every message's chunks as an inverted index, and each user message's
 * distinctive tokens. Built once per transcript (O(total text)) and cached by reference, so a
 * slider step only walks the calls and the evicted user messages.
 */
interface LostMeaningPrep {
  calls: {
    message: number;
    block: number;
    id: string | null;
    name: string;
    key: string;
    result: number | null;
  }[];
  /** chunk → messages (ascending) whose text contains it. */
  index: Map<string, number[]>;
  /** Per message: for user messages with text, their distinctive tokens; null otherwise. */
  userTokens: (string[] | null)[];
}

const PREP = new WeakMap<Transcript, LostMeaningPrep>();

function prepare(t: Transcript): LostMeaningPrep {
  const cached = PREP.get(t);
  if (cached) return cached;
  const pairs = pairToolCalls(t.messages);
  const calls: LostMeaningPrep['calls'] = [];
  for (const p of pairs) {
    if (p.call === null || p.server || p.status === 'orphan' || p.status === 'duplicate_result')
      continue;
    const block = t.messages[p.call.message]?.blocks[p.call.block];
    if (!block || block.type !== 'tool_use') continue;
    calls.push({
      message: p.call.message,
      block: p.call.block,
      id: block.id,
      name: block.name,
      key: `${block.name}\u0000${canonicalJson(block.input)}`,
      result: p.result ? p.result.message : null,
    });
  }
  calls.sort((a, b) => a.message - b.message || a.block - b.block);
  const index = new Map<string, number[]>();
  const userTokens: (string[] | null)[] = [];
  t.messages.forEach((m, i) => {
    const own = new Set(chunks(messageText(m)));
    for (const c of own) {
      const list = index.get(c);
      if (list) list.push(i);
      else index.set(c, [i]);
    }
    const userText =
      m.role === 'user'
        ? m.blocks
            .filter((b) => b.type === 'text')
            .map(blockText)
            .join('\n')
        : '';
    userTokens.push(userText.length > 0 ? distinctiveTokens(userText) : null);
  });
  const prep = { calls, index, userTokens };
  PREP.set(t, prep);
  return prep;
}

/**
 * Find lost meaning after an eviction.
 * @param t the transcript before eviction
 * @param kept message indices (positions in `t.messages`) kept by the policy
 * @param evicted message indices evicted by the policy; indices in neither list are ignored
 * @param cleared blocks whose content the policy cleared or removed (message ours, block
 *   position): their tool results are looked for in later kept messages
 * @returns marks in message order (repeated calls by the repeating call, evicted references by
 *   the evicted user message), each with the row labels of its messages (`#3`, `#3.2`: the notes
 *   name messages the way the timeline rows do), and the heuristic's limits. Never throws. The per-transcript
 *   work is cached, so calls for many cuts of one transcript cost O(calls + evicted messages).
 */
export function findLostMeaning(
  t: Transcript,
  kept: readonly number[],
  evicted: readonly number[],
  cleared: readonly { index: number; block: number }[] = [],
): LostMeaning {
  const keptSet = new Set(kept);
  const evictedSet = new Set(evicted);
  const marks: LostMeaningMark[] = [];
  const prep = prepare(t);
  const labels = messageLabels(t.messages);
  repeatedCalls(prep, keptSet, evictedSet, labels, marks);
  const systemTokens = evictedReferences(t, prep, kept, keptSet, evictedSet, labels, marks);
  clearedReferences(t, prep, cleared, keptSet, systemTokens, labels, marks);
  marks.sort(
    (a, b) =>
      a.messageIndex - b.messageIndex ||
      (a.kind === b.kind ? 0 : a.kind === 'evicted_reference' ? -1 : 1),
  );
  return { marks, limits: LOST_MEANING_LIMITS };
}

/**
 * Repeated calls: a kept call with the same tool and input as an earlier call whose result was
 * evicted (the model no longer has the answer and asks again).
 */
function repeatedCalls(
  prep: LostMeaningPrep,
  keptSet: ReadonlySet<number>,
  evictedSet: ReadonlySet<number>,
  labels: MessageLabels,
  marks: LostMeaningMark[],
): void {
  const evictedAnswers = new Map<
    string,
    { messageIndex: number; blockIndex: number; id: string | null; result: number }
  >();
  for (const c of prep.calls) {
    const prior = evictedAnswers.get(c.key);
    if (prior && keptSet.has(c.message)) {
      const earlier = labels.of(prior.messageIndex);
      const resultLabel = labels.of(prior.result);
      marks.push({
        kind: 'repeated_call',
        messageIndex: c.message,
        label: labels.of(c.message),
        blockIndex: c.block,
        id: c.id,
        name: c.name,
        earlier: { messageIndex: prior.messageIndex, blockIndex: prior.blockIndex, id: prior.id },
        evictedResultIndex: prior.result,
        note: `Repeats ${c.name} with the same input as the call in message ${earlier}, whose result (message ${resultLabel}) was evicted: the model no longer has that answer and asks again.`,
      });
    }
    if (c.result !== null && evictedSet.has(c.result))
      evictedAnswers.set(c.key, {
        messageIndex: c.message,
        blockIndex: c.block,
        id: c.id,
        result: c.result,
      });
  }
}

/**
 * Evicted user messages still referred to by later kept messages. System text only counts as
 * system text when it is sent: the top-level prompt, or a kept system/developer message.
 */
function evictedReferences(
  t: Transcript,
  prep: LostMeaningPrep,
  kept: readonly number[],
  keptSet: ReadonlySet<number>,
  evictedSet: ReadonlySet<number>,
  labels: MessageLabels,
  marks: LostMeaningMark[],
): Set<string> {
  const systemTokens = new Set<string>();
  for (const s of t.system) for (const c of chunks(s.text)) systemTokens.add(c);
  for (const i of kept) {
    const m = t.messages[i];
    if (m && (m.role === 'system' || m.role === 'developer'))
      for (const c of chunks(messageText(m))) systemTokens.add(c);
  }
  for (const i of [...evictedSet].sort((a, b) => a - b)) {
    const m = t.messages[i];
    const userToks = prep.userTokens[i];
    if (!m || m.role !== 'user' || !userToks) continue;
    const tokens: string[] = [];
    const refs = new Set<number>();
    for (const tok of userToks) {
      if (systemTokens.has(tok)) continue;
      const later = (prep.index.get(tok) ?? []).filter((k) => k > i && keptSet.has(k));
      if (later.length === 0) continue;
      tokens.push(tok);
      for (const k of later) refs.add(k);
    }
    if (tokens.length === 0) continue;
    const referencedBy = [...refs].sort((a, b) => a - b);
    const shown = tokens.slice(0, 8);
    marks.push({
      kind: 'evicted_reference',
      messageIndex: i,
      label: labels.of(i),
      referencedBy,
      tokens: shown,
      note: `This user message was evicted, but ${referencedBy.length} kept message${referencedBy.length === 1 ? '' : 's'} after it still mention${referencedBy.length === 1 ? 's' : ''} ${shown.map((s) => `"${s}"`).join(', ')}${tokens.length > shown.length ? ', …' : ''}: the model sees the references without the instruction that explained them.`,
    });
  }
  return systemTokens;
}

/**
 * Cleared results still quoted: a tool result whose content was cleared or removed, whose
 * distinctive tokens occur in later kept messages (not counting the system prompt's tokens).
 */
function clearedReferences(
  t: Transcript,
  prep: LostMeaningPrep,
  cleared: readonly { index: number; block: number }[],
  keptSet: ReadonlySet<number>,
  systemTokens: ReadonlySet<string>,
  labels: MessageLabels,
  marks: LostMeaningMark[],
): void {
  for (const c of cleared) {
    const b = t.messages[c.index]?.blocks[c.block];
    if (!b || b.type !== 'tool_result') continue;
    const tokens: string[] = [];
    const refs = new Set<number>();
    for (const tok of distinctiveTokens(blockText(b))) {
      if (systemTokens.has(tok)) continue;
      const later = (prep.index.get(tok) ?? []).filter((k) => k > c.index && keptSet.has(k));
      if (later.length === 0) continue;
      tokens.push(tok);
      for (const k of later) refs.add(k);
    }
    if (tokens.length === 0) continue;
    const referencedBy = [...refs].sort((a, b) => a - b);
    const shown = tokens.slice(0, 8);
    marks.push({
      kind: 'cleared_reference',
      messageIndex: c.index,
      label: labels.of(c.index),
      blockIndex: c.block,
      referencedBy,
      tokens: shown,
      note: `This tool result was cleared, but ${referencedBy.length} kept message${referencedBy.length === 1 ? '' : 's'} after it still quote${referencedBy.length === 1 ? 's' : ''} ${shown.map((s) => `"${s}"`).join(', ')}${tokens.length > shown.length ? ', …' : ''}: the model sees the quotes without the answer they came from.`,
    });
  }
}
