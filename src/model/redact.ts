/**
 * Structure-only redaction (issues 6 and 15): share the shape of a failure without its content.
 *
 * One contract for every format and container: the copy, written in the transcript's own format
 * (`writeTranscript`; a request read from a container is written as that request's body), reads
 * back as the same format with the same messages, exchanges, tool pairs (statuses), token count
 * per message and violations (rule and message index), hence the same eviction results; and it
 * holds no original string that is not structure.
 *
 * - Every text, tool input, tool result, system prompt, tool description and thinking text is a
 *   placeholder with the same token count under the same `TextCounter` (and, where the alphabet
 *   allows, the same length, so the `chars/4` heuristic agrees too): `redact/placeholders.ts`.
 * - Ids, uuids and session ids are renamed consistently (`toolu_01AAA` → `r0000_00001`: letters
 *   and digits replaced, no prefix kept, length and punctuation kept, which providers judge ids
 *   by), so pairing, duplicates, orphans, refused ids and a log's uuid chain survive; date-times move to a relative
 *   clock; a fine-tuned or custom model name becomes its public base (a public id, a Bedrock one
 *   included, is kept as it is): `redact/renames.ts`.
 * - Tool names are kept by default (they name the tools, rarely a secret, and keep the provider's
 *   error texts readable) or hidden by option.
 * - Kept as they are: roles, block types and order, message positions, empty and whitespace-only
 *   texts (they carry rules A10/A11), settings (thinking, tool_choice, limits), usage figures,
 *   media types and sizes, signatures' lengths.
 */
import type { Message, Transcript } from './types.ts';
import { Redactor, type RedactOptions } from './redact/redactor.ts';
import { modelOf, redactTop } from './redact/top.ts';

export { fitPlaceholder, placeholderText } from './redact/placeholders.ts';
export { RESULT_KEYS, type RedactOptions } from './redact/redactor.ts';
export { publicModel } from './redact/renames.ts';

export interface Redaction {
  transcript: Transcript;
  /** Original id (tool call, item, uuid, session) → renamed id. */
  ids: Map<string, string>;
  /** Original tool name → shown name (identity when names are kept). */
  names: Map<string, string>;
  /** Placeholders whose token count could not be matched exactly (tiny texts beside a long hidden name). */
  inexact: number;
}

/**
 * Redact a transcript to its structure, with the maps used.
 * @param t a parsed transcript (any format)
 * @param opts tool names kept or hidden, thinking kept as placeholders or removed, the counter
 * @returns the redacted transcript (every message `raw` undefined, so the writer renders it from
 *   its blocks over the redacted source), the id and name maps, and the number of placeholders
 *   whose token count could not be matched (0 in practice; a warning is added then)
 */
export function redactTranscriptWithMaps(t: Transcript, opts: RedactOptions = {}): Redaction {
  const r = new Redactor(opts);
  const transcript = redactWith(r, t);
  return { transcript, ids: r.ids, names: r.names, inexact: r.inexact };
}

/** One transcript redacted by a given redactor (its renames and names shared with others). */
function redactWith(r: Redactor, t: Transcript): Transcript {
  const before = r.inexact;
  const messages = t.messages.map((m) => r.message(m));
  const system = t.system.map((s) => ({ text: r.text(s.text), path: s.path }));
  const tools = t.tools === null ? null : t.tools.map((d) => r.tool(d));
  const settings = { ...t.settings };
  delete settings.model;
  Object.assign(settings, modelOf(t));
  const transcript: Transcript = {
    format: t.format,
    system,
    tools,
    settings,
    usage: t.usage.map((u) => ({ ...u })),
    messages,
    warnings: [...t.warnings],
    listKey: t.listKey,
    raw: redactTop(r, t, messages, system, tools),
  };
  if (r.inexact > before)
    transcript.warnings.push(
      `Structure-only copy: ${r.inexact - before} placeholder(s) could not keep their exact token count.`,
    );
  return transcript;
}

/**
 * Several transcripts redacted together, with one set of renames and placeholders: an id, a
 * uuid or a text is renamed alike in each, so two requests of one conversation (the two sides
 * of a diff) still match message for message after redaction.
 * @returns the redacted transcripts, in order
 */
export function redactTogether(
  list: readonly Transcript[],
  opts: RedactOptions = {},
): Transcript[] {
  const r = new Redactor(opts);
  return list.map((t) => redactWith(r, t));
}

/**
 * Redact a transcript to its structure (see the module comment for what is kept).
 * @example redactTranscript(t, { toolNames: 'hide', counter }) // same exchanges, pairs, verdicts
 */
export function redactTranscript(t: Transcript, opts: RedactOptions = {}): Transcript {
  return redactTranscriptWithMaps(t, opts).transcript;
}

/**
 * The messages of the structure-only copy alone, without the source, system prompt and tools
 * around them: what a picture of the timeline may show. Each message is redacted as
 * `redactTranscriptWithMaps` redacts it with the same options (same placeholders, same renames,
 * same positions), at a fraction of the cost for a large transcript.
 * @example redactMessages(t.messages, { counter }) // texts → `xxx xx xxxx`, roles and blocks kept
 */
export function redactMessages(messages: readonly Message[], opts: RedactOptions = {}): Message[] {
  const r = new Redactor(opts);
  return messages.map((m) => r.message(m));
}
