/**
 * DeepSeek's Responses endpoint (`api.deepseek.com/v1/responses`): stricter than OpenAI's. The
 * outputs of a run of calls must come right after it (DR1), and in thinking mode each group of
 * calls must follow its reasoning item (DR2); both in DeepSeek's body. The other rules are the
 * Responses API's rule and wording (DeepSeek's answer to them is not captured).
 */
import { parserFor } from '../../parse/registry.ts';
import type { Transcript } from '../../types.ts';
import { deepseekEnvelope, ruleSpec, ruleText } from '../catalogue/index.ts';
import { violation } from '../rules/common.ts';
import { deepseekV4 } from '../deepseek.ts';
import { openaiResponsesValidator } from '../openaiResponses.ts';
import { renderResponses, type ResponsesItem } from '../openaiResponses.render.ts';
import type { ValidateOptions, Violation } from '../types.ts';
import { dialectValidator } from './dialect.ts';
import type { Dialect, Endpoint } from './types.ts';
import { DEEPSEEK_WINDOWS } from './windows.ts';

/** A DR violation at an item. */
function at(
  it: ResponsesItem,
  code: 'DR1' | 'DR2',
  ids: string[],
  title: string,
  why: string,
): Violation {
  const spec = ruleSpec(code);
  return violation(
    {
      rule: spec.rules[0] as Violation['rule'],
      code,
      messageIndex: it.msg.rawIndex,
      index: it.msg.index,
      blockIndex: it.blockIndex,
      ids,
      providerPath: null,
      message: ruleText(code, { id: ids[0] }),
      title,
      why,
      confidence: spec.confidence,
    },
    deepseekEnvelope,
  );
}

/**
 * DR1: each run of `function_call` items must be followed at once by the outputs of its calls. A
 * call whose output sits elsewhere in `input` is refused (a call with no output at all is R2).
 */
function outputsFollow(items: readonly ResponsesItem[]): Violation[] {
  const out: Violation[] = [];
  const answered = new Set<string>();
  for (const it of items) if (it.kind === 'output' && it.callId !== null) answered.add(it.callId);
  let k = 0;
  while (k < items.length) {
    if ((items[k] as ResponsesItem).kind !== 'call') {
      k++;
      continue;
    }
    let j = k;
    while (j < items.length && (items[j] as ResponsesItem).kind === 'call') j++;
    const next = new Set<string>();
    let e = j;
    for (; e < items.length && (items[e] as ResponsesItem).kind === 'output'; e++) {
      const id = (items[e] as ResponsesItem).callId;
      if (id !== null) next.add(id);
    }
    let last: ResponsesItem | null = null;
    for (let c = k; c < j; c++) {
      const id = (items[c] as ResponsesItem).callId;
      if (id !== null && answered.has(id) && !next.has(id)) last = items[c] as ResponsesItem;
    }
    if (last !== null)
      out.push(
        at(
          last,
          'DR1',
          [last.callId as string],
          'An item between a call and its output',
          'DeepSeek\u2019s Responses endpoint wants the outputs right after their calls; a developer or user message, assistant text or a reasoning item between them makes it miss the output (OpenAI pairs by call_id anywhere).',
        ),
      );
    k = e > j ? e : j;
  }
  return out;
}

/** Thinking mode: as the request says (`reasoning`), else the V4 models' default. */
function thinkingMode(t: Transcript): boolean {
  if (t.settings.thinking !== undefined) return t.settings.thinking;
  const raw = t.raw as Record<string, unknown> | null;
  const r = raw !== null && typeof raw === 'object' ? raw.reasoning : undefined;
  if (r !== null && typeof r === 'object') return (r as { effort?: unknown }).effort !== 'none';
  return deepseekV4(t);
}

/** DR2: in thinking mode, each group of calls must follow its reasoning item (assistant text may stand between). */
function reasoningBeforeCalls(t: Transcript, items: readonly ResponsesItem[]): Violation[] {
  if (!thinkingMode(t)) return [];
  const out: Violation[] = [];
  for (let k = 0; k < items.length; k++) {
    const it = items[k] as ResponsesItem;
    if (it.kind !== 'call' || (k > 0 && (items[k - 1] as ResponsesItem).kind === 'call')) continue;
    let b = k - 1;
    while (
      b >= 0 &&
      (items[b] as ResponsesItem).kind === 'message' &&
      (items[b] as ResponsesItem).role === 'assistant'
    )
      b--;
    if (b >= 0 && (items[b] as ResponsesItem).kind === 'reasoning') continue;
    out.push(
      at(
        it,
        'DR2',
        it.callId !== null ? [it.callId] : [],
        'Thinking mode: calls without their reasoning',
        'In thinking mode DeepSeek wants each group of calls sent back after its reasoning item; a dropped reasoning item, or a parallel batch re-ordered as call, output, call, output, leaves calls without one.',
      ),
    );
  }
  return out;
}

const DIALECT: Dialect = {
  extra: (t: Transcript, opts: ValidateOptions | undefined) => {
    const items = renderResponses(
      opts?.messages ?? t.messages,
      parserFor(t.format)?.itemIds === true,
    );
    return [...outputsFollow(items), ...reasoningBeforeCalls(t, items)];
  },
  adds: ['DR1', 'DR2'],
  rewords: [],
};

export const deepseekResponses: Endpoint = {
  id: 'deepseek-responses',
  label: 'DeepSeek (Responses API)',
  api: 'openai-responses',
  base: 'openai-responses',
  validator: dialectValidator(
    'deepseek-responses',
    'DeepSeek (Responses API)',
    openaiResponsesValidator,
    DIALECT,
  ),
  dialect: DIALECT,
  hosts: [/(^|\.)deepseek\.com$/],
  paths: [/\/responses$/],
  // Request URLs as documented (api-docs.deepseek.com).
  urls: ['https://api.deepseek.com/v1/responses'],
  pathStyle: 'none (`param` null)',
  evidenced: 'own',
  evidence:
    'deepseek-ai/DeepSeek-V3#1588; deepseek-ai/awesome-deepseek-integration#740; Kohaku-Lab/KohakuTerrarium#322; rikkahub/rikkahub#1629',
  asOf: '2026-09',
  tokenizer: 'other',
  windows: DEEPSEEK_WINDOWS,
};
