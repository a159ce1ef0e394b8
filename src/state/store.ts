/**
 * The app store: only what the user chose. Everything computed from it (parse result, analysis,
 * pairs, exchanges, tokens, violations, find matches) is derived by the memoised selectors in
 * `selectors.ts` and never stored (docs/architecture.md#state).
 *
 * Fields are flat and named for the permalink codec (`urlSync.ts`) and the eviction simulator:
 * they read and write these fields and nothing else.
 */
import { createStore, useStore, type StoreApi } from 'zustand';
import type { FaultSpec } from '../model/faults.ts';
import type { BlockType, FormatId, ParseError, ProviderId, Role } from '../model/types.ts';

/** Where the current text came from. `sampleId` is set for built-in samples only. */
export interface Source {
  text: string;
  name: string;
  origin: 'sample' | 'paste' | 'file' | 'link';
  sampleId?: string;
  /** A large file the worker streams itself (issue 7); `text` is then ''. */
  file?: Blob;
  /**
   * A small opened file's own bytes (the File picked or dropped), for the "Original file" export
   * only: the engine reads `text`, never this. Not kept over a reload.
   */
  original?: Blob;
  /**
   * How a file was read when that is not what its name says (a `.gz` that is not gzip data, read
   * as plain text: `notGzip`): an error about its text says this first. Not kept over a reload.
   */
  readNote?: string;
  /**
   * The file's name as on disk when `name` is not it: a `.gz` file is named without its `.gz` for
   * the parser's hints (`s.jsonl`), while the page's labels name the file the user has
   * (`sourceName`).
   */
  fileName?: string;
  /**
   * The stand-in for a link the page could not read (its address, its transcript, or the sample or
   * lesson step it names; the link's notice says which): no file is awaited, so the page does not
   * ask for "the transcript this link was made for".
   */
  unreadLink?: true;
}

/**
 * Input the user gave that failed to parse (a paste, an edit, a small file): its text stays in
 * the text box to be fixed there, with its error, while `AppState.source` goes back to the
 * transcript on screen (so the address, Back and a reload name what is shown).
 */
export interface Rejected {
  source: Source;
  error: ParseError;
}

/** What is selected: one message row, or one tool_use→tool_result pair (by `ToolPair.key`). */
export type Selection = { kind: 'message'; index: number } | { kind: 'pair'; key: string } | null;

/**
 * The diff view (issue 33) when open: the request shown against its predecessor in lineage, two
 * requests of the file (0-based), the two policies' cuts of the request shown at the budget, or
 * the transcript shown against a pasted or dropped one (`other`, its text: never in a link).
 */
export type DiffChoice =
  | { kind: 'previous' }
  | { kind: 'requests'; left: number; right: number }
  | { kind: 'cuts' }
  | { kind: 'pasted'; other: Source }
  | null;

export type ThemeOverride = 'light' | 'dark' | null;

export interface AppState {
  /** The transcript's source: the one on screen, or the input the engine is reading. */
  source: Source;
  /** The input that failed to parse, kept in the text box; null when the box holds `source`. */
  rejected: Rejected | null;
  /** Forced input format; null = use detection. */
  formatOverride: FormatId | null;
  /** Provider whose rules validate the transcript; null = follow the format. */
  provider: ProviderId | null;
  /** For a file holding several requests: the one shown (0-based); null = the parser's default (the last). */
  requestIndex: number | null;
  /** The diff view open (issue 33), or null. */
  diff: DiffChoice;
  /**
   * The model the rules judge as, where they depend on it (A12 prefill, Claude on Bedrock, Gemini 3
   * signatures); null = the input's own model. Kept across sources, as the provider is.
   */
  model: string | null;
  /** Context budget in tokens for the eviction simulator; null = none chosen. */
  budget: number | null;
  /**
   * The ids of the two policies compared by the simulator (default: message vs exchange), as
   * chosen: the eviction selectors read them through `isPolicyId` and fall back on anything else.
   */
  policies: [string, string];
  /** Per-policy parameters, free-form until the simulator defines them. */
  policyOptions: Record<string, unknown>;
  selection: Selection;
  /** Key of the exchange at the top of the timeline (`x3`), for permalinks; null = top. */
  anchor: string | null;
  /** Find box text. */
  find: string;
  /** Roles shown at full strength; empty = all roles. Others are dimmed, never removed. */
  roleFilter: Role[];
  /** Block types shown at full strength; empty = all types. */
  blockFilter: BlockType[];
  /** Theme forced by the user; null = follow the system setting. */
  theme: ThemeOverride;
  /** Faults the user applied, in order (model/faults.ts applyFaults); [] = the transcript as loaded. */
  faults: FaultSpec[];
  /** Show the "Repair all" view (the repaired transcript, its diff and export). */
  repairView: boolean;
  /** Learn mode: the id of the lesson step shown (model/lesson.ts); null = not in Learn mode. */
  lesson: string | null;
  /** The simulator panel open (true) or collapsed (false) by the user; null = by the window's width. */
  simulator: boolean | null;
  /**
   * How many documents the user opened (`openSource`: a paste, a drop, a file, a sample from the
   * menu) and edit sessions of the text box began (`editSource`). Each one over a transcript
   * shown is a history entry of its own (urlSync.ts), so Back returns to the one before; the
   * further keystrokes of an edit session, and reverts (`setSource`), are not.
   */
  entrySeq: number;
}

export interface AppActions {
  /** Replace the source text (an edit, a revert, a link). Keeps provider/format choices. */
  setSource: (source: Source) => void;
  /** Open a document (a paste, a drop, a file, a sample from the menu): `setSource`, counted in `entrySeq`. */
  openSource: (source: Source) => void;
  /**
   * Edit the text (the text box): `setSource`, and when `newEntry` (the first change of an edit
   * session) counted in `entrySeq`, so that Back returns to the transcript before the edit.
   */
  editSource: (source: Source, newEntry: boolean) => void;
  /**
   * Input that failed to parse goes back to the box (`rejected`), and the source to the
   * transcript still on screen (`back`). Not counted in `entrySeq`: the entry stays.
   */
  rejectSource: (rejected: Rejected, back: Source) => void;
  setFormatOverride: (f: FormatId | null) => void;
  setProvider: (p: ProviderId | null) => void;
  /** Judge as this model ('' or null: the input's own). */
  setModel: (m: string | null) => void;
  /** Pick one request of a file holding several (clears the selection and faults, which point into the old one). */
  setRequestIndex: (i: number | null) => void;
  /** Open (or with null close) the diff view. */
  setDiff: (d: DiffChoice) => void;
  setBudget: (b: number | null) => void;
  setPolicies: (p: [string, string]) => void;
  setPolicyOptions: (o: Record<string, unknown>) => void;
  select: (s: Selection) => void;
  setAnchor: (key: string | null) => void;
  setFind: (q: string) => void;
  setRoleFilter: (roles: Role[]) => void;
  setBlockFilter: (types: BlockType[]) => void;
  setTheme: (t: ThemeOverride) => void;
  setFaults: (f: FaultSpec[]) => void;
  setRepairView: (on: boolean) => void;
  setLesson: (id: string | null) => void;
  setSimulator: (open: boolean | null) => void;
}

export type AppStore = AppState & AppActions;

/** The name to show for a source: the file's own (`s.jsonl.gz`) where it differs, else `name`. */
export function sourceName(s: Pick<Source, 'name' | 'fileName'>): string {
  return s.fileName ?? s.name;
}

/** The id of the sample shown when the URL carries nothing. */
export const DEFAULT_SAMPLE_ID = 'invoice';

/** Defaults: an empty source (the app loads the default sample at boot), detection, no filter. */
export function defaultState(): AppState {
  return {
    source: { text: '', name: '', origin: 'sample' },
    rejected: null,
    formatOverride: null,
    provider: null,
    requestIndex: null,
    diff: null,
    model: null,
    budget: null,
    policies: ['message', 'exchange'],
    policyOptions: {},
    selection: null,
    anchor: null,
    find: '',
    roleFilter: [],
    blockFilter: [],
    theme: null,
    faults: [],
    repairView: false,
    lesson: null,
    simulator: null,
    entrySeq: 0,
  };
}

/**
 * A new source, and what pointed into the old one (selection, scroll anchor, faults) cleared; the
 * box holds the new source (no rejected input).
 */
function withSource(source: Source): Partial<AppState> {
  return {
    source,
    rejected: null,
    requestIndex: null,
    diff: null,
    selection: null,
    anchor: null,
    faults: [],
    repairView: false,
  };
}

/**
 * Build a store (vanilla zustand): one per app, and one per test.
 * @param initial fields to override in the defaults (e.g. decoded from a permalink)
 */
export function createAppStore(initial?: Partial<AppState>): StoreApi<AppStore> {
  return createStore<AppStore>()((set) => ({
    ...defaultState(),
    ...initial,
    // A new source invalidates what pointed into the old one (selection, scroll anchor).
    setSource: (source) => set(withSource(source)),
    openSource: (source) => set((s) => ({ ...withSource(source), entrySeq: s.entrySeq + 1 })),
    editSource: (source, newEntry) =>
      set((s) => ({ ...withSource(source), entrySeq: s.entrySeq + (newEntry ? 1 : 0) })),
    rejectSource: (rejected, back) => set({ source: back, rejected }),
    setFormatOverride: (formatOverride) =>
      set({ formatOverride, selection: null, faults: [], repairView: false }),
    setProvider: (provider) => set({ provider }),
    setModel: (model) => set({ model: model === '' ? null : model }),
    setRequestIndex: (requestIndex) =>
      set({ requestIndex, selection: null, anchor: null, faults: [], repairView: false }),
    setDiff: (diff) => set({ diff }),
    setBudget: (budget) => set({ budget }),
    setPolicies: (policies) => set({ policies }),
    setPolicyOptions: (policyOptions) => set({ policyOptions }),
    select: (selection) => set({ selection }),
    setAnchor: (anchor) => set({ anchor }),
    setFind: (find) => set({ find }),
    setRoleFilter: (roleFilter) => set({ roleFilter }),
    setBlockFilter: (blockFilter) => set({ blockFilter }),
    setTheme: (theme) => set({ theme }),
    setFaults: (faults) => set({ faults, repairView: false }),
    setRepairView: (repairView) => set({ repairView }),
    setLesson: (lesson) => set({ lesson }),
    setSimulator: (simulator) => set({ simulator }),
  }));
}

/** The app's store instance. */
export const appStore = createAppStore();

/** React hook bound to `appStore`. Wrap selectors that return objects/arrays in `useShallow`. */
export function useAppStore<T>(selector: (s: AppStore) => T): T {
  return useStore(appStore, selector);
}
