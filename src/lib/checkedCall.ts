/**
 * One call of a checked fetch, once `plan` has said what may be read: pass it through, or read,
 * check, and refuse, answer, warn or repair as the mode says; record the call when asked.
 */
import { repairTranscript } from '../model/repair.ts';
import type { ProviderId } from '../model/types.ts';
import { writeTranscript } from '../model/write.ts';
import type { Plan, SkipReason } from './body.ts';
import { checkParsed, withModel, type CheckResult } from './check.ts';
import { bodyEndpoint, type Endpoint, type EndpointMatch } from './endpoints.ts';
import { MalformedTranscriptError } from './errors.ts';
import type { CheckMode, FetchLike, RepairReport, SkipInfo, ViolationReport } from './fetch.ts';
import { missingEntry, tryRead, UnreadableTranscriptError } from './read.ts';
import {
  jsonOrText,
  RECORD_SCHEMA,
  RECORD_VERSION,
  recordedVerdict,
  safeHeaders,
  safeUrl,
  type RecordLine,
  type RecordOutcome,
  type RecordWriter,
} from './record.ts';
import { labelled, type LabelledChange } from './repairReport.ts';

/** Everything one call needs: its arguments, the inner fetch, the options that apply. */
export interface CallContext {
  input: string | URL | Request;
  init: RequestInit | undefined;
  url: string;
  inner: FetchLike;
  mode: CheckMode;
  unrepaired: 'throw' | 'respond' | 'warn';
  provider: ProviderId | undefined;
  writer: RecordWriter | null;
  onViolation: ((r: ViolationReport) => void) | undefined;
  onRepair: (r: RepairReport) => void;
  onSkip: ((reason: SkipReason, info: SkipInfo) => void) | undefined;
}

const isRequest = (x: unknown): x is Request =>
  typeof Request !== 'undefined' && x instanceof Request;

/**
 * Carry out a plan. A `pass` calls the inner fetch before returning (synchronously); a body to
 * read is read (a Blob asynchronously), then checked.
 * @returns the answer (the inner fetch's, or a synthetic 400 in respond mode)
 */
export function runChecked(ctx: CallContext, p: Plan): Promise<Response> {
  if (p.kind === 'pass')
    return pass(ctx, p.reason, p.endpoint, p.size !== undefined ? { size: p.size } : {});
  if (p.kind === 'text') return decide(ctx, p.endpoint, p.text);
  const endpoint = p.endpoint;
  return p.blob.text().then(
    (text) => decide(ctx, endpoint, text),
    () => pass(ctx, 'not-json', endpoint, {}),
  );
}

function send(ctx: CallContext, init: RequestInit | undefined): Promise<Response> {
  return init === undefined ? ctx.inner(ctx.input) : ctx.inner(ctx.input, init);
}

interface PassExtra {
  size?: number;
  error?: UnreadableTranscriptError;
  /** The body's value, when it was read. */
  body?: unknown;
}

/** Send the request as given, unchecked: report the skip, record a provider call. */
function pass(
  ctx: CallContext,
  reason: SkipReason,
  endpoint: EndpointMatch | null,
  extra: PassExtra,
): Promise<Response> {
  ctx.onSkip?.(reason, {
    url: ctx.url,
    endpoint: endpoint?.id ?? null,
    ...(extra.size !== undefined ? { size: extra.size } : {}),
    ...(extra.error ? { error: extra.error } : {}),
  });
  const res = send(ctx, ctx.init);
  if (!endpoint || !ctx.writer) return res;
  const line = baseLine(ctx, endpoint.id, 'sent-unchecked', ctx.init, extra.body, null);
  line.skipped = reason;
  return tracked(ctx.writer, line, res);
}

/** Read, check, and act on the verdict as the mode says. */
function decide(ctx: CallContext, match: EndpointMatch, text: string): Promise<Response> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return pass(ctx, 'not-json', match, {});
  }
  const ep = bodyEndpoint(match, value);
  if (!ep) return pass(ctx, 'other-body', match, { body: value });
  const gap = missingEntry(value);
  if (gap) {
    const error = new UnreadableTranscriptError(gap);
    if (ctx.mode === 'warn' || ctx.mode === 'repair')
      return pass(ctx, 'unreadable-transcript', match, { error, body: value });
    if (ctx.writer) {
      const line = baseLine(ctx, ep.id, 'refused', ctx.init, value, null);
      line.skipped = 'unreadable-transcript';
      ctx.writer.write(line);
    }
    return Promise.reject(error);
  }
  const parsed = tryRead(value, { format: ep.format });
  if (!parsed.ok) return pass(ctx, 'other-body', match, { body: value });
  const model = ep.model !== undefined ? { model: ep.model } : {};
  const result = checkParsed(parsed.value, { provider: ctx.provider ?? ep.provider, ...model });
  if (result.valid) return sendRecorded(ctx, ep, 'sent', ctx.init, value, result);
  ctx.onViolation?.({ url: ctx.url, result, mode: ctx.mode });
  if (ctx.mode === 'repair') {
    const t = withModel(parsed.value.transcript, ep.model);
    const r = repairTranscript(t, result.provider);
    if (r.validation.valid) {
      const written = writeTranscript(r.transcript);
      // As compact as the caller's body (the SDKs send one line).
      const body = text.includes('\n') ? written : JSON.stringify(JSON.parse(written));
      const changes = labelled(r.changes);
      ctx.onRepair({ url: ctx.url, endpoint: ep.id, before: result, changes, body });
      const init: RequestInit = { ...ctx.init, body };
      const headers = withoutLength(ctx.init?.headers);
      if (headers !== undefined) init.headers = headers;
      const repaired = { changes, original: value };
      return sendRecorded(ctx, ep, 'sent-repaired', init, JSON.parse(body), result, repaired);
    }
    return act(ctx, ctx.unrepaired, ep, value, result);
  }
  return act(ctx, ctx.mode, ep, value, result);
}

/** Refuse, answer or send a request the provider would reject. */
function act(
  ctx: CallContext,
  mode: 'throw' | 'respond' | 'warn',
  ep: Endpoint,
  value: unknown,
  result: CheckResult,
): Promise<Response> {
  if (mode === 'warn') return sendRecorded(ctx, ep, 'sent-anyway', ctx.init, value, result);
  const outcome: RecordOutcome = mode === 'throw' ? 'refused' : 'answered-400';
  const line = ctx.writer ? baseLine(ctx, ep.id, outcome, ctx.init, value, result) : null;
  if (mode === 'throw') {
    if (line) ctx.writer?.write(line);
    return Promise.reject(new MalformedTranscriptError(ctx.url, result));
  }
  const res = providerResponse(result);
  if (line) {
    line.response = { status: res.status, streamed: false, error: result.firstError };
    ctx.writer?.write(line);
  }
  return Promise.resolve(res);
}

/** Headers without `content-length` (the repaired body has another length), or undefined when there was none. */
function withoutLength(h: HeadersInit | undefined): Headers | undefined {
  if (h === undefined) return undefined;
  const out = new Headers(h);
  if (!out.has('content-length')) return undefined;
  out.delete('content-length');
  return out;
}

function sendRecorded(
  ctx: CallContext,
  ep: Endpoint,
  outcome: RecordOutcome,
  init: RequestInit | undefined,
  body: unknown,
  result: CheckResult,
  repaired?: { changes: LabelledChange[]; original: unknown },
): Promise<Response> {
  const res = send(ctx, init);
  if (!ctx.writer) return res;
  const line = baseLine(ctx, ep.id, outcome, init, body, result);
  if (repaired) line.repair = repaired;
  return tracked(ctx.writer, line, res);
}

function baseLine(
  ctx: CallContext,
  endpoint: string,
  outcome: RecordOutcome,
  init: RequestInit | undefined,
  body: unknown,
  result: CheckResult | null,
): RecordLine {
  const request: RecordLine['request'] = {
    method: (init?.method ?? (isRequest(ctx.input) ? ctx.input.method : 'GET')).toUpperCase(),
    headers: safeHeaders(init?.headers ?? (isRequest(ctx.input) ? ctx.input.headers : undefined)),
  };
  if (body !== undefined) request.body = body;
  return {
    schema: RECORD_SCHEMA,
    v: RECORD_VERSION,
    time: new Date().toISOString(),
    url: safeUrl(ctx.url),
    endpoint,
    outcome,
    request,
    verdict: result ? recordedVerdict(result) : null,
  };
}

/**
 * The answer, recorded: its status at once; for a non-2xx answer its error body, read from a
 * clone after the answer is handed back (the caller is not delayed; a 2xx body is never read).
 */
function tracked(
  writer: RecordWriter,
  line: RecordLine,
  res: Promise<Response>,
): Promise<Response> {
  return res.then(
    (r) => {
      const streamed = /event-stream/i.test(r.headers.get('content-type') ?? '');
      if (r.ok || r.body === null) {
        line.response = { status: r.status, streamed };
        writer.write(line);
        return r;
      }
      let copy: Response;
      try {
        copy = r.clone();
      } catch {
        line.response = { status: r.status, streamed };
        writer.write(line);
        return r;
      }
      const reading = copy.text().then(
        (text) => {
          line.response = { status: r.status, streamed, error: jsonOrText(text) };
          writer.write(line);
        },
        (e: unknown) => {
          line.response = { status: r.status, streamed, error: `unread: ${String(e)}` };
          writer.write(line);
        },
      );
      writer.hold(reading);
      return r;
    },
    (e: unknown) => {
      line.response = { failed: e instanceof Error ? e.message : String(e) };
      writer.write(line);
      throw e;
    },
  );
}

/** The provider's answer to the request, as a `Response` (respond mode). */
function providerResponse(result: CheckResult): Response {
  const headers = new Headers({
    'content-type': 'application/json',
    'x-transcript-inspector': 'not-sent',
  });
  // The AWS SDK and the Anthropic SDK's Bedrock client name the error from this header, as
  // Bedrock sends it for Converse and for InvokeModel (Claude's Messages body) alike.
  if (result.provider === 'bedrock' || result.provider === 'anthropic-bedrock')
    headers.set('x-amzn-errortype', 'ValidationException');
  return new Response(JSON.stringify(result.firstError), {
    status: result.firstViolation?.status ?? 400,
    headers,
  });
}
