/**
 * A Claude Code log line reduced to what `claudeCodeJsonlParser.parse` reads (issue 20). The
 * worker keeps every parsed line of a long log for as long as the page shows it, but the page
 * holds the file's bytes and reads each message's raw JSON from them, so the worker's copy needs
 * only the fields that order, group and normalise the messages. Dropped: `toolUseResult` (the
 * UI's copy of a result), `attachment`, `snapshot`, `cwd`, `sessionId`, `requestId`, `version`,
 * `gitBranch`, and the like — a fifth to a half of a real log's bytes.
 */
import { isObject, type Json } from '../util.ts';

/**
 * The line fields the parse and its reading order read (claudeCodeJsonl.ts, claudeCodeOrder.ts),
 * each read by name: one property load per field at a site of its own, where a loop of `k in v`
 * over a list of names cost about three times as much (3.6 × on 50,000 lines of the 115 MB bench
 * log, issue 38). A JSON value holds no `undefined`, so `!== undefined` is `in` for it.
 */
function pickLine(v: Json): Json {
  const out: Json = {};
  if (v.type !== undefined) out.type = v.type;
  if (v.uuid !== undefined) out.uuid = v.uuid;
  if (v.parentUuid !== undefined) out.parentUuid = v.parentUuid;
  if (v.isSidechain !== undefined) out.isSidechain = v.isSidechain;
  if (v.isApiErrorMessage !== undefined) out.isApiErrorMessage = v.isApiErrorMessage;
  if (v.isCompactSummary !== undefined) out.isCompactSummary = v.isCompactSummary;
  if (v.timestamp !== undefined) out.timestamp = v.timestamp;
  if (v.summary !== undefined) out.summary = v.summary;
  if (v.subtype !== undefined) out.subtype = v.subtype;
  if (v.compactMetadata !== undefined) out.compactMetadata = v.compactMetadata;
  if (v.message !== undefined) out.message = v.message;
  return out;
}

/** The `message` fields the parse reads (content blocks, reply id, model, usage), as `pickLine`. */
function pickMessage(m: Json): Json {
  const out: Json = {};
  if (m.id !== undefined) out.id = m.id;
  if (m.model !== undefined) out.model = m.model;
  if (m.usage !== undefined) out.usage = m.usage;
  if (m.content !== undefined) out.content = m.content;
  return out;
}

/**
 * @param v one line's parsed value
 * @returns a new object with only the read fields (same values, not copies), `message` likewise;
 *   anything not an object unchanged. Parsing slimmed lines gives what the whole lines give, each
 *   message's `raw` aside (a property test holds it). `sniff` reads `sessionId`, so a reader
 *   slims no line that sniffing looks at (stream.ts starts after the preview's records).
 */
export function slimClaudeCodeLine(v: unknown): unknown {
  if (!isObject(v)) return v;
  const out = pickLine(v);
  if (isObject(v.message)) out.message = pickMessage(v.message);
  return out;
}

/**
 * A slimmer for one read of a log, its lines in file order: `slimClaudeCodeLine`, and a string
 * equal to the previous line's is that line's string (a line's `parentUuid` is most often the
 * `uuid` of the line before it; the lines of one reply repeat its `message.id` and `model`), so
 * a reader that keeps every line holds each once — 7 MiB of the 115 MB bench log's 100,000 lines
 * (issue 38). The values are equal to `slimClaudeCodeLine`'s; only which copy is kept differs.
 */
export function claudeCodeSlimmer(): (v: unknown) => unknown {
  let uuid: unknown;
  let id: unknown;
  let model: unknown;
  return (v) => {
    const out = slimClaudeCodeLine(v);
    if (!isObject(out)) return out;
    if (out.parentUuid !== undefined && out.parentUuid === uuid) out.parentUuid = uuid;
    uuid = out.uuid;
    const m = out.message;
    if (isObject(m)) {
      if (m.id !== undefined && m.id === id) m.id = id;
      else id = m.id;
      if (m.model !== undefined && m.model === model) m.model = model;
      else model = m.model;
    }
    return out;
  };
}
