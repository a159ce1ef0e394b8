/**
 * Exports for an incident report (issue 6): the Markdown incident summary, and the transcript as
 * a policy and budget leave it, in its original format.
 *
 * Takes the eviction results as inputs (`EvictionResult` from `evict/types.ts`), so it does not
 * depend on how or when the simulator runs.
 */
import { summaryMessage } from './evict/policies.ts';
import { POLICY_REGISTRY } from './evict/registry.ts';
import { editedMessages } from './evict/rewrite.ts';
import type { EvictionPolicy, EvictionResult } from './evict/types.ts';
import type { Grouping } from './exchanges.ts';
import type { ToolPair } from './pairing.ts';
import { parserFor } from './parse/registry.ts';
import type { TokenTable } from './tokens.ts';
import type { Message, ProviderId, Transcript } from './types.ts';
import { analyze } from './analyze.ts';
import { causeLabel, messageLabels, requestIndexNote } from './messageLabels.ts';
import { redactTranscriptWithMaps } from './redact.ts';
import { ruleWords } from './ruleWords.ts';
import { renameViolation } from './redact/renameViolation.ts';
import type { TextCounter } from './tokens.ts';
import type { Validation, Violation } from './validate/types.ts';
import { writeTranscript } from './write.ts';

export interface IncidentSummaryInput {
  transcript: Transcript;
  provider: ProviderId;
  /** Provider label for people (`Anthropic Messages`); defaults to the id. */
  providerLabel?: string;
  grouping: Grouping;
  pairs: readonly ToolPair[];
  /** Validation of the transcript as loaded (pasted or opened). */
  validation: Validation;
  tokens: TokenTable;
  /** The chosen policy at the chosen budget, when a budget is set. */
  eviction?: EvictionResult | null;
  /** The exchange-level alternative at the same budget (`policy: 'exchange'`). */
  alternative?: EvictionResult | null;
  /** The link to this view and what it carries, when there is one. */
  permalink?: SummaryLink | null;
  /** True when `transcript` is the structure-only copy (a line says so under the heading). */
  structureOnly?: boolean;
  /** Heading; defaults to "Transcript incident summary". */
  title?: string;
}

/** What a link in a summary carries: a structure-only copy, the whole transcript, or the view. */
export type LinkContents = 'structure' | 'transcript' | 'view';

export interface SummaryLink {
  url: string;
  contains: LinkContents;
}

/** The sentence under `## Link`: what whoever opens the link gets. */
export const LINK_SENTENCE: Record<LinkContents, string> = {
  structure:
    'This link opens a structure-only copy: every text, tool input and result is a placeholder of the same token count, ids are renamed and times are relative; it carries no transcript content.',
  transcript:
    'This link carries the whole transcript (compressed in the address): whoever opens it can read every message, tool input and result. Share it only where the transcript itself may go.',
  view: 'This link holds the view only (budget, policy, selection), not the transcript: whoever opens it must open the same file.',
};

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');

/** Inline code for a value that came from a transcript: a fence longer than any backtick run in it. */
export function mdCode(s: string): string {
  const longest = Math.max(0, ...(s.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  const pad = s.startsWith('`') || s.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${s.replace(/[\r\n]+/g, ' ')}${pad}${fence}`;
}

/** A fenced block for a body that came from a transcript (a fence longer than any inside it). */
export function mdFence(body: string, lang = ''): string {
  const longest = Math.max(2, ...(body.match(/`{3,}/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${lang}\n${body}\n${fence}`;
}

function firstError(v: Validation | undefined | null): Violation | null {
  return v?.violations.find((x) => x.severity === 'error') ?? null;
}

function where(t: Transcript, v: Violation): string {
  // By our index: the raw index repeats for retry copies and split source messages.
  const m = t.messages[v.index];
  const labels = messageLabels(t.messages);
  const label = causeLabel(labels, v);
  const parts = [`message ${label}${m ? ` (${m.role}, \`${m.path}\`)` : ''}`];
  if (v.blockIndex !== null) parts.push(`block ${v.blockIndex}`);
  if (v.providerPath) {
    // The row the path names: the cause's, or another (`pathIndex`: O2 and B2 name the message
    // after the call), as the page's verdict and the CLI say.
    const pathLabel = v.pathIndex !== undefined ? labels.of(v.pathIndex) : m ? label : null;
    const note = requestIndexNote(v.providerPath, pathLabel);
    parts.push(`provider path ${mdCode(v.providerPath)}${note ? ` (${note})` : ''}`);
  }
  return parts.join(', ');
}

function evictionLine(r: EvictionResult, label: string): string {
  const over =
    r.overshoot === null
      ? 'no deficit'
      : `overshoot ×${r.overshoot.toFixed(2)} (freed ${fmt(r.freed)} tokens for a deficit of ${fmt(r.deficit)})`;
  const first = firstError(r.validation);
  return `- ${label}: policy ${mdCode(r.policy)} at a budget of ${fmt(r.budget)} tokens keeps ${r.kept.length} message(s), evicts ${r.evicted.length}, ${fmt(r.tokensKept)} tokens kept, ${r.fits ? 'fits' : '**does not fit**'}; ${over}; request ${first ? `**rejected** (${mdCode(first.code)}: ${ruleWords(first.rule)})` : 'accepted'}.`;
}

/**
 * The Markdown incident summary: format and provider; message / exchange / tool pair / token
 * counts; the first error body (verbatim, as the provider returns it) and where it comes from —
 * the transcript as loaded, or the request the chosen policy and budget leave; that policy and
 * budget; the exchange-level alternative and its overshoot; the permalink.
 * Transcript content appears only inside code spans and fences (never as Markdown or HTML).
 * @returns Markdown text (CommonMark), ending with a newline
 */
export function buildIncidentSummary(input: IncidentSummaryInput): string {
  const { transcript: t, grouping, pairs, validation, tokens } = input;
  const out: string[] = [];
  out.push(`# ${input.title ?? 'Transcript incident summary'}`, '');
  if (input.structureOnly)
    out.push(
      'Made from the structure-only copy: texts are placeholders, ids are renamed (`r0000_00001`: the length and punctuation kept, the letters and digits not) and the model is its public base; counts, pairs and verdicts are those of the transcript.',
      '',
    );
  const formatLabel = parserFor(t.format)?.label ?? t.format;
  out.push(`- Format: ${formatLabel} (${mdCode(t.format)})`);
  out.push(
    `- Provider rules: ${input.providerLabel ?? input.provider} (${mdCode(input.provider)})${t.settings.model ? `, model ${mdCode(t.settings.model)}` : ''}`,
  );
  const broken = pairs.filter((p) => p.status !== 'answered').length;
  out.push(
    `- ${t.messages.length} messages, ${grouping.exchanges.length} exchanges, ${pairs.length} tool pairs (${broken} broken)`,
  );
  out.push(
    `- ${fmt(tokens.total)} tokens (${fmt(tokens.system)} in the system prompt); counts: ${tokens.basis.label}`,
  );
  const errors = validation.violations.filter((v) => v.severity === 'error').length;
  const warnings = validation.violations.length - errors;
  out.push(
    `- As loaded: ${validation.valid ? 'accepted' : `**rejected**: ${errors} error(s)`}${warnings > 0 ? `, ${warnings} warning(s)` : ''}`,
  );
  out.push('');

  // Which error to show: the transcript's own, else the one the chosen eviction produces.
  const own = firstError(validation);
  const produced = input.eviction ? firstError(input.eviction.validation) : null;
  const err = own ?? produced;
  out.push('## First error', '');
  if (!err)
    out.push(
      input.eviction
        ? 'None: the request is accepted as loaded and after eviction.'
        : 'None: the request is accepted as loaded.',
    );
  else {
    const origin = own
      ? 'the transcript as loaded'
      : `the request left by policy ${mdCode(input.eviction?.policy ?? '')} at a budget of ${fmt(input.eviction?.budget ?? 0)} tokens (the transcript as loaded is accepted)`;
    out.push(`${mdCode(err.code)} ${err.title} — from ${origin}, at ${where(t, err)}.`, '');
    if (err.ids.length > 0) out.push(`Tool ids: ${err.ids.map(mdCode).join(', ')}`, '');
    out.push(
      `HTTP ${err.status ?? 400}; confidence ${mdCode(err.confidence)} (rule catalogue, docs/rules.md).`,
      '',
    );
    out.push(mdFence(JSON.stringify(err.error, null, 2), 'json'), '');
    out.push(err.why);
  }
  out.push('');

  if (input.eviction || input.alternative) {
    out.push('## Eviction', '');
    if (input.eviction) out.push(evictionLine(input.eviction, 'Chosen'));
    if (input.alternative) out.push(evictionLine(input.alternative, 'Exchange-level alternative'));
    out.push('');
  }

  if (input.permalink)
    out.push(
      '## Link',
      '',
      LINK_SENTENCE[input.permalink.contains],
      '',
      `<${input.permalink.url}>`,
      '',
    );
  return `${out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}

/**
 * The incident summary as shared (issue 15): of the structure-only copy — no text, id, time or
 * custom model name of the transcript — unless the user chose to include the transcript.
 * Counts, pairs, verdicts and eviction lines are the same either way (the copy keeps them).
 * @param input the summary of the transcript as loaded (its `permalink` is the link to print)
 * @param opts `includeTranscript` (default false); `counter`: the page's counter, so placeholders
 *   keep its token counts; `toolNames`: kept (default) or hidden, as in the structure-only link
 * @returns Markdown text, ending with a newline
 */
export function buildSharedIncidentSummary(
  input: IncidentSummaryInput,
  opts: { includeTranscript?: boolean; counter?: TextCounter; toolNames?: 'keep' | 'hide' } = {},
): string {
  if (opts.includeTranscript) return buildIncidentSummary(input);
  const red = redactTranscriptWithMaps(input.transcript, {
    ...(opts.counter ? { counter: opts.counter } : {}),
    toolNames: opts.toolNames ?? 'keep',
  });
  const a = analyze(red.transcript, input.provider);
  // The eviction's own error names the original ids and tools: rename them as the copy does.
  const rename = (r: EvictionResult | null | undefined): EvictionResult | null =>
    r
      ? {
          ...r,
          validation: {
            ...r.validation,
            violations: r.validation.violations.map((v) => renameViolation(v, red.ids, red.names)),
          },
        }
      : null;
  return buildIncidentSummary({
    ...input,
    transcript: red.transcript,
    grouping: a.grouping,
    pairs: a.pairs,
    validation: a.validation,
    eviction: rename(input.eviction),
    alternative: rename(input.alternative),
    structureOnly: true,
  });
}

/**
 * The transcript as an eviction leaves it: kept messages in order, plus the synthetic summary
 * message (a plain user text of the given size) for the `summary` policy.
 * @param t the transcript the result was computed on
 * @param r the eviction result (`kept` are message indices, ours)
 */
export function keptTranscript(t: Transcript, r: EvictionResult): Transcript {
  if (r.edits) {
    // A rewriting policy: its edits applied; an edited message is written from its blocks, and
    // so is the message holding the call of an edited result (a format may store results in
    // their calls, as a Gemini CLI session does: its writer would reuse the call's stored result).
    const edited = new Set(r.edits.map((e) => e.index));
    const resultIds = new Set<string>();
    for (const e of r.edits) {
      const b = t.messages[e.index]?.blocks[e.block];
      if (b?.type === 'tool_result' && b.toolUseId !== null) resultIds.add(b.toolUseId);
    }
    if (resultIds.size > 0)
      for (const m of t.messages)
        if (m.blocks.some((b) => b.type === 'tool_use' && b.id !== null && resultIds.has(b.id)))
          edited.add(m.index);
    const messages = editedMessages(
      t.messages,
      { edits: r.edits, evicted: r.evicted },
      t.format,
    ).map((m) => (edited.has(m.index) ? { ...m, raw: undefined } : m));
    return { ...t, messages };
  }
  const kept = new Set(r.kept);
  const own: EvictionPolicy = POLICY_REGISTRY[r.policy];
  const summary = (i: number, tokens: number): Message =>
    own.summaryMessage
      ? { ...own.summaryMessage(r.provider, tokens), path: `summary before message ${i}` }
      : summaryMessage(i, tokens);
  const messages: Message[] = [];
  t.messages.forEach((m, i) => {
    if (r.summary && i === r.summary.before) messages.push(summary(i, r.summary.tokens));
    if (kept.has(i)) messages.push(m);
  });
  return { ...t, messages };
}

/**
 * The source text of the request an eviction leaves, in the transcript's own format
 * (`writeTranscript`): what the request would have contained.
 */
export function exportKeptSource(t: Transcript, r: EvictionResult | null): string {
  return writeTranscript(r ? keptTranscript(t, r) : t);
}
