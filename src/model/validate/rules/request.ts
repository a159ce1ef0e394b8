/**
 * Rule functions shared by several providers. Each takes the request as the provider receives it
 * and the provider's rule code; the text, path and confidence come from the rule catalogue, so a
 * class of 400 is written once and every provider that has it reports it in its own words.
 */
import { isPinned } from '../../exchanges.ts';
import { parserFor } from '../../parse/registry.ts';
import type { Message, Transcript } from '../../types.ts';
import { ruleSpec, ruleText } from '../catalogue/index.ts';
import { violation } from './common.ts';
import type { Violation } from '../types.ts';

/** Where a provider puts system/developer messages: in the list, or beside it. */
export type SystemPlacement = 'in-list' | 'beside';

/**
 * Empty request (A14, O8, G8): the list the provider receives holds no message.
 * @param messages the request's messages (normalised)
 * @param code the provider's catalogue code for the rule
 * @param system 'beside' when system/developer messages leave the list (Anthropic, Gemini)
 * @param envelope the provider's 400 body around the text
 * @returns the violation (message index 0, our index −1: no message holds the cause), or null
 */
export function emptyRequest(
  messages: readonly Message[],
  code: string,
  system: SystemPlacement,
  envelope: (message: string) => unknown,
): Violation | null {
  for (const m of messages) if (system === 'in-list' || !isPinned(m)) return null;
  const spec = ruleSpec(code);
  return violation(
    {
      rule: 'empty_request',
      code,
      messageIndex: 0,
      index: -1,
      blockIndex: null,
      ids: [],
      providerPath: spec.path.split(' ')[0] ?? null,
      message: ruleText(code, {}),
      title: 'The request holds no message',
      why:
        system === 'beside'
          ? 'The message list is empty (a system prompt alone does not count): a trim or converter left nothing to send.'
          : 'The message list is empty: a trim or converter left nothing to send.',
      confidence: spec.confidence,
      severity: spec.severity,
    },
    envelope,
  );
}

/**
 * True when the transcript is a complete request of its API: the fields the API requires are
 * present (Anthropic `model` and `max_tokens`, or Bedrock/Vertex `anthropic_version`; Bedrock
 * Converse `modelId`). Such a request without a tools key sends no tools (A7, B7: compaction and
 * planner calls, anomalyco/opencode#10259, browser-use/browser-use#1243); a bare message list or
 * a log does not say.
 */
export function completeRequest(
  t: Pick<Transcript, 'format' | 'raw'> & Partial<Pick<Transcript, 'toolsUnrecorded'>>,
): boolean {
  if (t.toolsUnrecorded === true) return false;
  const raw = t.raw;
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return false;
  const v = raw as Record<string, unknown>;
  if (t.format === 'anthropic-messages')
    return (
      typeof v.anthropic_version === 'string' ||
      (typeof v.model === 'string' && typeof v.max_tokens === 'number')
    );
  if (t.format === 'bedrock-converse') return typeof v.modelId === 'string';
  return false;
}

/**
 * Tool blocks without tool definitions (A7, B7): the request defines no tools, yet a message it
 * sends in the list holds tool calls or results.
 * @param source the request's messages (normalised, pinned ones included)
 * @returns the first message of `source` with a tool block (the one the finding names, even
 *   when pinned: eviction's fast path names the same), null when the rule holds, or 'unknown'
 *   when the tool definitions were not given (a log, a bare message list; a complete request
 *   without a tools key gives none: `completeRequest`)
 */
export function toolsNotDefined(
  t: Transcript,
  source: readonly Message[],
): Message | null | 'unknown' {
  const given = toolsGiven(t);
  if (given !== 'none') return given === 'unknown' ? 'unknown' : null;
  if (!source.some((m) => !isPinned(m) && hasToolBlock(m))) return null;
  return source.find(hasToolBlock) ?? null;
}

/**
 * True when a message holds a client tool_use or tool_result block (what A7 and B7 look for). A
 * server tool's blocks (`server_tool_use`, `mcp_tool_use` and their results, read as tool blocks
 * marked `server`) are not: the provider runs those from its own definitions (`mcp_servers`, a
 * server tool), and A7's text names `tool_use` and `tool_result` only.
 */
export function hasToolBlock(m: Message): boolean {
  return m.blocks.some(
    (b) =>
      (b.type === 'tool_use' && b.server !== true) ||
      (b.type === 'tool_result' && b.server === undefined),
  );
}

/**
 * Whether the request gives tool definitions: 'some', 'none' (no tools, or an empty list, in a
 * complete request: `completeRequest`), or 'unknown' (not recorded). `toolsNotDefined`'s first step.
 */
export function toolsGiven(
  t: Pick<Transcript, 'format' | 'raw' | 'tools'> & Partial<Pick<Transcript, 'toolsUnrecorded'>>,
): 'some' | 'none' | 'unknown' {
  if (t.tools === null && !completeRequest(t)) return 'unknown';
  return t.tools !== null && t.tools.length > 0 ? 'some' : 'none';
}

/**
 * True when the transcript is a session log (a format of the `log` category: Claude Code, Codex,
 * Gemini CLI, …). A log ends on the assistant's reply; the next request appends the user's next
 * input, so its trailing assistant message is history, not a prefill: the trailing-assistant
 * rules (A12, G7) are not checked on it, with `sessionLogNote` said instead.
 */
export function isSessionLog(t: Transcript): boolean {
  return parserFor(t.format)?.category === 'log';
}

/** The note a provider gives when it skips its trailing-assistant rule `code` on a session log. */
export function sessionLogNote(code: string): string {
  return `This is a session log: its last assistant message is history, not a prefill, so ${code} was not checked.`;
}
