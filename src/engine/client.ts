/// <reference types="vite/client" />
/**
 * The page's only door to parsing and analysis. Requests go to a module worker; when workers are
 * unavailable (tests, old browsers, a worker that failed to start) the same work runs
 * synchronously on the main thread. Only the latest request's answer matters: older answers
 * resolve too, and the caller drops them by comparing requests.
 *
 * Large files (issue 7) are streamed by the worker: the listener hears progress, a preview of
 * the first rows, and token tables (chars/4 with the answer, the exact BPE count later).
 * `cancel()` stops the worker at once (it is restarted for the next request). For long
 * transcripts the answer resolves at once (issue 38: the verdict, rows, arcs and token counts
 * first), the sink the client was made with (sink.ts; on the page, the session's) told that the
 * worker's eviction parts follow, and adopts them when they arrive, so the simulator never
 * validates on the page; the worker then sweeps every policy for each token table it sent
 * and the client hands the sweeps to the sink (the client is the page's `SweepSource`: it asks
 * for sweeps with other options, clientSweeps.ts).
 */
import type { Exchange } from '../model/exchanges.ts';
import { parserFor } from '../model/parse/registry.ts';
import type { ToolPair } from '../model/pairing.ts';
import type { Message, ProviderId, Transcript, UsageRecord } from '../model/types.ts';
import { CANCELLED, type InspectClient, type InspectListener } from './clientApi.ts';
import { ClientSweeps } from './clientSweeps.ts';
import { unpackEvictionParts } from './evictionParts.ts';
import { joinFaults, joinLists, joinTranscript } from './pack.ts';
import { unpackLists } from './packLists.ts';
import { unpackMessages, type SourceBytes } from './packMessages.ts';
import { SpanReader } from './sourceReader.ts';
import type { InspectRequest, Inspection, WorkerRequest, WorkerResponse } from './protocol.ts';
import { NO_SINK, type AnswerSink } from './sink.ts';
import { createSyncClient } from './syncClient.ts';
import workerUrl from './inspect.worker.ts?worker&url';
import { spawnWorker } from './spawn.ts';

export { structureCopyOffThread } from './shareCopyClient.ts';
export { scanFleetFiles, type FleetFile, type FleetScanProgress } from './fleetScanClient.ts';

export { CANCELLED, isCancelled, type InspectClient, type InspectListener } from './clientApi.ts';
export type { InspectRequest, Inspection, LoadProgress } from './protocol.ts';
export { createSyncClient } from './syncClient.ts';
export { textPending, textsPending } from './lazyMessage.ts';

/** A request in flight, with what its answer has brought so far. */
interface Pending {
  req: InspectRequest;
  resolve: (r: Inspection) => void;
  listener: InspectListener | undefined;
  messages: Message[];
  /** The file's bytes once the answer brings them (messages may name their raw by spans). */
  source: SourceBytes;
  /** Pairs and exchanges posted in batches (`lists`). */
  pairs: ToolPair[];
  exchanges: Exchange[];
  usage: UsageRecord[];
  /** The answer (resolved already) whose eviction parts are still to come (`evictionFollows`). */
  joined?: Inspection;
  /** Set for `recount`: the page's transcript for this parse (the messages sent are dropped). */
  recount?: Transcript;
}

type Answer<K extends WorkerResponse['kind']> = Extract<WorkerResponse, { kind: K }>;

/** The worker client (see the file comment); falls back to `sync` when the worker fails. */
class WorkerClient implements InspectClient {
  private worker: Worker | null;
  private readonly sync = createSyncClient();
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private broken = false;
  /** The transcript of the last fresh answer, reused when the worker says the parse is the same. */
  private held: { parseId: number; transcript: Transcript; provider: ProviderId } | null = null;
  private lastListener: InspectListener | undefined;
  private readonly sweeps: ClientSweeps;
  private readonly sink: AnswerSink;
  /** The client's number for each file it sent (the worker keeps a file's reader by it). */
  private readonly fileKeys = new WeakMap<Blob, number>();
  private nextFileKey = 1;

  constructor(worker: Worker, sink: AnswerSink) {
    this.worker = worker;
    this.sink = sink;
    this.sweeps = new ClientSweeps(
      sink,
      () => this.worker,
      () => this.broken,
    );
    this.attach(worker);
    sink.sweepSource(this.sweeps.source());
  }

  private attach(w: Worker): void {
    w.onmessage = (ev: MessageEvent<WorkerResponse>) => this.onMessage(ev.data);
    w.onerror = () => this.onError();
    w.onmessageerror = () => this.onMessageError();
  }

  private onMessage(msg: WorkerResponse): void {
    if (msg.kind === 'sweep') return this.sweeps.onSweep(msg);
    if (msg.kind === 'tokens') {
      // Arrives after the answer resolved: attach it to the transcript the page holds.
      const held = this.held;
      if (held && held.parseId === msg.parseId) {
        this.sweeps.note(msg.tokens, msg.tableSeq, msg.parseId);
        this.lastListener?.tokens?.(held.transcript, msg.provider, msg.tokens);
      }
      return;
    }
    if (msg.kind === 'requests') {
      if (this.held?.parseId === msg.parseId) this.sink.requests(msg.requests);
      return;
    }
    const p = this.pending.get(msg.id);
    if (!p) return;
    switch (msg.kind) {
      case 'progress':
        p.listener?.progress?.(msg.progress);
        return;
      case 'preview':
        p.listener?.preview?.(msg.result, msg.tokens);
        return;
      case 'messages':
        if (p.recount) return;
        for (const m of unpackMessages(msg.messages, p.source, parserFor(msg.format)?.blocksOf))
          p.messages.push(m);
        return;
      case 'lists': {
        if (p.recount) return;
        const lists = unpackLists(msg.lists);
        for (const x of lists.pairs) p.pairs.push(x);
        for (const x of lists.exchanges) p.exchanges.push(x);
        for (const x of lists.usage) p.usage.push(x);
        return;
      }
      case 'result':
        return p.recount ? this.onRecounted(msg, p, p.recount) : this.onResult(msg, p);
      case 'eviction':
        return this.onEviction(msg, p);
    }
  }

  /** A recount's answer: the page keeps its transcript; the worker's tables for this parse are for it. */
  private onRecounted(msg: Answer<'result'>, p: Pending, transcript: Transcript): void {
    this.pending.delete(msg.id);
    if (msg.result.ok) {
      this.held = { parseId: msg.parseId, transcript, provider: msg.result.analysis.provider };
      this.sweeps.forget();
    }
    p.resolve(msg.result);
  }

  /** An answer: join the messages and lists sent before it, hand its side results to the sink. */
  private onResult(msg: Answer<'result'>, p: Pending): void {
    const held = this.held;
    const reuse = !msg.fresh && held && held.parseId === msg.parseId ? held.transcript : null;
    const bytes = msg.textBytes;
    p.source.bytes = bytes ?? null;
    const file = msg.spansInFile ? p.req.file : undefined;
    // The messages' spans are read from the file (issue 38): the page draws again as they come.
    const src = p.source;
    if (file)
      src.reader = new SpanReader(file, () => {
        const missed = src.missed === true;
        src.missed = false;
        this.sink.sourceRead(missed);
      });
    const source =
      bytes || file
        ? {
            // Decoded only when the transcript's raw is read (joinTranscript's lazy getter), from
            // the bytes the answer brought or the file's bytes while `withFileBytes` holds them.
            get text() {
              return src.bytes ? new TextDecoder().decode(src.bytes) : null;
            },
            name: p.req.name,
            format: p.req.format,
            streamed: true,
          }
        : { text: p.req.text, name: p.req.name, format: p.req.format };
    const r = joinFaults(
      joinTranscript(
        msg.lists ? joinLists(msg.result, p.pairs, p.exchanges, p.usage) : msg.result,
        p.messages,
        source,
        reuse,
      ),
      msg.faults,
    );
    if (r.ok) {
      if (msg.pairTables) this.sink.pairTables(r.analysis, msg.pairTables);
      if (file && !reuse) this.sink.fileSource(r.analysis.transcript, src);
      // A new parse's strip comes after it (a `requests` message) or not at all.
      if (!msg.requestsFollow) this.sink.requests(null);
      this.held = {
        parseId: msg.parseId,
        transcript: r.analysis.transcript,
        provider: r.analysis.provider,
      };
      this.sweeps.forget();
      if (msg.tokens) {
        this.sweeps.note(msg.tokens, msg.tableSeq, msg.parseId);
        p.listener?.tokens?.(r.analysis.transcript, r.analysis.provider, msg.tokens);
      }
      if (msg.evictionFollows) {
        // The worker prepares the simulator's O(n) stage after the answer: answer now (the
        // verdict, rows, arcs and counts do not wait for it), tell the sink that the parts
        // follow, so the page never prepares them on its own thread (issue 7: a 1–3 s freeze
        // at 100k messages), and keep the request to adopt them (`onEviction`).
        this.sink.evictionFollows(r.analysis.transcript, r.analysis.provider, true);
        this.pending.set(msg.id, { ...p, joined: r });
        p.resolve(r);
        return;
      }
    }
    this.pending.delete(msg.id);
    p.resolve(r);
  }

  /** The eviction parts of an answer already given: hand them to the sink. */
  private onEviction(msg: Answer<'eviction'>, p: Pending): void {
    const r = p.joined;
    if (!r) return;
    this.pending.delete(msg.id);
    if (!r.ok) return;
    const t = r.analysis.transcript;
    if (msg.parts) {
      const parts = unpackEvictionParts(msg.parts, t, r.analysis.grouping);
      this.sink.evictionParts(t, msg.provider, parts, msg.safe ?? null);
      if (msg.parts.cuts.fast) this.sweeps.markSweepable(this.held?.parseId ?? -1, msg.provider);
    }
    this.sink.evictionFollows(t, r.analysis.provider, false);
  }

  /** Answers given whose eviction parts will not come now (a cancel, a dead worker). */
  private dropFollowing(): void {
    for (const [id, p] of this.pending) {
      const r = p.joined;
      if (!r) continue;
      this.pending.delete(id);
      if (r.ok) this.sink.evictionFollows(r.analysis.transcript, r.analysis.provider, false);
    }
  }

  /** The worker died (or its script failed to load): answer everything on the main thread. */
  private onError(): void {
    this.broken = true;
    this.sweeps.forget();
    this.dropFollowing();
    for (const [id, p] of this.pending) {
      this.pending.delete(id);
      void this.sync.inspect(p.req, p.listener).then(p.resolve);
    }
  }

  /**
   * An answer the page could not deserialise (structured clone failed on this side): the request
   * it belonged to cannot complete, so every pending request is answered with an error (the page
   * keeps what it shows) instead of waiting forever (issue 14).
   */
  private onMessageError(): void {
    this.dropFollowing();
    for (const [id, p] of this.pending) {
      this.pending.delete(id);
      p.resolve({
        ok: false,
        error: {
          kind: 'shape',
          message:
            'The worker’s answer could not be received by the page (it could not be copied across threads). Nothing of this input was loaded.',
        },
      });
    }
  }

  /** The worker, started again after a cancel; null when it cannot start (then `broken`). */
  private live(): Worker | null {
    if (!this.worker) {
      this.worker = spawnWorker(workerUrl, 'inspect');
      if (!this.worker) {
        this.broken = true;
        return null;
      }
      this.attach(this.worker);
      this.held = null;
      this.sweeps.forget();
    }
    return this.worker;
  }

  private fileKey(b: Blob): number {
    let k = this.fileKeys.get(b);
    if (k === undefined) {
      k = this.nextFileKey++;
      this.fileKeys.set(b, k);
    }
    return k;
  }

  private send(
    w: Worker,
    req: InspectRequest,
    listener: InspectListener | undefined,
    resolve: (r: Inspection) => void,
    recount?: Transcript,
  ): void {
    const id = this.nextId++;
    this.lastListener = listener;
    this.pending.set(id, {
      req,
      resolve,
      listener,
      messages: [],
      source: { bytes: null },
      pairs: [],
      exchanges: [],
      usage: [],
      ...(recount ? { recount } : {}),
    });
    const msg: WorkerRequest = {
      id,
      req,
      ...(req.file ? { fileKey: this.fileKey(req.file) } : {}),
    };
    w.postMessage(msg);
  }

  readonly inspect: InspectClient['inspect'] = (req, listener) => {
    const w = this.broken ? null : this.live();
    if (!w) return this.sync.inspect(req, listener);
    return new Promise<Inspection>((resolve) => this.send(w, req, listener, resolve));
  };

  readonly recount: InspectClient['recount'] = (req, t, provider, listener) => {
    // The worker counts its last answer's transcript after a failed request (run.ts).
    const held = this.held;
    if (this.broken || (this.worker && held?.transcript === t && held.provider === provider))
      return;
    const w = this.live();
    if (w) this.send(w, req, listener, () => {}, t);
  };

  readonly cancel: InspectClient['cancel'] = () => {
    if (!this.worker) return;
    this.worker.terminate();
    this.worker = null;
    this.held = null;
    this.sweeps.forget();
    this.dropFollowing();
    for (const [id, p] of this.pending) {
      this.pending.delete(id);
      p.resolve(CANCELLED);
    }
  };

  readonly dispose: InspectClient['dispose'] = () => this.worker?.terminate();
}

/**
 * A client backed by a module worker, falling back to the synchronous path if the worker cannot
 * be created or crashes.
 * @param sink where the worker's side results go (pair tables, eviction parts, sweeps); on the
 *   page, the session (state/session/). Default: kept nowhere.
 */
export function createWorkerClient(sink: AnswerSink = NO_SINK): InspectClient {
  if (typeof Worker === 'undefined') return createSyncClient();
  const worker = spawnWorker(workerUrl, 'inspect');
  if (!worker) return createSyncClient();
  return new WorkerClient(worker, sink);
}
