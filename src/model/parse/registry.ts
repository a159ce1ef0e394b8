/**
 * The format registry: one `FormatParser` per format. Adding a format is one new file in this
 * folder and one line in `PARSERS`; every per-format list elsewhere (default providers, result
 * style, JSON Lines, request listing, permalink ids) is derived from these entries.
 */
import { geminiCliParser } from './geminiCli/geminiCli.ts';
import type { Block, Message, ProviderId, Result, Transcript } from '../types.ts';
import type { JsonlLine, SourceDoc } from './json.ts';
import type { NearMiss } from './nearMiss.ts';
import type { RequestEntry } from './multi.ts';
import type { SessionCalls } from './sessionCalls.ts';
import { anthropicMessagesParser } from './anthropicMessages/anthropicMessages.ts';
import { openaiChatParser } from './openaiChat/openaiChat.ts';
import { openaiResponsesParser } from './openaiResponses/openaiResponses.ts';
import { geminiParser } from './gemini/gemini.ts';
import { bedrockConverseParser } from './bedrockConverse/bedrockConverse.ts';
import { claudeCodeJsonlParser } from './claudeCode/claudeCodeJsonl.ts';
import { codexJsonlParser } from './codex/codexJsonl.ts';
import { langchainParser } from './langchain/langchain.ts';
import { vercelAiParser } from './vercelAi/vercelAi.ts';
import { inspectLogParser } from './inspectLog/inspectLog.ts';
import { sweAgentParser } from './sweAgent/sweAgent.ts';
import { chatgptExportParser } from './chatgptExport/chatgptExport.ts';
import { claudeAiExportParser } from './claudeAiExport/claudeAiExport.ts';
import { geminiInteractionsParser } from './geminiInteractions/geminiInteractions.ts';
import { fetchRecordParser } from './fetchRecord/fetchRecord.ts';

/** The kinds of document a format can be (`FormatParser.category`). */
export type FormatCategory = 'request' | 'log' | 'framework' | 'archive';

export interface FormatParser {
  id: FormatId;
  /** Human label for pickers. */
  label: string;
  /** The provider a transcript in this format is sent to by default. */
  provider: ProviderId;
  /**
   * What kind of document: a provider's request or response body (`request`), an agent's session
   * log (`log`), a framework's message list (`framework`), or an archive of finished runs or
   * conversations (`archive`).
   */
  category: FormatCategory;
  /** What the parser expects, in one sentence: shown when nothing matched. */
  expected: string;
  /** True for line-based logs: `sniff`/`parse` receive a `jsonl` document. */
  jsonl?: boolean;
  /**
   * Where this format keeps a tool_result: in a `tool` message of its own (`tool`), in the user
   * turn after the call (`user`), or inside the call itself (`call`: a Gemini CLI session, read
   * as a user turn of results alone right after the call). A repair writes a new error result
   * this way when the transcript holds no `tool` message to follow.
   */
  resultStyle: 'tool' | 'user' | 'call';
  /**
   * The format's own names for a tool call and for its result, as a row's chips and the block
   * filters say them (`toolUse` / `toolResult` for Bedrock); `tool_use` / `tool_result` when
   * unset (Anthropic's, the model's block types).
   */
  blockWords?: BlockWords;
  /**
   * For an archive that can hold several samples or conversations: one entry per item (each
   * value the archive narrowed to that item), for the request picker; `[]` when the value is no
   * such archive. Cheap and never throws.
   */
  listRequests?: (value: unknown) => RequestEntry[];
  /**
   * For a session log (one conversation sent to the model many times): its model calls, each
   * the context the model saw then, compactions and rollbacks applied (`sessionCalls.ts`).
   * `t` is `parse(doc)`; the answer's transcript is `t` unless the format keeps messages the
   * parse leaves out (a rolled-back turn). Never throws.
   */
  sessionCalls?: (doc: SourceDoc, t: Transcript) => SessionCalls;
  /** True when a message's `meta.sourceId` is a Responses item id (`fc_…`, `rs_…`, `msg_…`). */
  itemIds?: boolean;
  /**
   * True when the format's usage records count cache reads and writes apart from `inputTokens`
   * (Anthropic's and Bedrock's buckets); absent, `inputTokens` includes them (docs/formats.md#usage).
   */
  usageCacheApart?: boolean;
  /**
   * Structural sniff: 0 = not this format, 1 = certainly this format. Must be cheap (look at the
   * top level and a few items) and must not throw on any input.
   */
  sniff: (value: unknown) => number;
  /**
   * For a value no format's sniff takes: how much of it reads as this format and where it first
   * stops (the message, the key, what was expected), for the parse error (`nearMiss.ts`). Null
   * when it reads as none of it. Never throws; changes no detection.
   */
  nearMiss?: (value: unknown) => NearMiss | null;
  /** Normalise. Never throws: bad items become `other` blocks or warnings. */
  parse: (doc: SourceDoc) => Result<Transcript>;
  /**
   * A message's blocks rebuilt from its `raw` alone: deep-equal to what `parse` gave (a property
   * test holds every such format to it). With it, the worker sends a long log's messages
   * without their blocks and the page rebuilds one only when something reads it (issue 20).
   * Absent where a message's blocks depend on more than its own source. Never throws.
   */
  blocksOf?: (raw: unknown) => Block[];
  /**
   * JSON Lines formats: a new slimmer for one read of a file, which reduces each line's value
   * (handed in file order) to what `parse` reads, for a reader that keeps the whole line
   * elsewhere (the worker of a streamed file: the page reads raw JSON from the file's bytes).
   * `parse` of slimmed lines equals `parse` of the whole lines except each message's `raw`. It
   * may keep one copy of a string equal to an earlier line's. Absent: lines are kept whole.
   * Never throws.
   */
  slimmer?: () => (value: unknown) => unknown;
  /**
   * Write a (possibly evicted, faulted or repaired) transcript back in this format, as text.
   * Messages whose `raw` is set and whose blocks were not changed are written from `raw`, so an
   * untouched message round-trips byte for byte in meaning; new or changed messages (raw
   * `undefined`) are rendered from their blocks. Top-level fields of `t.raw` are kept.
   */
  write?: (t: Transcript) => string;
  /**
   * For a format that is a client library's input: the messages that client actually sends
   * (validators judge these). The same list when the client sends it unchanged; messages keep
   * their indices. Absent: sent as parsed. `chatCompletions`: the provider is reached through a
   * Chat Completions API (a client's adapters differ: the AI SDK sends an empty assistant message
   * as `""` there, `[]` elsewhere).
   */
  asSent?: (messages: readonly Message[], chatCompletions: boolean) => readonly Message[];
  /**
   * For a format that is a client library's input: what that client refuses to send at all (it
   * throws before any request), as notes for the validation. Absent: it refuses nothing.
   */
  refusals?: (messages: readonly Message[]) => string[];
}

/**
 * Every format, keyed by its id, in detection order: a value two formats' sniffs take equally goes
 * to the one listed first. `FormatId` is derived from these keys (each parser's `id` equals its
 * key: a unit test holds it).
 */
export const FORMAT_REGISTRY = {
  'anthropic-messages': anthropicMessagesParser,
  'openai-chat': openaiChatParser,
  'claude-code-jsonl': claudeCodeJsonlParser,
  'codex-jsonl': codexJsonlParser,
  langchain: langchainParser,
  'vercel-ai': vercelAiParser,
  'openai-responses': openaiResponsesParser,
  gemini: geminiParser,
  'bedrock-converse': bedrockConverseParser,
  'gemini-cli': geminiCliParser,
  'inspect-log': inspectLogParser,
  'swe-agent': sweAgentParser,
  'chatgpt-export': chatgptExportParser,
  'claude-ai-export': claudeAiExportParser,
  'gemini-interactions': geminiInteractionsParser,
  'fetch-record': fetchRecordParser,
} as const satisfies Record<string, FormatParser>;

/** An input format's id: a key of the registry. */
export type FormatId = keyof typeof FORMAT_REGISTRY;

/** Every parser, in detection order (the registry's). */
export const PARSERS: readonly FormatParser[] = Object.values(FORMAT_REGISTRY);

/** Every format id, in registry order (the permalink's `format` values). */
export const FORMAT_IDS = Object.keys(FORMAT_REGISTRY) as readonly FormatId[];

/**
 * The samples or conversations of an archive file (the formats with `listRequests`).
 * @param value a parsed JSON value
 * @returns the first non-empty listing (each entry's value is the archive narrowed to one item,
 *   which the format's own parser reads); `[]` when the value is no multi-item archive. Cheap
 *   (looks at the top level and the first few items before listing) and never throws.
 */
export function listArchiveRequests(value: unknown): RequestEntry[] {
  for (const p of PARSERS) {
    if (!p.listRequests) continue;
    const found = p.listRequests(value);
    if (found.length > 0) return found;
  }
  return [];
}

/**
 * The requests of a JSON Lines archive (the line-based formats with `listRequests`: a
 * checked-fetch record).
 * @param lines the document's lines
 * @returns the first non-empty listing; `[]` when no such format takes the first line (decided on
 *   that line alone, so a long session log costs one sniff). Never throws.
 */
export function listJsonlArchiveRequests(lines: readonly JsonlLine[]): RequestEntry[] {
  const first = lines[0]?.value;
  for (const p of PARSERS) {
    if (!p.jsonl || !p.listRequests) continue;
    let takes = false;
    try {
      takes = p.sniff([first]) > 0;
    } catch {
      takes = false;
    }
    if (!takes) continue;
    const found = p.listRequests(lines.map((l) => l.value));
    if (found.length > 0) return found;
  }
  return [];
}

/** What a format calls a tool call and its result (`FormatParser.blockWords`). */
export interface BlockWords {
  call: string;
  result: string;
}

/** The model's own words (Anthropic's block types): a format that names neither keeps them. */
export const MODEL_BLOCK_WORDS: BlockWords = { call: 'tool_use', result: 'tool_result' };

/** A format's words for a call and a result (`FormatParser.blockWords`, else the model's). */
export function blockWordsOf(id: FormatId): BlockWords {
  return BY_ID.get(id)?.blockWords ?? MODEL_BLOCK_WORDS;
}

/** The format ids of one category, in registry order. */
export function formatsOf(category: FormatCategory): FormatId[] {
  return PARSERS.filter((p) => p.category === category).map((p) => p.id);
}

const BY_ID = new Map(PARSERS.map((p) => [p.id, p]));

/** The parser of a format id, or undefined for an id no parser registers. */
export function parserFor(id: FormatId): FormatParser | undefined {
  return BY_ID.get(id);
}
