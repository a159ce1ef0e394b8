/**
 * The context window as a rule: a request whose input tokens exceed its model's window is
 * refused with a 400 (OpenAI O14, Anthropic A21, Gemini G12; catalogue/contextWindow.ts), judged
 * only when the count is certain. The window is the one of the endpoint's `windows` whose
 * `match` fits `settings.model` (an unknown model, or none named: not judged).
 *
 * Counts, cheapest first: (1) bounds from the text alone (tokenBounds.ts): an upper bound at or
 * under the window clears a normal request in one pass over block lengths; a lower bound over
 * it (letters ÷ 26) decides a huge body at once. (2) A count, when the caller has one
 * (`ValidateOptions.inputTokens`: the page's exact table, the CLI's BPE): exact (OpenAI) → over
 * when above the window; an estimate → over only beyond its margin (`ESTIMATE_MARGIN`), "may
 * exceed" (CW1, a warning) within it. (3) Neither decides: a note says the count will.
 */
import type { Message, ProviderId, Transcript } from '../types.ts';
import {
  alnumCount,
  MAX_ALNUM_PER_TOKEN,
  o200kTextBounds,
  textSize,
  type TextSize,
} from '../tokenBounds.ts';
import { countTokens, ESTIMATE_MARGIN, FAMILY_FACTORS, loadBpeCounter } from '../tokens.ts';
import { CLAUDE_PREFIX } from './bedrock.ts';
import {
  anthropicEnvelope,
  bedrockEnvelope,
  geminiEnvelope,
  openaiEnvelope,
  ruleSpec,
  ruleText,
} from './catalogue/index.ts';
import { ENDPOINTS } from './endpoints/index.ts';
import type { ContextWindow } from './endpoints/windows.ts';
import { isSessionLog } from './rules/request.ts';
import type { Validation, Violation } from './types.ts';

/** A request's input token count, as a caller that counted it knows it (`TokenTable`). */
export interface InputCount {
  /** System prompt + messages, framing and fixed estimates included (`TokenTable.total`). */
  tokens: number;
  /** True when exact for the model family (`TokenBasis.exact`: OpenAI models, a BPE, no hard cut). */
  exact: boolean;
  /** How it was counted (`TokenBasis.label`), named in a "may exceed" warning. */
  label: string;
}

/**
 * The window a request is judged against: the first of the endpoint's windows whose `match`
 * fits the model (never the list's default: an unknown model is not judged).
 */
export function modelWindow(
  provider: ProviderId,
  model: string | undefined,
): ContextWindow | undefined {
  if (model === undefined) return undefined;
  return ENDPOINTS[provider].windows.find((w) => w.match?.test(model) === true);
}

/** What the window check concluded. */
export type WindowJudgement =
  | { kind: 'under' }
  /** Over the window for certain: `tokens` is what the provider's text says (count or bound). */
  | { kind: 'over'; tokens: number; by: 'count' | 'bound' }
  /** May exceed: an estimate within its margin, or a count that includes guessed sizes. */
  | { kind: 'may'; tokens: number; why: string }
  /** Not decided without a count: the o200k-based input lies between lo and hi. */
  | { kind: 'open'; lo: number; hi: number };

/** The codes of the endpoints whose answer to an over-window request is captured. */
const OVER_CODE: Partial<Record<ProviderId, 'O14' | 'A21' | 'G12'>> = {
  'openai-chat': 'O14',
  'azure-openai': 'O14',
  anthropic: 'A21',
  'anthropic-vertex': 'A21',
  'anthropic-bedrock': 'A21',
  gemini: 'G12',
  'vertex-gemini': 'G12',
};

/**
 * Judge a request's input against a window.
 * @param t the transcript (system prompt and settings)
 * @param messages the request's messages
 * @param provider the endpoint (its tokenizer family)
 * @param w the window (`modelWindow`)
 * @param count the caller's count of these messages, if any
 * @param size `textSize(t, messages)` when the caller has it
 */
export function judgeWindow(
  t: Transcript,
  messages: readonly Message[],
  provider: ProviderId,
  w: ContextWindow,
  count?: InputCount,
  size: TextSize = textSize(t, messages),
): WindowJudgement {
  const family = ENDPOINTS[provider].tokenizer;
  const [fLo, fHi] = FAMILY_FACTORS[family];
  const exactFamily = family === 'openai';
  const margin = ESTIMATE_MARGIN[family] || (exactFamily ? 0 : ESTIMATE_MARGIN.other);
  // Bounds on what the count would be (o200k × the family's factor, framing, rounding); the
  // fixed estimates are guesses: in the upper bound, never in the lower.
  const [, textHi] = o200kTextBounds(size);
  const hi = textHi * fHi + size.parts / 2 + size.framing + size.fixed;
  if (hi * (1 + margin) <= w.tokens) return { kind: 'under' };
  if (count) return judgeCount(count, w, family === 'openai', margin, size);
  // The letters can decide only when the text could hold enough of them: if every code unit
  // were one, would the bound be over? If not, skip the pass over the characters.
  const most = (size.units / MAX_ALNUM_PER_TOKEN) * fLo + size.framing;
  if (most / (1 + margin) <= w.tokens)
    return { kind: 'open', lo: size.framing, hi: Math.floor(hi) };
  // Enough letters to be over is all it takes: the count stops there (a 100 MB body is decided
  // by its first few MB).
  const enough = Math.ceil(
    ((w.tokens * (1 + margin) - size.framing + size.parts / 2) / fLo + 1) * MAX_ALNUM_PER_TOKEN,
  );
  const [textLo] = o200kTextBounds(size, alnumCount(t, messages, enough));
  const lo = Math.max(0, textLo * fLo - size.parts / 2) + size.framing;
  // For an estimate, the provider's own count may be lower than ours by the margin.
  if (lo / (1 + margin) > w.tokens) return { kind: 'over', tokens: Math.ceil(lo), by: 'bound' };
  return { kind: 'open', lo: Math.ceil(lo), hi: Math.floor(hi) };
}

function judgeCount(
  count: InputCount,
  w: ContextWindow,
  exactFamily: boolean,
  margin: number,
  size: TextSize,
): WindowJudgement {
  const exact = exactFamily && count.exact;
  // An OpenAI count that is not exact (chars/4, hard cuts) is judged as an estimate.
  const m = exact ? 0 : margin || ESTIMATE_MARGIN.other;
  const counted = count.tokens - size.fixed; // what was counted, not guessed
  if (counted / (1 + m) > w.tokens) return { kind: 'over', tokens: count.tokens, by: 'count' };
  if (count.tokens * (1 + m) <= w.tokens) return { kind: 'under' };
  const why = exact
    ? `${count.tokens.toLocaleString('en-US')} tokens counted (${count.label}), of which ${size.fixed.toLocaleString('en-US')} are guessed image or document sizes`
    : `≈ ${count.tokens.toLocaleString('en-US')} tokens (${count.label}; the provider's own count may differ by ±${Math.round(m * 100)} %)`;
  return { kind: 'may', tokens: count.tokens, why };
}

const fmt = (n: number) => n.toLocaleString('en-US');

/** How the note of an undecided window starts (`withWindow`; `rejudgeWindow` replaces it). */
export const WINDOW_NOTE = 'Context window';

/** The violation of an over-window judgement, in the endpoint's words and body. */
function overViolation(
  provider: ProviderId,
  w: ContextWindow,
  j: Extract<WindowJudgement, { kind: 'over' }>,
  exact: boolean,
): Violation {
  const code = OVER_CODE[provider];
  const at = { messageIndex: -1, index: -1, blockIndex: null, ids: [] };
  const how =
    j.by === 'bound'
      ? `at least ${fmt(j.tokens)} tokens by its text alone (letters and digits ÷ 26, the most one token holds; not counted, so the provider's N is higher)`
      : `${exact ? '' : '≈ '}${fmt(j.tokens)} tokens${exact ? ' (exact o200k count)' : ' (an estimate, beyond its margin)'}`;
  const why = `The input is ${how}, over ${w.label}'s ${fmt(w.tokens)}-token window (${w.source}). The provider counts the input before it runs the model and refuses it whole.`;
  if (code === undefined)
    return {
      ...at,
      rule: 'context_window_exceeded',
      code: 'CW1',
      severity: 'warning',
      providerPath: null,
      status: null,
      error: null,
      message: `Over the context window: ${how}, window ${fmt(w.tokens)}. ${ENDPOINTS[provider].label}'s answer to it is not captured.`,
      title: 'Input longer than the context window',
      why,
      confidence: ruleSpec('CW1').confidence,
    };
  const message = ruleText(code, { tokens: j.tokens, limit: w.tokens });
  const error =
    code === 'O14'
      ? openaiEnvelope(message, 'messages', 'context_length_exceeded')
      : code === 'G12'
        ? geminiEnvelope(message)
        : provider === 'anthropic-bedrock'
          ? bedrockEnvelope(CLAUDE_PREFIX + message)
          : anthropicEnvelope(message);
  return {
    ...at,
    rule: 'context_window_exceeded',
    code,
    severity: 'error',
    providerPath: code === 'O14' ? 'messages' : null,
    status: 400,
    error,
    message: provider === 'anthropic-bedrock' ? CLAUDE_PREFIX + message : message,
    title: 'Input longer than the context window',
    why,
    confidence: ruleSpec(code).confidence,
  };
}

/**
 * A validation with the context window judged (`judgeWindow`): an over-window error (or CW1
 * warning) after the structural findings, a "may exceed" warning, or a note that the count will
 * decide. Unchanged for an unknown model or a request clearly under its window.
 * @param v the structural validation of these messages
 * @param count the caller's count, if any (`ValidateOptions.inputTokens`)
 * @param size how to size the text (`textSizeChain` along a chain), default `textSize`
 */
export function withWindow(
  v: Validation,
  t: Transcript,
  messages: readonly Message[],
  count?: InputCount,
  size?: (t: Transcript, messages: readonly Message[]) => TextSize,
): Validation {
  const w = modelWindow(v.provider, t.settings.model);
  // A session log is no request: its whole view joins every call, and each call it records was
  // counted by the provider (its usage) and answered. Only a request body is judged.
  if (w === undefined || isSessionLog(t)) return v;
  const j = judgeWindow(t, messages, v.provider, w, count, size ? size(t, messages) : undefined);
  switch (j.kind) {
    case 'under':
      return v;
    case 'open':
      return {
        ...v,
        notes: [
          ...v.notes,
          `${WINDOW_NOTE} (${w.label}, ${fmt(w.tokens)} tokens) not judged yet: by its text alone the input is between ${fmt(j.lo)} and ${fmt(j.hi)} tokens; a token count decides.`,
        ],
      };
    case 'may':
      return {
        ...v,
        violations: [
          ...v.violations,
          {
            rule: 'context_window_exceeded',
            code: 'CW1',
            severity: 'warning',
            messageIndex: -1,
            index: -1,
            blockIndex: null,
            ids: [],
            providerPath: null,
            status: null,
            error: null,
            message: `May exceed the context window (${fmt(w.tokens)} tokens): ${j.why}.`,
            title: 'Input may be longer than the context window',
            why: `${w.label}'s window is ${fmt(w.tokens)} tokens (${w.source}); the count cannot say on which side the provider's own count falls.`,
            confidence: ruleSpec('CW1').confidence,
          },
        ],
      };
    case 'over': {
      const exact = count?.exact === true && ENDPOINTS[v.provider].tokenizer === 'openai';
      const o = overViolation(v.provider, w, j, exact);
      const violations = [...v.violations, o];
      return { ...v, violations, valid: v.valid && o.severity !== 'error' };
    }
  }
}

/**
 * Whether a count would decide the window's verdict on a whole request: its model has a window
 * and the text's bounds leave it open. A body the bounds put over is not counted (cheap first: a
 * 100 MB body would take the BPE half a minute); its text's N is then the lower bound, which the
 * violation's `why` says. O(blocks), plus O(text) only for a body of several MB.
 */
export function windowWantsCount(t: Transcript, provider: ProviderId): boolean {
  const w = modelWindow(provider, t.settings.model);
  if (w === undefined) return false;
  return judgeWindow(t, t.messages, provider, w).kind === 'open';
}

/**
 * `windowWantsCount` read off a validation already made without a count (its note says the
 * window is open), so a caller that has the verdict does not size the text again. O(notes).
 */
export function windowOpen(v: Validation): boolean {
  return v.notes.some((n) => n.startsWith(`${WINDOW_NOTE} (`));
}

/**
 * Count a whole request's input with the o200k BPE (loaded on first use), as the page's worker
 * counts it: `countTokens`' total, exactness and label.
 * @throws if the BPE chunk cannot be loaded
 */
export async function countInput(t: Transcript, provider: ProviderId): Promise<InputCount> {
  const table = countTokens(t, provider, await loadBpeCounter('o200k_base'));
  return { tokens: table.total, exact: table.basis.exact, label: table.basis.label };
}

/**
 * A validation made before the count (bounds only) judged again by a count that came later (the
 * page's exact table): its window findings and note replaced by the count's. O(violations), plus
 * `withWindow`'s one pass over the blocks.
 * @returns the new validation, and `changed`: whether the verdict (valid, or the window's code
 *   and tokens) differs from the first one, so the page can say it was updated
 */
export function rejudgeWindow(
  v: Validation,
  t: Transcript,
  count: InputCount,
): { validation: Validation; changed: boolean } {
  const isWindow = (x: Violation) => x.rule === 'context_window_exceeded';
  const before = v.violations.filter(isWindow);
  const base: Validation = {
    ...v,
    violations: v.violations.filter((x) => !isWindow(x)),
    notes: v.notes.filter((n) => !n.startsWith(`${WINDOW_NOTE} (`)),
  };
  base.valid = !base.violations.some((x) => x.severity === 'error');
  const validation = withWindow(base, t, t.messages, count);
  const after = validation.violations.filter(isWindow);
  const key = (list: Violation[]) => list.map((x) => `${x.code}:${x.message}`).join('|');
  const changed = validation.valid !== v.valid || key(after) !== key(before);
  return { validation, changed };
}
