/**
 * The session: the one owner of what the page knows about what is loaded (issue 34). It reads the
 * store's inputs (the source, the format, the provider, the request of a file, the model), asks
 * the engine for their analysis (it holds the worker client), adopts what the engine hands back
 * beside the answer (pair tables, token tables, eviction parts and cut markers, sweeps: it is the
 * client's `AnswerSink`), keeps the load's progress, loads the exact tokenizer, and holds the memo
 * table of every selector (memo.ts). Listeners hear every change through one `subscribe`; React
 * reads it through one adapter (ui/useSession.ts, `useSyncExternalStore`), the way TanStack
 * Virtual's framework-free `Virtualizer` owns its state behind a small React adapter.
 *
 * The store (zustand) keeps only what the user chose (and the permalink); everything computed
 * from it is the session's: stored when the engine computed it, derived by memoised selectors
 * otherwise.
 */
import type { Analysis } from '../../model/analyze.ts';
import type { EvictionParts } from '../../model/evict/prepare.ts';
import type { CutContext } from '../../model/evict/simulate.ts';
import type { PolicySweep } from '../../model/evict/sweep.ts';
import type { PairTables } from '../../model/pairTables.ts';
import {
  CHARS_PER_4,
  loadBpeCounter,
  type TextCounter,
  type TokenTable,
} from '../../model/tokens.ts';
import type { ProviderId, Transcript } from '../../model/types.ts';
import {
  createWorkerClient,
  isCancelled,
  type InspectClient,
  type InspectListener,
  type InspectRequest,
  type LoadProgress,
} from '../../engine/client.ts';
import { refuseReason } from '../../engine/limits.ts';
import type { RequestsAnswer } from '../../engine/diffProtocol.ts';
import type { AnswerSink, SweepSource } from '../../engine/sink.ts';
import type { SourceBytes } from '../../engine/lazyMessage.ts';
import { withFileBytes } from '../../engine/sourceReader.ts';
import type { AppStore, Source } from '../store.ts';
import { AnswerSlot } from './answerSlot.ts';
import { MemoTable } from './memo.ts';
import {
  EMPTY_VIEW,
  nextView,
  recountShown,
  sameRequest,
  selectRequest,
  type InspectorView,
} from './view.ts';

/** The state of a streamed file load, for the progress bar. */
export interface LoadState {
  /** Name of the file being loaded. */
  name: string;
  /** Null until the worker's first report. */
  progress: LoadProgress | null;
  /** True while the rows shown are the preview of the first messages. */
  preview: boolean;
  /** Set when the file was refused before reading (too large): the reason. */
  refused: string | null;
  cancelled: boolean;
  /** True while the load runs. */
  active: boolean;
}

/** What the session knows now; a new object on every change (for `useSyncExternalStore`). */
export interface SessionSnapshot {
  /** The request the store's inputs make (`selectRequest`). */
  request: InspectRequest;
  /** The engine's answers as shown: the last good analysis and the current parse error. */
  view: InspectorView;
  /** The current file load, or null when the source is text. */
  load: LoadState | null;
  /** The request has text or a file and its answer is not shown yet. */
  pending: boolean;
  /**
   * The page's text counter: chars/4 until the exact o200k BPE has loaded (`startCounter`: only
   * where the page counts or fits placeholders itself, never for a transcript the worker counts).
   */
  counter: TextCounter;
  /** True once loading the exact counter failed (`counter` stays chars/4). */
  counterFailed: boolean;
  /** Changes each time the engine hands a side result (a token table, a sweep, a failure). */
  answers: number;
  /**
   * Changes each time message texts read from a large file arrive (issue 38): a row shown while
   * its text was being read draws again.
   */
  textRead: number;
  /**
   * The repaired transcript opened in place ("Open repaired here"): its name and the store's
   * `entrySeq` when opened, or null. Shown as such while that entry is the one on screen.
   */
  repaired: { name: string; seq: number } | null;
}

/** What the engine handed the page beside its answers, by the object each belongs to. */
export interface EngineAnswers {
  /** The pair tables the worker built for an analysis it sent. */
  pairTables: WeakMap<Analysis, PairTables>;
  /** Token tables per transcript, by `provider|encoding` (the worker's; never counted here). */
  tokens: WeakMap<Transcript, Map<string, TokenTable>>;
  /** Providers for which an exact (not chars/4) token table of a transcript arrived. */
  exactFor: WeakMap<Transcript, Set<ProviderId>>;
  /** The request whose answer each analysis shown is (to count it again). */
  answerOf: WeakMap<Analysis, InspectRequest>;
  /** Token-independent eviction stages (the worker's, or prepared once on the page), by provider. */
  evictionParts: WeakMap<Transcript, Map<ProviderId, EvictionParts>>;
  /**
   * Providers for which the worker is still preparing a transcript's eviction parts (they follow
   * its answer): the simulator shows itself as preparing until they arrive.
   */
  evictionPending: WeakMap<Transcript, Set<ProviderId>>;
  /** Cut markers the worker classified (`cutMarkers(cuts).safe`), by cut context. */
  cutMarkers: WeakMap<CutContext, Uint8Array>;
  /** Sweeps the worker computed, by token table, then `provider|sweepKey`. */
  sweeps: WeakMap<TokenTable, Map<string, PolicySweep[]>>;
  /** The worker client as the source of sweeps (null: none). */
  sweepSource: SweepSource | null;
  /**
   * The calls of the streamed session log shown, as the inspect worker lists them (a file too
   * large to read whole reaches no other worker), or null when what is shown is not one.
   */
  streamedListing: RequestsAnswer | null;
  /**
   * Where a large file's message texts are read from (the file itself: the page keeps no copy
   * of its bytes, issue 38), by transcript.
   */
  fileSources: WeakMap<Transcript, SourceBytes>;
}

/** The request before the session follows the store: no text, nothing to load. */
const NO_REQUEST: InspectRequest = { text: '', name: '', format: null, provider: null };

/** How a session gets its engine (the page: a worker client whose sink is the session). */
export type ClientFactory = (sink: AnswerSink) => InspectClient;

/** See the file comment. */
export class Session {
  /** The memo storage of every selector (memo.ts). */
  readonly memo = new MemoTable();
  readonly answers: EngineAnswers = {
    pairTables: new WeakMap(),
    tokens: new WeakMap(),
    exactFor: new WeakMap(),
    answerOf: new WeakMap(),
    evictionParts: new WeakMap(),
    evictionPending: new WeakMap(),
    cutMarkers: new WeakMap(),
    sweeps: new WeakMap(),
    sweepSource: null,
    streamedListing: null,
    fileSources: new WeakMap(),
  };
  /** The rows the user opened, per source (by identity), so a source shown again reopens them. */
  readonly openRows = new WeakMap<Source, ReadonlySet<number>>();
  /**
   * Documents the user opened (a paste, a drop, a file, a sample from the menu) while a provider
   * they chose was set: that choice was made for the transcript before, and is kept for this one
   * only if it fits it (ui/useCarriedProvider.ts). A link's or a lesson's provider is never here.
   */
  readonly providerCarried = new WeakSet<Source>();
  /**
   * The lesson step being applied while its sample loads (null when none): Learn mode's
   * Next/Previous count from it, and a later step supersedes it.
   */
  pendingLessonStep: string | null = null;
  private snap: SessionSnapshot;
  /** Worker answers asked one job at a time, by kind (`answerSlot`). */
  private readonly slots = new Map<symbol, unknown>();
  private readonly listeners = new Set<() => void>();
  private client: InspectClient | null = null;
  private readonly makeClient: ClientFactory;
  private readonly store: { getState: () => AppStore; subscribe: (l: () => void) => () => void };
  private unsubscribeStore: (() => void) | null = null;
  /** Counts requests run; an answer is used only while its request is the last one. */
  private runSeq = 0;
  /** The request whose whole answer is on screen (a failed, refused or cancelled one leaves it). */
  private answered: InspectRequest | null = null;
  private counterStarted = false;

  /**
   * @param store the app store whose inputs the session loads (read, never written)
   * @param makeClient the engine (default: a worker client, falling back to the page's thread)
   */
  constructor(
    store: { getState: () => AppStore; subscribe: (l: () => void) => () => void },
    makeClient: ClientFactory = createWorkerClient,
  ) {
    this.store = store;
    this.makeClient = makeClient;
    this.snap = {
      // The store's request is read on `connect` (the session may be the active one being made).
      request: NO_REQUEST,
      view: EMPTY_VIEW,
      load: null,
      pending: false,
      counter: CHARS_PER_4,
      counterFailed: false,
      answers: 0,
      textRead: 0,
      repaired: null,
    };
  }

  /**
   * Where the engine's side results go: into `answers`, each telling the listeners. The eviction
   * parts, sweeps and the request strip wait while the page draws a new answer (`afterDraw`).
   */
  readonly sink: AnswerSink = {
    pairTables: (a, tables) => {
      this.answers.pairTables.set(a, tables);
    },
    evictionParts: (t, provider, parts, safe) =>
      this.afterDraw(() => {
        let m = this.answers.evictionParts.get(t);
        if (!m) this.answers.evictionParts.set(t, (m = new Map()));
        m.set(provider, parts);
        if (safe && safe.length === parts.cuts.n + 1) this.answers.cutMarkers.set(parts.cuts, safe);
      }),
    // That parts follow is said at once (else the page would prepare them itself meanwhile).
    evictionFollows: (t, provider, follows) =>
      follows
        ? this.evictionFollows(t, provider, true)
        : this.afterDraw(() => this.evictionFollows(t, provider, false)),
    sweep: (table, provider, options, sweeps) =>
      this.afterDraw(() => {
        let m = this.answers.sweeps.get(table);
        if (!m) this.answers.sweeps.set(table, (m = new Map()));
        m.set(`${provider}|${sweepKey(options)}`, sweeps);
        this.answersChanged();
      }),
    sweepsChanged: () => this.afterDraw(() => this.answersChanged()),
    sweepSource: (src) => {
      this.answers.sweepSource = src;
    },
    fileSource: (t, source) => {
      this.answers.fileSources.set(t, source);
    },
    sourceRead: (missed) => {
      // A selector that read a message before its text came holds its empty blocks: compute
      // again (rows draw again through `textRead` alone).
      if (missed) this.memo.clear();
      this.set({ textRead: this.snap.textRead + 1 });
    },
    requests: (listing) =>
      this.afterDraw(() => {
        if (this.answers.streamedListing === listing) return;
        this.answers.streamedListing = listing;
        this.answersChanged();
      }),
  };

  /** `AnswerSink.evictionFollows`, applied. */
  private evictionFollows(t: Transcript, provider: ProviderId, follows: boolean): void {
    let m = this.answers.evictionPending.get(t);
    if (follows) {
      if (!m) this.answers.evictionPending.set(t, (m = new Set()));
      m.add(provider);
      return;
    }
    if (!m?.delete(provider)) return;
    // The simulator shows now (with the parts, or prepared here when they did not come).
    this.answersChanged();
  }

  /**
   * Whether side results wait for the page to draw a new answer (`holdSideResults`), the view
   * it last drew (`drawn`), and what waits.
   */
  private readonly draw = {
    hold: false,
    drawnView: null as SessionSnapshot['view'] | null,
    waiting: [] as (() => void)[],
  };

  /**
   * Apply a side result now, or, while the page holds them and has not drawn the current view
   * yet, once it has (issue 38): each one re-renders the page at once (the session is read
   * through useSyncExternalStore), which restarts the deferred render of a large answer in
   * progress, so the answer of the 115 MB log was shown only after the worker's eviction parts,
   * first sweep and request strip had all come.
   */
  private afterDraw(apply: () => void): void {
    if (this.draw.hold && this.snap.view !== this.draw.drawnView) this.draw.waiting.push(apply);
    else apply();
  }

  /**
   * While `on` (the page, mounted), the eviction parts, sweeps and request strip that arrive
   * before the page drew the current view wait for `drawn`; off: what waits is applied.
   */
  holdSideResults(on: boolean): void {
    this.draw.hold = on;
    if (!on) this.applyWaiting();
  }

  /**
   * The page drew `view` (the answer shown, its deferred render caught up): what waited is
   * applied when it is still the current view.
   */
  drawn(view: SessionSnapshot['view']): void {
    this.draw.drawnView = view;
    if (view === this.snap.view) this.applyWaiting();
  }

  private applyWaiting(): void {
    const waiting = this.draw.waiting;
    if (waiting.length === 0) return;
    this.draw.waiting = [];
    for (const apply of waiting) apply();
  }

  /** The current snapshot (the same object until something changes). */
  readonly getSnapshot = (): SessionSnapshot => this.snap;

  /**
   * Hear every change; the first listener connects the session to the store (and so starts
   * loading what it holds). Returns the unsubscribe.
   */
  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    this.connect();
    return () => this.listeners.delete(listener);
  };

  /** Follow the store's inputs: each new request is loaded (idempotent). */
  connect(): void {
    if (this.unsubscribeStore) return;
    this.unsubscribeStore = this.store.subscribe(() => this.follow());
    this.follow(true);
  }

  /** Stop following the store and stop the engine. */
  dispose(): void {
    this.unsubscribeStore?.();
    this.unsubscribeStore = null;
    this.client?.dispose();
    this.client = null;
  }

  /**
   * The session's slot for one kind of worker answer (made on first use), asked by `run`.
   * @param kind names the kind (one symbol per kind, the asking module's)
   */
  answerSlot<J extends object, V>(kind: symbol, run: (job: J) => Promise<V>): AnswerSlot<J, V> {
    const held = this.slots.get(kind) as AnswerSlot<J, V> | undefined;
    if (held) return held;
    const slot = new AnswerSlot(run);
    this.slots.set(kind, slot);
    return slot;
  }

  /** Note that the source just opened (entry `seq` of the store) is the repaired transcript `name`. */
  noteRepaired(name: string, seq: number): void {
    this.set({ repaired: { name, seq } });
  }

  /**
   * Run `fn` with every message text of transcript `t` at hand (issue 38): for a large file whose
   * texts are read from the file, its bytes are read once for `fn` and dropped after; else `fn`
   * runs at once. For what reads every message or the transcript's own raw (its export).
   * @throws what reading the file throws (moved or changed since it was opened)
   */
  withSourceText<T>(t: Transcript, fn: () => T): Promise<T> {
    return withFileBytes(this.answers.fileSources.get(t), fn);
  }

  /** Stop the current load (the page keeps what it showed before). */
  readonly cancelLoad = (): void => this.engine().cancel();

  /**
   * Load the exact o200k BPE counter on the page (once). Only what needs it asks: a transcript the
   * page counts itself (`countsOnPage`: the engine ran on the page's thread) and the share panel,
   * whose structure-only copy fits placeholders to exact counts. A transcript the worker counts
   * never loads it (issue 38: its tables, ~20 MiB, were held on the page beside the worker's during
   * a large file's load). Until it loads, and if it fails, the counter is chars/4 (labelled).
   */
  startCounter(): void {
    if (this.counterStarted) return;
    this.counterStarted = true;
    loadBpeCounter('o200k_base')
      .then((counter) => this.set({ counter }))
      .catch(() => {
        // Keep the chars/4 estimate (it is labelled as such).
        this.set({ counterFailed: true });
      });
  }

  /**
   * Record a token table for a transcript (the worker's: `primeTokens`); notes which transcripts
   * have their exact table. Does not tell listeners (the caller does).
   */
  primeTokens(t: Transcript, provider: ProviderId, table: TokenTable): void {
    let m = this.answers.tokens.get(t);
    if (!m) this.answers.tokens.set(t, (m = new Map()));
    m.set(`${provider}|${table.basis.encoding}`, table);
    if (table.basis.encoding === CHARS_PER_4.encoding) return;
    let s = this.answers.exactFor.get(t);
    if (!s) this.answers.exactFor.set(t, (s = new Set()));
    s.add(provider);
  }

  private engine(): InspectClient {
    this.client ??= this.makeClient(this.sink);
    return this.client;
  }

  private answersChanged(): void {
    this.set({ answers: this.snap.answers + 1 });
  }

  private set(patch: Partial<SessionSnapshot>): void {
    const prev = this.snap;
    const next = { ...prev, ...patch };
    const { request, view } = next;
    next.pending =
      (request.text.length > 0 || request.file !== undefined) && view.request !== request;
    this.snap = next;
    for (const l of [...this.listeners]) l();
    if (next.view !== prev.view || next.request !== prev.request) this.recountShown();
  }

  private setLoad(f: (l: LoadState | null) => LoadState | null): void {
    const load = f(this.snap.load);
    if (load !== this.snap.load) this.set({ load });
  }

  /** A token table arrived: keep it and draw again. */
  private readonly onTokens: NonNullable<InspectListener['tokens']> = (t, provider, table) => {
    this.primeTokens(t, provider, table);
    this.answersChanged();
  };

  private follow(first = false): void {
    const request = selectRequest(this.store.getState());
    if (!first && request === this.snap.request) return;
    this.load(request);
  }

  /**
   * Load a request: parse the store's text (or stream its file) in the worker; keep the last good
   * transcript while the new text fails to parse. A later request makes this one's answer stale.
   */
  private load(request: InspectRequest): void {
    const seq = ++this.runSeq;
    const live = () => seq === this.runSeq;
    if (request.text.length === 0 && !request.file) return this.set({ request });
    const shown = this.answered;
    if (shown && sameRequest(shown, request)) {
      // The source on screen again (a cancelled or failed load gave it back to the store): its
      // answer is already shown, so nothing is parsed or streamed again, and a note about the
      // cancelled load stays.
      const l = this.snap.load;
      this.set({
        request,
        view: { ...this.snap.view, request, error: null },
        load: l?.cancelled ? l : null,
      });
      return;
    }
    const file = request.file;
    if (file) {
      const refused = refuseReason(file.size);
      const base = { name: request.name, progress: null, preview: false, cancelled: false };
      if (refused) {
        this.set({
          request,
          load: { ...base, refused, active: false },
          view: { ...this.snap.view, request },
        });
        return;
      }
      this.set({ request, load: { ...base, refused: null, active: true } });
    } else this.set({ request, load: null });
    // What the page showed before a preview replaced it: restored when the load is cancelled.
    let beforePreview: InspectorView | null = null;
    void this.engine()
      .inspect(request, {
        progress: (p) => {
          if (live() && file) this.setLoad((l) => (l ? { ...l, progress: p } : l));
        },
        preview: (r, tokens) => {
          if (!live() || !r.ok) return;
          if (tokens) this.primeTokens(r.analysis.transcript, r.analysis.provider, tokens);
          const prev = this.snap.view;
          if (prev.request !== request) {
            beforePreview ??= prev;
            this.set({ view: { ...nextView(prev, request, r), request: prev.request } });
          }
          this.setLoad((l) => (l ? { ...l, preview: true } : l));
        },
        tokens: this.onTokens,
      })
      .then((result) => {
        if (!live()) return;
        const l = this.snap.load;
        if (isCancelled(result)) {
          this.set({
            load: l ? { ...l, active: false, cancelled: true, preview: false } : l,
            view: { ...(beforePreview ?? this.snap.view), request },
          });
          return;
        }
        if (result.ok) {
          this.answers.answerOf.set(result.analysis, request);
          this.answered = request;
        }
        // A failed load shows what the page showed before its preview, next to the error.
        this.set({
          load: l ? { ...l, active: false, preview: false } : l,
          view: nextView(beforePreview ?? this.snap.view, request, result),
        });
      });
  }

  /**
   * The transcript shown after a failed, refused or cancelled request keeps the older answer: make
   * sure its exact token count comes (the newer request dropped it, or a cancel stopped the worker).
   */
  private recountShown(): void {
    const { view, request } = this.snap;
    const again = recountShown(
      view,
      request,
      (a) => this.answers.exactFor.get(a.transcript)?.has(a.provider) === true,
      (a) => this.answers.answerOf.get(a),
    );
    if (!again || !view.analysis) return;
    const { transcript, provider } = view.analysis;
    this.engine().recount(again, transcript, provider, { tokens: this.onTokens });
  }
}

/** A key naming per-policy sweep options: equal options, equal key. */
export function sweepKey(
  options: readonly {
    pinFirst?: boolean;
    keepNewestExchanges?: number;
    summaryTokens?: number;
    keepToolUses?: number;
  }[],
): string {
  return JSON.stringify(
    options.map((o) => [
      o.pinFirst ?? null,
      o.keepNewestExchanges ?? null,
      o.summaryTokens ?? null,
      o.keepToolUses ?? null,
    ]),
  );
}
