/**
 * The worker's request loop, kept free of worker globals so Node tests can drive it with a fake
 * `post`. Stages are memoised (parse per text or file, analysis per provider, token counts per
 * block and encoding), so a provider switch re-validates and re-scales counts without
 * re-parsing, and the page is sent the messages of a parse only once. The worker's memory is
 * runState.ts; its token counts and sweeps are runTokens.ts; its eviction step runEviction.ts.
 */
import type { Analysis } from '../model/analyze.ts';
import { clip } from '../model/limits.ts';
import type { ParsedTranscript } from '../model/parse/index.ts';
import { pairTableBuffers, pairTables } from '../model/pairTables.ts';
import type { FormatId, Result, Transcript } from '../model/types.ts';
import { WORKER_EVICTION_MIN } from './evictionParts.ts';
import { parserFor } from '../model/parse/registry.ts';
import { InspectStages, safeParseDoc } from './inspect.ts';
import { LIST_BATCH, packFaults, stripLists, stripTranscript } from './pack.ts';
import { packedListBuffers, packLists } from './packLists.ts';
import {
  MESSAGE_BATCH,
  MESSAGE_BATCH_CHARS,
  packedMessageBuffers,
  packMessages,
  RecordSpans,
  type RawSpans,
} from './packMessages.ts';
import type { Inspection, WorkerRequest } from './protocol.ts';
import { idOf, run, stage, yieldNow, type Post, type Running } from './runState.ts';
import { sendEviction, type Sent } from './runEviction.ts';
import { copyTable, countExact, countShown, quickTokens } from './runTokens.ts';
import { readBlobSource, type StreamedSource } from './stream.ts';
import { releaseRecords } from './releaseRecords.ts';
import {
  hasCalls,
  judgeCalls,
  sessionAnswer,
  sessionParse,
  streamedSession,
  type StreamedSession,
} from './runRequests.ts';

export { runSweep } from './runTokens.ts';

/**
 * Handle one request: parse (streaming a file), analyse, send the compact answer (for long
 * transcripts followed at once by the simulator's eviction parts), then count tokens with the
 * exact BPE (loaded lazily on the first transcript) and send that table.
 * A newer request abandons this one at its next yield. Never throws: a failure anywhere (a
 * postMessage that cannot clone, a bug) is answered with an error `result`, so the page never
 * waits forever (issue 14) and keeps what it shows.
 */
export async function runRequest(msg: WorkerRequest, post: Post): Promise<void> {
  const step = { doing: 'reading the input' };
  try {
    await runRequestSteps(msg, post, step);
  } catch (e) {
    if (run.latest !== msg.id) return;
    try {
      post({
        id: msg.id,
        kind: 'result',
        result: {
          ok: false,
          error: {
            kind: 'shape',
            message: `The worker failed while ${step.doing}: ${clip(e instanceof Error ? e.message : String(e), 300)}. Nothing of this input was loaded.`,
          },
        },
        parseId: -1,
        fresh: false,
        tokens: null,
      });
    } catch {
      // Nothing more can be sent; the page's worker error handler takes over.
    }
  }
}

async function runRequestSteps(
  msg: WorkerRequest,
  post: Post,
  step: { doing: string },
): Promise<void> {
  const { id } = msg;
  run.latest = id;
  stage('start', true);
  const r: Running = {
    msg,
    post,
    stale: () => run.latest !== id,
    progress: (p) => post({ id, kind: 'progress', progress: p }),
    step,
  };
  const read = msg.req.file ? await readFile(r) : readText(r);
  if (!read || r.stale()) return;
  const { parsed, source, session } = read;
  if (!parsed.ok) return fail(r, { ok: false, error: parsed.error });
  // Without faults the answer shows this parse: its messages go to the page before the analysis,
  // so the page takes them in while the worker analyses (on the other core) rather than after.
  const early = msg.req.faults?.length ? null : await sendParse(r, parsed.value, source);
  if (r.stale()) return;
  if (early?.fresh && msg.req.file) {
    const n = parsed.value.transcript.messages.length;
    const size = msg.req.file.size;
    r.progress({ phase: 'analyze', bytes: size, totalBytes: size, messages: n, totalMessages: n });
  }
  step.doing = msg.req.faults?.length ? 'applying the faults' : 'analysing the transcript';
  // With faults, the answer is the faulted transcript's (its messages, tokens, eviction parts
  // and sweeps go the same way as any answer's).
  const inspection = run.stages.safeInspect(parsed.value, msg.req.provider, msg.req.faults);
  stage('analyse');
  if (!inspection.ok) return fail(r, inspection);
  // The parse the answer shows (with faults, the faulted one): its messages go once.
  const sent = early ?? (await sendParse(r, inspection.parsed, source));
  if (!sent || r.stale()) return;
  const { fresh, bytes, inFile } = sent;
  if (r.stale() || !(await sendLists(r, inspection.analysis)) || r.stale()) return;
  stage('lists');
  const answered = sendAnswer(r, inspection, fresh, bytes, session !== null, inFile);
  // The page holds this parse's messages once it has the answer they join (not before: a
  // request that went stale meanwhile took them with it, and the next must send them again).
  if (fresh) run.sentParse = inspection.parsed;
  stage('answer');
  if (answered.evictionFollows) {
    sendEviction(r, inspection.analysis, answered);
    stage('sweep');
  } else run.held = null;
  // The strip's calls after the answer and the simulator's first sweep: the load is shown
  // meanwhile (reading 28,000 calls from the records, listing and cloning them is a few hundred
  // ms of the worker); then the records are released. A log of one call clears the strip.
  if (source) settleFile(source);
  const listed = session !== null && hasCalls(session);
  if (session) {
    post({
      id,
      kind: 'requests',
      parseId: answered.parseId,
      requests: listed ? sessionAnswer(session, msg.req.provider) : null,
    });
    stage('strip-sent');
  }
  if (msg.bpe !== false) {
    step.doing = 'counting tokens';
    const a = inspection.analysis;
    await countExact(id, answered.parseId, a.transcript, a.provider, post, r.stale);
    stage('tokens');
  }
  if (session && listed && !r.stale()) await sendVerdicts(r, session, answered.parseId);
}

/** What `sendParse` did: whether the parse was new to the page, and how its text went. */
interface SentParse {
  fresh: boolean;
  /** A streamed file's text as bytes, to go with the answer (not a plain JSON Lines file). */
  bytes: Uint8Array | undefined;
  /** Whether the messages went as spans of the file, which the page reads itself. */
  inFile: boolean;
}

/**
 * Send the page the messages of `shown` unless it has them (the last parse sent). A fresh
 * streamed JSON Lines file read as plain UTF-8: its messages carry where their source lines are
 * in the file instead of their source JSON (packMessages.ts), and the page reads them from the
 * file (issue 38: neither side keeps the bytes after the parse). Another streamed file (gzip,
 * UTF-16, a JSON body): its text goes to the page as bytes with the answer.
 * @returns what was sent; null when the request went stale
 */
async function sendParse(
  r: Running,
  shown: ParsedTranscript,
  source: StreamedSource | null,
): Promise<SentParse | null> {
  r.step.doing = 'sending the transcript to the page';
  const fresh = run.sentParse !== shown;
  const file = r.msg.req.file;
  const spansInFile = fresh && source && file ? rawSpans(source) : null;
  if (spansInFile && source) source.bytes = null;
  const bytes = fresh && source && !spansInFile ? await sourceBytes(r, source) : undefined;
  if (r.stale()) return null;
  const spans = spansInFile ?? (bytes && source ? rawSpans(source) : null);
  if (fresh && !(await sendMessages(r, shown.transcript, spans))) return null;
  stage('messages');
  return { fresh, bytes, inFile: spansInFile !== null };
}

/**
 * Judge a streamed session log's calls (after the load and its exact token count: the strip's
 * colours are not what the user waits for) and send them, unless the request went stale.
 */
async function sendVerdicts(r: Running, session: StreamedSession, parseId: number): Promise<void> {
  const provider = r.msg.req.provider;
  const before = session.verdicts?.provider === provider ? session.verdicts.list.length : -1;
  r.step.doing = "judging the log's model calls";
  if (!(await judgeCalls(session, provider, yieldNow, r.stale)) || r.stale()) return;
  if (session.verdicts?.list.length === before) return;
  r.post({ id: r.msg.id, kind: 'requests', parseId, requests: sessionAnswer(session, provider) });
  stage('verdicts');
}

/** Answer with a failure, then count the transcript the page keeps showing (`countShown`). */
async function fail(r: Running, result: Inspection): Promise<void> {
  r.post({ id: r.msg.id, kind: 'result', result, parseId: -1, fresh: false, tokens: null });
  await countShown(r.msg, r.post, r.stale);
}

/** A parse, and the streamed file it came from (null for text the page sent). */
interface Read {
  parsed: Result<ParsedTranscript>;
  source: StreamedSource | null;
  /** A streamed session log's calls (runRequests.ts), else null. */
  session: StreamedSession | null;
}

/** Parse the request's text (memoised). */
function readText(r: Running): Read {
  const { req } = r.msg;
  r.step.doing = 'parsing the input';
  return {
    parsed: run.stages.parse(req.text, req.name, req.format, req.requestIndex, req.model),
    source: null,
    session: null,
  };
}

/**
 * The bytes of a streamed file's text for the page (transferred, so taken from the source once;
 * read from the file again, or encoded, when a later answer needs them again).
 */
async function sourceBytes(r: Running, source: StreamedSource): Promise<Uint8Array> {
  const b = source.bytes;
  if (b && b.byteLength > 0) {
    source.bytes = null;
    return b;
  }
  const file = r.msg.req.file;
  if (source.lineSpan && file) return new Uint8Array(await file.arrayBuffer());
  return new TextEncoder().encode(source.text);
}

/**
 * For a JSON Lines file read as plain UTF-8: the byte span of each parsed line's value (by
 * identity), so a message whose raw is a line's value (or a list of them) is sent as spans.
 */
function rawSpans(source: StreamedSource): RawSpans | null {
  const { doc, lineSpan } = source;
  if (doc.kind !== 'jsonl' || !lineSpan) return null;
  return new RecordSpans(doc.lines, lineSpan);
}

/**
 * Stream and parse the request's file (the last file's parse again when it is the same file and
 * choices), posting progress and a preview of the first messages.
 * @returns the parse and the file's text; null when the request went stale or was answered
 */
async function readFile(r: Running): Promise<Read | null> {
  const { req } = r.msg;
  const file = req.file as Blob;
  const key = r.msg.fileKey ?? -1;
  const last = run.lastFile;
  if (
    last &&
    last.key === key &&
    key >= 0 &&
    last.name === req.name &&
    last.format === req.format &&
    last.model === req.model
  ) {
    if (last.requestIndex === req.requestIndex)
      return { parsed: last.result, source: last.source, session: last.session };
    // Another call of the same session log: narrowed from the calls held, not streamed again.
    if (last.session) {
      last.requestIndex = req.requestIndex;
      last.result = { ok: true, value: sessionParse(last.session, req.requestIndex) };
      return { parsed: last.result, source: last.source, session: last.session };
    }
  }
  for (const slimming of [true, false]) {
    const src = await streamFile(r, file, slimming);
    if (r.stale()) return null;
    if (!src.ok) {
      await fail(r, { ok: false, error: src.error });
      return null;
    }
    r.progress({
      phase: 'analyze',
      bytes: file.size,
      totalBytes: file.size,
      messages: 0,
      totalMessages: null,
    });
    stage('read');
    await yieldNow();
    const { source, format } = src.value;
    const whole = safeParseDoc(source.doc, req.name, req.format, req.requestIndex, req.model, {
      narrow: false,
    });
    // A session log's calls are read now, while its records hold what they are read from.
    stage('parse');
    const session =
      whole.ok && r.msg.strip !== false ? streamedSession(source.doc, whole.value) : null;
    stage('strip');
    // Records slimmed for the preview's format are read whole again when the file is another.
    if (source.slimmed && !(whole.ok && whole.value.transcript.format === format)) continue;
    const read = keep(r, key, whole, source, session);
    if (!session) return read;
    // A call chosen: narrowed from the log as released, so its messages' raws are the records
    // the page finds their source lines by.
    const parsed: Result<ParsedTranscript> = {
      ok: true,
      value: sessionParse(session, req.requestIndex),
    };
    if (run.lastFile) run.lastFile.result = parsed;
    return { ...read, parsed };
  }
  return null;
}

/**
 * Remember a file's parse as the last file's (a later request for the same file reuses it).
 * Its records are released (and a session log's calls read first) after the answer
 * (`settleFile`), unless a call is chosen: then its calls are read now, while its records hold
 * what they are read from, and the log is narrowed as released, so its messages' raws are the
 * records the page finds their source lines by.
 */
function keep(
  r: Running,
  key: number,
  parsed: Result<ParsedTranscript>,
  source: StreamedSource,
  session: StreamedSession | null,
): Read {
  const { name, format, requestIndex, model } = r.msg.req;
  run.lastFile = { key, name, format, requestIndex, model, result: parsed, source, session };
  run.lastFile.unsettled = true;
  // Whenever the calls are read (here, after the answer, or to narrow to a call of a request
  // that came first), the records are released right after.
  if (session) session.onRead = () => settleFile(source);
  if (requestIndex !== undefined) settleFile(source);
  return { parsed, source, session };
}

/**
 * Settle the last file once, if it is `source`'s: read a session log's calls from its records
 * (compaction boundaries, API errors and sub-agent threads are read from fields the rules do
 * not keep), then release its slimmed records to what the rules read (`releaseRecords`). Run
 * after the first answer (issue 38: on the 115 MB log this was 60–100 ms before it; with no call
 * chosen the answer shows the whole log and needs neither), or before a call is narrowed to.
 */
function settleFile(source: StreamedSource): void {
  const last = run.lastFile;
  if (!last?.unsettled || last.source !== source) return;
  last.unsettled = false;
  if (last.session) hasCalls(last.session);
  stage('calls');
  if (source.slimmed && last.result.ok) {
    // The whole log as parsed: a narrowed call's messages are its messages.
    const whole = last.session?.whole ?? last.result.value;
    releaseRecords(source.doc, whole.transcript);
  }
  stage('release');
}

/**
 * Stream the request's file, posting progress and the preview of its first records. With
 * `slimming`, records after the preview are kept reduced to what the preview's format reads
 * (`FormatParser.slimmer`): the page reads each message's raw JSON from the file's bytes.
 * @returns the source and the format it was slimmed for (null: kept whole)
 */
async function streamFile(
  r: Running,
  file: Blob,
  slimming: boolean,
): Promise<Result<{ source: StreamedSource; format: FormatId | null }>> {
  const { req } = r.msg;
  const total = file.size;
  let lastPost = 0;
  let format: FormatId | null = null;
  const src = await readBlobSource(
    file,
    req.name,
    (bytes, records) => {
      const now = Date.now();
      if (now - lastPost < 50 && bytes < total) return;
      lastPost = now;
      r.progress({
        phase: 'read',
        bytes,
        totalBytes: total,
        messages: records,
        totalMessages: null,
      });
    },
    (doc) => {
      if (r.stale()) return;
      const p = safeParseDoc(doc, req.name, req.format, req.requestIndex, req.model);
      if (!p.ok) return;
      const a = run.stages.safeAnalyze(p.value, req.provider);
      r.post({
        id: r.msg.id,
        kind: 'preview',
        result: a,
        tokens: a.ok ? quickTokens(a.analysis) : null,
      });
      const slim = slimming ? parserFor(p.value.transcript.format)?.slimmer?.() : undefined;
      if (slim) format = p.value.transcript.format;
      return slim;
    },
  );
  return src.ok ? { ok: true, value: { source: src.value, format } } : src;
}

/**
 * Post a fresh parse's messages in batches: up to MESSAGE_BATCH messages or MESSAGE_BATCH_CHARS
 * of source JSON, whichever comes first. @returns false when the request went stale
 */
async function sendMessages(
  r: Running,
  transcript: Transcript,
  spans: RawSpans | null,
): Promise<boolean> {
  const { req, id } = r.msg;
  const ms = transcript.messages;
  const n = ms.length;
  const totalBytes = req.file?.size ?? req.text.length;
  const format = transcript.format;
  // A streamed log whose format rebuilds blocks from raw sends them not (the page rebuilds).
  const blocksOf = parserFor(format)?.blocksOf;
  for (let from = 0; from < n; ) {
    if (r.stale()) return false;
    const messages = packMessages(
      ms,
      from,
      from + MESSAGE_BATCH,
      MESSAGE_BATCH_CHARS,
      spans,
      blocksOf,
    );
    r.post({ id, kind: 'messages', from, format, messages }, packedMessageBuffers(messages));
    from += messages.count;
    if (req.file)
      r.progress({
        phase: 'transfer',
        bytes: totalBytes,
        totalBytes,
        messages: from,
        totalMessages: n,
      });
    await yieldNow();
  }
  return true;
}

/**
 * Long lists go in batches too (each a short task on the page), then the rest in `result`.
 * @returns false when the request went stale
 */
async function sendLists(r: Running, analysis: Analysis): Promise<boolean> {
  const t = analysis.transcript;
  if (t.messages.length < WORKER_EVICTION_MIN) return true;
  const pairs = analysis.pairs;
  const exchanges = analysis.grouping.exchanges;
  const end = Math.max(pairs.length, exchanges.length, t.usage.length);
  for (let from = 0; from < end; from += LIST_BATCH) {
    if (r.stale()) return false;
    const lists = packLists(
      pairs.slice(from, from + LIST_BATCH),
      exchanges.slice(from, from + LIST_BATCH),
      t.usage.slice(from, from + LIST_BATCH),
    );
    r.post({ id: r.msg.id, kind: 'lists', lists }, packedListBuffers(lists));
    await yieldNow();
  }
  return true;
}

/** Post the answer: the transcript without its messages, the quick token table, the pair tables. */
function sendAnswer(
  r: Running,
  inspection: Extract<Inspection, { ok: true }>,
  fresh: boolean,
  textBytes: Uint8Array | undefined,
  requestsFollow: boolean,
  spansInFile: boolean,
): Sent {
  const { id } = r.msg;
  const { analysis } = inspection;
  const t = analysis.transcript;
  // With faults: the faulted parse (engine/inspect.ts `InspectStages.faults`), its own id.
  const parseId = idOf(inspection.parsed);
  const faults = packFaults(inspection);
  const lists = t.messages.length >= WORKER_EVICTION_MIN;
  const quick = quickTokens(analysis);
  const quickSeq = ++run.tableSeq;
  const evictionFollows = lists;
  // The worker keeps a copy of each table it sends for a long transcript (the sent one moves).
  const quickCopy = evictionFollows ? copyTable(quick) : null;
  // The timeline's per-block pairs and arc lanes, so the page's first render does not build them.
  const tables = lists ? pairTables(t.messages, analysis.pairs) : null;
  run.shown = { parseId, t, provider: analysis.provider, exact: false };
  r.post(
    {
      id,
      kind: 'result',
      result: lists ? stripLists(stripTranscript(inspection)) : stripTranscript(inspection),
      ...(lists ? { lists } : {}),
      ...(faults ? { faults } : {}),
      ...(tables ? { pairTables: tables } : {}),
      parseId,
      fresh,
      ...(textBytes ? { textBytes } : {}),
      ...(spansInFile ? { spansInFile } : {}),
      ...(requestsFollow ? { requestsFollow } : {}),
      tokens: quick,
      tableSeq: quickSeq,
      ...(evictionFollows ? { evictionFollows } : {}),
    },
    [
      quick.perMessage.buffer,
      quick.prefix.buffer,
      ...(textBytes?.buffer instanceof ArrayBuffer ? [textBytes.buffer] : []),
      ...(tables ? pairTableBuffers(tables) : []),
    ],
  );
  return { parseId, quickSeq, quickCopy, evictionFollows };
}

/** Forget the worker's memo (tests). */
export function resetRun(): void {
  run.stages = new InspectStages();
  run.latest = 0;
  run.sentParse = null;
  run.lastFile = null;
  run.held = null;
  run.shown = null;
}
