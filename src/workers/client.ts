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
 * transcripts the answer resolves once the worker's eviction parts arrived and were adopted
 * (state/eviction.ts `adoptEvictionParts`), so the simulator never validates on the page; the
 * worker then sweeps every policy for each token table it sent and the client hands the sweeps to
 * `adoptSweep` (the client is the page's `SweepSource`: it asks for sweeps with other options).
 */
import type { TokenTable } from '../model/tokens.ts';
import type { Exchange } from '../model/exchanges.ts';
import type { ToolPair } from '../model/pairing.ts';
import type { Message, ProviderId, Transcript, UsageRecord } from '../model/types.ts';
import { parseDocument } from '../model/parse/index.ts';
import { analyze } from '../model/analyze.ts';
import {
  adoptCutMarkers,
  adoptEvictionParts,
  adoptSweep,
  setSweepSource,
  sweepSourceChanged,
} from '../state/eviction.ts';
import { adoptPairTables } from '../state/selectors.ts';
import { unpackEvictionParts } from './evictionParts.ts';
import { inspect } from './inspect.ts';
import { joinLists, joinTranscript, unpackMessages } from './pack.ts';
import type {
  InspectRequest,
  Inspection,
  LoadProgress,
  SweepRequest,
  WorkerRequest,
  WorkerResponse,
} from './protocol.ts';
import { readBlobSource } from './stream.ts';
import workerUrl from './inspect.worker.ts?worker&url';

export type { InspectRequest, Inspection, LoadProgress } from './protocol.ts';

/** What a caller hears while a request runs (all optional). */
export interface InspectListener {
  progress?: (p: LoadProgress) => void;
  /** The first messages of a streamed log, analysed on their own, with chars/4 tokens. */
  preview?: (r: Inspection, tokens: TokenTable | null) => void;
  /** A token table for a transcript the answer carries (chars/4 at once, the BPE's later). */
  tokens?: (t: Transcript, provider: ProviderId, table: TokenTable) => void;
}

export interface InspectClient {
  /** Parse and analyse off the main thread. Never rejects: failures are `{ok: false}`. */
  inspect: (req: InspectRequest, listener?: InspectListener) => Promise<Inspection>;
  /** Stop the running request now; it resolves as cancelled (`CANCELLED`). */
  cancel: () => void;
  /**
   * Make sure the exact token table of `t`, a transcript the page shows, comes: after a request
   * failed or was cancelled, the count that was running for `t` may have been dropped (a newer
   * request made it stale; a cancel stopped the worker). `req` is the request whose answer `t`
   * is (same provider). When the worker still holds `t` as its last answer it counts it on its
   * own after a failure (run.ts); otherwise `req` is parsed again in the worker, only for its
   * counts, and the exact table reaches `listener.tokens` with `t`. Nothing is resolved; a newer
   * request supersedes it. A no-op on the synchronous client (the page counts there).
   * `provider` is the provider of the page's analysis of `t` (the one `req` resolved to).
   */
  recount: (
    req: InspectRequest,
    t: Transcript,
    provider: ProviderId,
    listener: InspectListener,
  ) => void;
  /** Stop the worker. */
  dispose: () => void;
}

/** The answer of a cancelled request. */
export const CANCELLED: Inspection = {
  ok: false,
  error: { kind: 'empty', message: 'Loading was cancelled.' },
};

/** True for the answer of a cancelled request. */
export function isCancelled(r: Inspection): boolean {
  return r === CANCELLED;
}

/** Inspect a file on the calling thread (the fallback for `req.file`). */
async function inspectFileSync(
  req: InspectRequest,
  listener?: InspectListener,
): Promise<Inspection> {
  const file = req.file as Blob;
  const src = await readBlobSource(file, req.name, (bytes, records) =>
    listener?.progress?.({
      phase: 'read',
      bytes,
      totalBytes: file.size,
      messages: records,
      totalMessages: null,
    }),
  );
  if (!src.ok) return { ok: false, error: src.error };
  try {
    const p = parseDocument(src.value.doc, {
      ...(req.format ? { format: req.format } : {}),
      ...(req.name ? { name: req.name } : {}),
      ...(req.requestIndex !== undefined ? { requestIndex: req.requestIndex } : {}),
    });
    if (!p.ok) return p;
    return {
      ok: true,
      parsed: p.value,
      analysis: analyze(p.value.transcript, req.provider ?? undefined),
    };
  } catch (e) {
    return {
      ok: false,
      error: {
        kind: 'shape',
        message: `Analysis failed on this input: ${e instanceof Error ? e.message : String(e)}`,
      },
    };
  }
}

/** A client that runs on the calling thread (tests, fallback). */
export function createSyncClient(): InspectClient {
  return {
    inspect: (req, listener) =>
      req.file ? inspectFileSync(req, listener) : Promise.resolve(inspect(req)),
    cancel: () => {},
    recount: () => {},
    dispose: () => {},
  };
}

const fileKeys = new WeakMap<Blob, number>();
let nextFileKey = 1;
function fileKey(b: Blob): number {
  let k = fileKeys.get(b);
  if (k === undefined) {
    k = nextFileKey++;
    fileKeys.set(b, k);
  }
  return k;
}

/**
 * Start the worker from a `blob:` URL whose one line imports the built worker script. A worker
 * loaded from its own URL is governed by that response's headers, and a plain static host sends
 * no Content-Security-Policy; a worker from a local-scheme (`blob:`) URL inherits the policy of
 * the document that creates it (CSP 3, "Initialize a Worker's policy container"), the `<meta>`
 * policy included. So the code that parses untrusted text runs under the page's policy on any
 * host (issue 14). The import is same-origin, which `script-src 'self'` allows.
 */
function spawn(): Worker | null {
  try {
    const base = typeof location === 'undefined' ? import.meta.url : location.href;
    const script = new URL(workerUrl, base).href;
    const blob = new Blob([`import ${JSON.stringify(script)};\n`], { type: 'text/javascript' });
    const url = URL.createObjectURL(blob);
    const w = new Worker(url, { type: 'module', name: 'inspect' });
    // The script is fetched asynchronously once the worker starts: revoke the URL well after.
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
    return w;
  } catch {
    return null;
  }
}

/**
 * A client backed by a module worker, falling back to the synchronous path if the worker cannot
 * be created or crashes.
 */
export function createWorkerClient(): InspectClient {
  if (typeof Worker === 'undefined') return createSyncClient();
  let worker: Worker | null = spawn();
  if (!worker) return createSyncClient();
  const sync = createSyncClient();
  interface Pending {
    req: InspectRequest;
    resolve: (r: Inspection) => void;
    listener: InspectListener | undefined;
    messages: Message[];
    /** Pairs and exchanges posted in batches (`lists`). */
    pairs: ToolPair[];
    exchanges: Exchange[];
    usage: UsageRecord[];
    /** The joined answer, held until its eviction parts arrive (`evictionFollows`). */
    joined?: Inspection;
    /** Set for `recount`: the page's transcript for this parse (the messages sent are dropped). */
    recount?: Transcript;
  }
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let broken = false;
  /** The transcript of the last fresh answer, reused when the worker says the parse is the same. */
  let held: { parseId: number; transcript: Transcript; provider: ProviderId } | null = null;
  /** Token tables the worker sent, by object: its number for them and their parse. */
  const tableSeqs = new WeakMap<TokenTable, { seq: number; parseId: number }>();
  const tablesBySeq = new Map<number, TokenTable>();
  /** The parse and provider whose eviction parts the worker holds (it sweeps only for them). */
  let sweepable: { parseId: number; provider: ProviderId } | null = null;
  /** Sweeps asked for and not answered yet (`seq|options`), so a render asks once. */
  const asked = new Set<string>();
  const noteTable = (table: TokenTable, seq: number | undefined, parseId: number) => {
    if (seq === undefined) return;
    tableSeqs.set(table, { seq, parseId });
    tablesBySeq.set(seq, table);
  };
  const forgetSweeps = () => {
    sweepable = null;
    tablesBySeq.clear();
    asked.clear();
    // A sweep the page waits for will not come: selectSweep computes it on the page instead.
    sweepSourceChanged();
  };

  const onMessage = (ev: MessageEvent<WorkerResponse>) => {
    const msg = ev.data;
    if (msg.kind === 'sweep') {
      const table = tablesBySeq.get(msg.tableSeq);
      asked.delete(`${msg.tableSeq}|${JSON.stringify(msg.options)}`);
      if (!table) return;
      if (msg.sweeps) adoptSweep(table, msg.provider, msg.options, msg.sweeps);
      else {
        // The worker could not sweep: the page sweeps this table itself.
        tableSeqs.delete(table);
        sweepSourceChanged();
      }
      return;
    }
    const p = pending.get(msg.id);
    if (msg.kind === 'tokens') {
      // Arrives after the answer resolved: attach it to the transcript the page holds.
      if (held && held.parseId === msg.parseId) {
        noteTable(msg.tokens, msg.tableSeq, msg.parseId);
        lastListener?.tokens?.(held.transcript, msg.provider, msg.tokens);
      }
      return;
    }
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
        for (const m of unpackMessages(msg.messages)) p.messages.push(m);
        return;
      case 'lists':
        if (p.recount) return;
        for (const x of msg.pairs) p.pairs.push(x);
        for (const x of msg.exchanges) p.exchanges.push(x);
        for (const x of msg.usage) p.usage.push(x);
        return;
      case 'result': {
        if (p.recount) {
          // The page keeps its transcript: the worker's tables for this parse are for it.
          pending.delete(msg.id);
          if (msg.result.ok) {
            held = {
              parseId: msg.parseId,
              transcript: p.recount,
              provider: msg.result.analysis.provider,
            };
            forgetSweeps();
          }
          p.resolve(msg.result);
          return;
        }
        const reuse = !msg.fresh && held && held.parseId === msg.parseId ? held.transcript : null;
        const bytes = msg.textBytes;
        const source = bytes
          ? {
              // Decoded only when the transcript's raw is read (joinTranscript's lazy getter).
              get text() {
                return new TextDecoder().decode(bytes);
              },
              name: p.req.name,
              format: p.req.format,
              streamed: true,
            }
          : { text: p.req.text, name: p.req.name, format: p.req.format };
        const r = joinTranscript(
          msg.lists ? joinLists(msg.result, p.pairs, p.exchanges, p.usage) : msg.result,
          p.messages,
          source,
          reuse,
        );
        if (r.ok) {
          if (msg.pairTables) adoptPairTables(r.analysis, msg.pairTables);
          held = {
            parseId: msg.parseId,
            transcript: r.analysis.transcript,
            provider: r.analysis.provider,
          };
          forgetSweeps();
          if (msg.tokens) {
            noteTable(msg.tokens, msg.tableSeq, msg.parseId);
            p.listener?.tokens?.(r.analysis.transcript, r.analysis.provider, msg.tokens);
          }
          if (msg.evictionFollows) {
            // The worker is preparing the simulator's O(n) stage; answer when it arrives, so the
            // page never prepares it on its own thread (issue 7: a 1–3 s freeze at 100k messages).
            pending.set(msg.id, { ...p, joined: r });
            return;
          }
        }
        pending.delete(msg.id);
        p.resolve(r);
        return;
      }
      case 'eviction': {
        const r = p.joined;
        if (!r) return;
        pending.delete(msg.id);
        if (r.ok && msg.parts) {
          const parts = unpackEvictionParts(msg.parts, r.analysis.transcript, r.analysis.grouping);
          adoptEvictionParts(r.analysis.transcript, msg.provider, parts);
          if (msg.safe) adoptCutMarkers(parts.cuts, msg.safe);
          if (msg.parts.cuts.fast)
            sweepable = { parseId: held?.parseId ?? -1, provider: msg.provider };
        }
        p.resolve(r);
        return;
      }
    }
  };
  let lastListener: InspectListener | undefined;
  const onError = () => {
    // The worker died (or its script failed to load): answer everything on the main thread.
    broken = true;
    forgetSweeps();
    for (const [id, p] of pending) {
      pending.delete(id);
      void sync.inspect(p.req, p.listener).then(p.resolve);
    }
  };
  /**
   * An answer the page could not deserialise (structured clone failed on this side): the request
   * it belonged to cannot complete, so every pending request is answered with an error (the page
   * keeps what it shows) instead of waiting forever (issue 14).
   */
  const onMessageError = () => {
    for (const [id, p] of pending) {
      pending.delete(id);
      p.resolve({
        ok: false,
        error: {
          kind: 'shape',
          message:
            'The worker’s answer could not be received by the page (it could not be copied across threads). Nothing of this input was loaded.',
        },
      });
    }
  };
  const attach = (w: Worker) => {
    w.onmessage = onMessage;
    w.onerror = onError;
    w.onmessageerror = onMessageError;
  };
  attach(worker);
  setSweepSource({
    has: (table, provider) => {
      const s = tableSeqs.get(table);
      return (
        !broken &&
        s !== undefined &&
        sweepable !== null &&
        sweepable.parseId === s.parseId &&
        sweepable.provider === provider &&
        tablesBySeq.get(s.seq) === table
      );
    },
    request: (table, provider, options) => {
      const s = tableSeqs.get(table);
      if (!worker || !s) return;
      const key = `${s.seq}|${JSON.stringify(options)}`;
      if (asked.has(key)) return;
      asked.add(key);
      const msg: SweepRequest = {
        kind: 'sweep',
        parseId: s.parseId,
        provider,
        tableSeq: s.seq,
        options,
      };
      worker.postMessage(msg);
    },
  });
  /** The worker, started again after a cancel; null when it cannot start (then `broken`). */
  const live = (): Worker | null => {
    if (!worker) {
      worker = spawn();
      if (!worker) {
        broken = true;
        return null;
      }
      attach(worker);
      held = null;
      forgetSweeps();
    }
    return worker;
  };
  const send = (
    w: Worker,
    req: InspectRequest,
    listener: InspectListener | undefined,
    resolve: (r: Inspection) => void,
    recount?: Transcript,
  ) => {
    const id = nextId++;
    lastListener = listener;
    pending.set(id, {
      req,
      resolve,
      listener,
      messages: [],
      pairs: [],
      exchanges: [],
      usage: [],
      ...(recount ? { recount } : {}),
    });
    const msg: WorkerRequest = { id, req, ...(req.file ? { fileKey: fileKey(req.file) } : {}) };
    w.postMessage(msg);
  };
  return {
    inspect: (req, listener) => {
      const w = broken ? null : live();
      if (!w) return sync.inspect(req, listener);
      return new Promise<Inspection>((resolve) => send(w, req, listener, resolve));
    },
    recount: (req, t, provider, listener) => {
      // The worker counts its last answer's transcript after a failed request (run.ts).
      if (broken || (worker && held?.transcript === t && held.provider === provider)) return;
      const w = live();
      if (w) send(w, req, listener, () => {}, t);
    },
    cancel: () => {
      if (!worker) return;
      worker.terminate();
      worker = null;
      held = null;
      forgetSweeps();
      for (const [id, p] of pending) {
        pending.delete(id);
        p.resolve(CANCELLED);
      }
    },
    dispose: () => worker?.terminate(),
  };
}
