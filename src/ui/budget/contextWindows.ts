/**
 * A small table of context windows (tokens) for the "compact at N % of the window" reading. These
 * are the vendors' published input+output windows for common models, as of late 2025; the user
 * can always type another value. They only label the budget: no rule or verdict depends on them.
 */

export interface ContextWindow {
  id: string;
  label: string;
  /** Window size in tokens. */
  tokens: number;
  /** Matches `settings.model` of a transcript (to preselect the row). */
  match: RegExp;
}

export const CONTEXT_WINDOWS: readonly ContextWindow[] = [
  { id: 'claude', label: 'Claude (200K)', tokens: 200_000, match: /claude/i },
  { id: 'gpt-4o', label: 'GPT-4o (128K)', tokens: 128_000, match: /gpt-4o/i },
  { id: 'gpt-4.1', label: 'GPT-4.1 (1M)', tokens: 1_047_576, match: /gpt-4\.1/i },
  { id: 'gpt-5', label: 'GPT-5 (400K)', tokens: 400_000, match: /gpt-5/i },
  { id: 'o-series', label: 'o3 / o4-mini (200K)', tokens: 200_000, match: /^o[34]/i },
  { id: 'gemini', label: 'Gemini 2.5 (1M)', tokens: 1_048_576, match: /gemini/i },
];

/** Id of the "type a value" choice. */
export const CUSTOM_WINDOW = 'custom';

/**
 * The window row to preselect for a transcript: by its model name, else by its provider family.
 * @param model `settings.model`, if the transcript names one
 * @param provider the provider id the transcript is validated for
 */
export function defaultWindowFor(model: string | undefined, provider: string): ContextWindow {
  const byModel = model ? CONTEXT_WINDOWS.find((w) => w.match.test(model)) : undefined;
  if (byModel) return byModel;
  const byProvider =
    provider === 'anthropic' || provider === 'bedrock'
      ? 'claude'
      : provider === 'gemini'
        ? 'gemini'
        : provider.startsWith('openai')
          ? 'gpt-4o'
          : 'claude';
  return CONTEXT_WINDOWS.find((w) => w.id === byProvider) ?? (CONTEXT_WINDOWS[0] as ContextWindow);
}

/**
 * The budget as a share of the window, in percent (what a "compact at N %" trigger would be).
 * @returns a percentage, or null when the window is not a positive number
 */
export function triggerPercent(budget: number, windowTokens: number): number | null {
  if (!(windowTokens > 0) || !Number.isFinite(windowTokens)) return null;
  return (budget / windowTokens) * 100;
}

/** A percentage with the precision it deserves: 42 %, 4.2 %, 0.14 %. */
export function fmtPercent(p: number): string {
  if (p === 0) return '0 %';
  if (p >= 10) return `${Math.round(p)} %`;
  if (p >= 1) return `${p.toFixed(1)} %`;
  return `${p.toPrecision(2)} %`;
}

/**
 * The rate calculator of issue 4: one session in N breaks when `compactShare` of sessions compact
 * and `breakShare` of their compactions give a 400.
 * @param compactShare share of sessions that reach the trigger (0..1)
 * @param breakShare share of compactions (budgets) that give a 400 (0..1)
 * @returns N (sessions per broken session), or null when none break
 */
export function oneIn(compactShare: number, breakShare: number): number | null {
  const p = compactShare * breakShare;
  if (!(p > 0) || !Number.isFinite(p)) return null;
  return 1 / p;
}
