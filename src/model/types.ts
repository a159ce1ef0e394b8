/**
 * The normalised transcript: one shape for every input format.
 *
 * A parser turns a source (a request body, a session log, a framework message list) into a
 * `Transcript`. Everything downstream — pairing, exchanges, validation, tokens, eviction — reads
 * only this shape, so adding a format is a new parser file and nothing else.
 *
 * Indices (all 0-based): `Message.index` is the position in `Transcript.messages` (our order);
 * `Message.rawIndex` is the message's number in the source as pasted, before any provider-side
 * merging — its position in the source's primary list (`messages`, `input`, `contents`), or for a
 * log (JSON Lines: records, not a message list) its position among the messages read from it.
 * A log's file lines (1-based) are named in `Message.path` (`line 4`, `lines 4–5`) and its
 * records' position in `Message.rawLine`. The row label `#N` is the raw index (`messageLabels.ts`).
 */

/** Input formats we read: a key of the format registry (`parse/registry.ts`), one parser each. */
export type { FormatId } from './parse/registry.ts';
import type { FormatId } from './parse/registry.ts';
import type { EndpointId } from './validate/endpoints/index.ts';

/**
 * The endpoints whose rules we implement: an API's rules plus the endpoint's dialect (one file each
 * under `validate/endpoints/`). Derived from the endpoint registry's ids.
 */
export type ProviderId = EndpointId;

/** Normalised roles. `tool` is OpenAI-style (one result per message); Anthropic puts results in `user`. */
export const ROLE_NAMES = ['system', 'developer', 'user', 'assistant', 'tool'] as const;
export type Role = (typeof ROLE_NAMES)[number];

/** A token count. Branded so it is not mixed up with pixels or indices. */
export type Tokens = number & { readonly __unit?: 'tokens' };

export interface TextBlock {
  type: 'text';
  text: string;
}

/** Image, document, audio or file content. Never tokenised as text (base64 is ~1.5 chars/token). */
export interface MediaBlock {
  type: 'image' | 'document';
  mediaType?: string;
  /** Size of the encoded payload in bytes, when inline. */
  bytes?: number;
  /** Where the payload is when it is not inline: a URL, or a file the provider stores. */
  source?: 'url' | 'file';
}

/** A tool call: Anthropic `tool_use`, OpenAI `tool_calls[]`, Responses `function_call`, … */
export interface ToolUseBlock {
  type: 'tool_use';
  /** The call id (`toolu_…`, `call_…`); null when the source has none (legacy `function_call`). */
  id: string | null;
  name: string;
  input: unknown;
  /** Anthropic server tools (`server_tool_use`): paired inside the same assistant turn (§1.3). */
  server?: boolean;
  /** Responses item id (`fc_…`) when the item carries one (R3/R6). */
  itemId?: string;
  /** Gemini `thoughtSignature` on a functionCall part (G4): opaque, never counted as text. */
  signature?: string;
  /**
   * A legacy Chat `function_call` (no id, one per message): written back as one, not as a
   * `tool_calls` entry with no id, which providers judge otherwise (issue 37).
   */
  legacy?: true;
}

/** A tool result: Anthropic `tool_result`, OpenAI role `tool`, Responses `function_call_output`, … */
export interface ToolResultBlock {
  type: 'tool_result';
  /** The id of the call it answers (`tool_use_id`, `tool_call_id`, `call_id`); null if missing. */
  toolUseId: string | null;
  isError: boolean;
  /** The source wrote `is_error: false` (Claude Code does): a writer writes it back so. */
  isErrorFalse?: true;
  content: Block[];
  /** Server tool result kind (`web_search_tool_result`), for server tools only. */
  server?: string;
  /** Tool name, where the format carries it (Gemini `functionResponse.name`, legacy `function`). */
  name?: string;
}

/** Visible or summarised reasoning. The signature is opaque and never counted as text. */
export interface ThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature?: string;
}

/** Encrypted reasoning (`redacted_thinking`, Responses `reasoning` with `encrypted_content`). */
export interface RedactedThinkingBlock {
  type: 'redacted_thinking';
  /** Opaque payload size in bytes: its token cost is unknown. */
  bytes: number;
  /** Responses reasoning item id (`rs_…`), when present. */
  itemId?: string;
}

/** Anything we do not understand, kept verbatim rather than dropped. */
export interface OtherBlock {
  type: 'other';
  /** The source's own type name (`search_result`, `container_upload`, …). */
  label: string;
  raw: unknown;
}

export type Block =
  | TextBlock
  | MediaBlock
  | ToolUseBlock
  | ToolResultBlock
  | ThinkingBlock
  | RedactedThinkingBlock
  | OtherBlock;

export type BlockType = Block['type'];

export interface Message {
  /** Position in `Transcript.messages`. */
  index: number;
  /**
   * Its number in the source as pasted (before any merging), 0-based: the position in the
   * source's primary list, or for a log the position among the messages read from it.
   */
  rawIndex: number;
  /**
   * Logs (JSON Lines) only: the position of its first record among the log's parsed lines
   * (`Transcript.raw`), where a writer puts a new or changed message.
   */
  rawLine?: number;
  /** Where it sits in the source, e.g. `messages.3`, or a log's file lines: `line 42`, `lines 4–5`. */
  path: string;
  role: Role;
  /** True when the source gave `content` as a plain string (kept for faithful export). */
  stringContent?: boolean;
  blocks: Block[];
  /** The source JSON of this message, for the raw view and for export. */
  raw: unknown;
  /** Log formats: a side thread (Claude Code sub-agent), a compaction summary, an item id. */
  meta?: MessageMeta;
}

export interface MessageMeta {
  sidechain?: boolean;
  compactSummary?: boolean;
  /** Claude Code `message.id` / Responses item id. */
  sourceId?: string;
  timestamp?: string;
  /** Provider-reported output tokens for this message, when the log carries usage per reply. */
  usageOutputTokens?: number;
  /**
   * DeepSeek's `reasoning_content` as sent back (also when empty: its presence is what D4
   * checks). Not a block: no other provider reads it, and it is not counted as content.
   */
  reasoning?: string;
}

export interface SystemPart {
  text: string;
  path: string;
}

export interface ToolDef {
  name: string;
  description?: string;
  /** Input schema as given (JSON schema or the provider's own shape). */
  schema?: unknown;
}

/** Request settings that change the rules. */
export interface RequestSettings {
  model?: string;
  /**
   * Anthropic extended thinking: true when `thinking.type` is `enabled`/`adaptive`, false when a
   * full request body leaves it off, undefined when the source cannot say (a bare array).
   */
  thinking?: boolean;
  /** Forced tool use (`tool_choice` any/tool); makes a trailing assistant message a 400 (A12). */
  toolChoiceForced?: boolean;
  /** Structured output requested (`output_format` / `response_format`). */
  outputFormat?: boolean;
}

/** A usage record as the source reports it: one per API call, in tokens. */
export interface UsageRecord {
  /** Message index (ours) of the reply this usage belongs to, if known. */
  messageIndex?: number;
  inputTokens?: Tokens;
  outputTokens?: Tokens;
  cacheReadTokens?: Tokens;
  cacheWriteTokens?: Tokens;
  reasoningTokens?: Tokens;
}

export interface Transcript {
  format: FormatId;
  /** Top-level system prompt (Anthropic `system`, Gemini `systemInstruction`, …). */
  system: SystemPart[];
  /**
   * Tool definitions as given. `null` when the source does not say (a bare message array, a log,
   * or a body without a `tools` key, which is how most pasted excerpts arrive); `[]` when the body
   * says `tools: []`. Rules A7/B7 (tool blocks without tools) are checked only for `[]`.
   */
  tools: ToolDef[] | null;
  settings: RequestSettings;
  usage: UsageRecord[];
  messages: Message[];
  /** Non-fatal notes: "no system prompt in this format", "3 broken JSONL lines: 4, 9, 12". */
  warnings: string[];
  /** Name of the primary list in the source (`messages`, `input`, `contents`). */
  listKey: string;
  /**
   * The endpoint the input names around the body (a curl command's or HAR entry's URL, an OTel
   * span's `server.address`), when it names a known one; the verdict's default then.
   */
  endpoint?: ProviderId;
  /**
   * True when the body was rebuilt from a record that does not keep tool definitions (an OTel
   * span without `gen_ai.tool.definitions`): its missing tools key says nothing (A7, B7 are not
   * judged), though the body has the API's required fields.
   */
  toolsUnrecorded?: boolean;
  /** The whole source value, for export. */
  raw: unknown;
}

/**
 * Where in the source a parse failed: 1-based line and column, plus the line's text — of a long
 * line only a window around the column (model/limits.ts `QUOTE_CHARS`), `…` marking the cuts.
 */
export interface SourceLocation {
  line: number;
  column: number;
  lineText: string;
  /** Set when `lineText` is a window: the index in `lineText` (0-based) of `column`'s character. */
  caret?: number;
}

/** A parse failure with a message a person can act on. */
export interface ParseError {
  /** `limit`: refused before any work, too large or too deeply nested (model/limits.ts). */
  kind: 'json' | 'shape' | 'empty' | 'binary' | 'limit';
  message: string;
  /**
   * For `binary`, what could not be read when it is not the bytes themselves (a NUL byte, another
   * archive): `gzip`, a gzip stream that is corrupt or cut off; `encoding`, text not in UTF-8 (or
   * UTF-16 with its byte order mark).
   */
  unreadable?: 'gzip' | 'encoding';
  location?: SourceLocation;
  /** For `shape`: each format tried and what it expected. */
  tried?: { format: FormatId; expected: string }[];
  /**
   * For `shape`, when the value is close to one format's messages (`parse/nearMiss.ts`: most of
   * them read, it has what only that format has, or it is a list of objects with a role): that
   * format, the first message that does not read and what was expected there (also in `message`).
   */
  closest?: {
    format: FormatId;
    label: string;
    /** The message (0-based in its list), or null for a top-level field. */
    messageIndex: number | null;
    /** Keys from the value's root to the offending value (`['messages', 3, 'role']`). */
    path: (string | number)[];
    problem: string;
  };
}

export type Result<T, E = ParseError> = { ok: true; value: T } | { ok: false; error: E };
