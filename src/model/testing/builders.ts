/**
 * Test-only builders: messages, blocks and transcripts by hand, and parsing a value as the page
 * does.
 */
import {
  parseDocument,
  parseTranscript,
  type ParseOptions,
  type ParsedTranscript,
} from '../parse/index.ts';
import type { Block, FormatId, Message, Role, Transcript } from '../types.ts';

/**
 * Parse a JSON value as the page parses a pasted document (format detection, containers, the
 * request picker), for tests of a parser through the public entry point.
 * @param requestIndex which request of a file holding several (an eval log's sample, an export's
 *   conversation); the parser's default when absent
 * @returns the parsed transcript with its candidates and request list
 * @throws Error with the ParseError's message when the value does not parse (the test fails)
 */
export function parsed(value: unknown, requestIndex?: number): ParsedTranscript {
  const r = parseDocument(
    { kind: 'json', value },
    requestIndex !== undefined ? { requestIndex } : {},
  );
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/**
 * Parse pasted or loaded text (JSON, JSON Lines, a container) as the page does.
 * @param opts a file name hint, a format or a request index, as `parseTranscript` takes them
 * @returns the parsed transcript with its candidates and request list
 * @throws Error with the ParseError's message when the text does not parse (the test fails)
 */
export function parsedText(text: string, opts: ParseOptions = {}): ParsedTranscript {
  const r = parseTranscript(text, opts);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** Build a message; index/rawIndex/path are fixed up by `transcript()`. */
export function msg(role: Role, blocks: Block[], raw?: unknown): Message {
  return { index: 0, rawIndex: 0, path: '', role, blocks, raw };
}

export const text = (t: string): Block => ({ type: 'text', text: t });
export const call = (id: string, name = 'tool', input: unknown = {}): Block => ({
  type: 'tool_use',
  id,
  name,
  input,
});
export const result = (id: string, content = 'ok', isError = false): Block => ({
  type: 'tool_result',
  toolUseId: id,
  isError,
  content: [{ type: 'text', text: content }],
});
export const thinking = (t = 'Let me think.', signature = 'sig'): Block => ({
  type: 'thinking',
  thinking: t,
  signature,
});

export const user = (...blocks: (Block | string)[]): Message =>
  msg(
    'user',
    blocks.map((b) => (typeof b === 'string' ? text(b) : b)),
  );
export const assistant = (...blocks: (Block | string)[]): Message =>
  msg(
    'assistant',
    blocks.map((b) => (typeof b === 'string' ? text(b) : b)),
  );
export const system = (t: string): Message => msg('system', [text(t)]);
/** An OpenAI-style `tool` message answering `id`. */
export const tool = (id: string, content = 'ok'): Message => msg('tool', [result(id, content)]);

/**
 * Assemble a transcript: numbers messages (index = rawIndex = position; path `messages.N`).
 * @param format the source format (decides the default provider)
 */
export function transcript(
  format: FormatId,
  messages: Message[],
  extra: Partial<Transcript> = {},
): Transcript {
  return {
    format,
    system: [],
    tools: null,
    settings: {},
    usage: [],
    warnings: [],
    listKey: 'messages',
    raw: undefined,
    ...extra,
    messages: messages.map((m, i) => ({ ...m, index: i, rawIndex: i, path: `messages.${i}` })),
  };
}

/** Renumber a message subset as if it had been pasted on its own. */
export function renumber(t: Transcript, messages: Message[]): Transcript {
  return transcript(t.format, messages, { system: t.system, tools: t.tools, settings: t.settings });
}
