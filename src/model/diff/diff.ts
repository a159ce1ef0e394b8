/**
 * The diff of two requests (issue 33): every message labelled (kept, dropped, inserted, merged,
 * rewritten, sealed, reordered), the pairings the change broke with the provider's rule, where
 * the prompt-cache prefix stops, and one sentence saying what happened.
 */
import type { Message, ProviderId, Transcript } from '../types.ts';
import { CHARS_PER_4, countTokens, type TextCounter, type TokenTable } from '../tokens.ts';
import { defaultProviderOf, validateTranscript, type Validation } from '../validate/index.ts';
import { alignMessages, type Alignment } from './align.ts';
import {
  alignKey,
  blocksKey,
  contentKey,
  identityKey,
  Interner,
  sameMessage,
  toolIdKey,
} from './keys.ts';
import { diffSummary } from './summary.ts';
import type {
  BrokenPair,
  CachePrefix,
  DiffCounts,
  DiffRow,
  DiffSide,
  NewFinding,
  TranscriptDiff,
} from './types.ts';

export interface DiffOptions {
  /** Judge both sides by this provider (default: the right side's format's provider). */
  provider?: ProviderId;
  /** The token counter (default `CHARS_PER_4`; the CLI and page pass the loaded BPE). */
  counter?: TextCounter;
  /** 1-based request numbers of the two sides in their files (null: a file of one request). */
  leftRequest?: number | null;
  rightRequest?: number | null;
  /** What the summary calls each side (default `Request N`, else `the left`/`the right request`). */
  leftLabel?: string;
  rightLabel?: string;
  /**
   * Both sides come from one source (two calls of one session log, a transcript and its cut):
   * a message's raw index, path and source id identify it across the sides. Default: true
   * when both transcripts share their `raw` value.
   */
  sameSource?: boolean;
}

/** A transcript whose messages' `index` is their position (a cut keeps the original indices). */
function positional(t: Transcript): Transcript {
  if (t.messages.every((m, i) => m.index === i)) return t;
  return { ...t, messages: t.messages.map((m, i) => ({ ...m, index: i })) };
}

/** A right-side message standing for earlier ones: a compaction summary (Claude Code, Codex, the simulator's). */
export function isSummaryMessage(m: Message): boolean {
  if (m.meta?.compactSummary === true) return true;
  const b = m.blocks[0];
  return (
    m.rawIndex < 0 &&
    b?.type === 'text' &&
    b.text.startsWith('[Summary of the earlier conversation')
  );
}

/** A message holding a provider's compaction block or item (Anthropic `compaction`, Responses `compaction`). */
export function isSealMessage(m: Message): boolean {
  return m.blocks.some((b) => b.type === 'other' && /compaction/i.test(b.label));
}

interface Keys {
  content: Int32Array;
  identity: Int32Array;
  tools: Int32Array;
}

function keysOf(messages: readonly Message[], interner: Interner, identity: boolean): Keys {
  const n = messages.length;
  const content = new Int32Array(n);
  const ident = new Int32Array(n).fill(-1);
  const tools = new Int32Array(n).fill(-1);
  for (let i = 0; i < n; i++) {
    const m = messages[i] as Message;
    content[i] = interner.id(alignKey(m));
    if (identity) {
      const k = identityKey(m);
      if (k !== null) ident[i] = interner.id(`i${k}`);
    }
    const t = toolIdKey(m);
    if (t !== null) tools[i] = interner.id(`x${t}`);
  }
  return { content, identity: ident, tools };
}

/**
 * The rows of a gap (the unmatched messages between two matched ones): its left messages in
 * order (dropped, or merged into / sealed by / rewritten as a right one), then its right-only
 * messages (inserted, or a summary standing for the gap's dropped messages).
 */
function gapRows(
  L: readonly Message[],
  R: readonly Message[],
  ls: readonly number[],
  rs: readonly number[],
  interner: Interner,
): DiffRow[] {
  const leftRow = new Map<number, DiffRow>();
  const rightRows: DiffRow[] = [];
  const inserted: number[] = [];
  // The gap's left messages not yet labelled (recomputed after a claim only: a large gap stays O(n)).
  let cached: number[] | null = null;
  const open = () => (cached ??= ls.filter((i) => !leftRow.has(i)));
  const claim = (i: number, row: DiffRow) => {
    leftRow.set(i, row);
    cached = null;
  };
  const mergeable = ls.length * rs.length <= MERGE_AREA;
  for (const r of rs) {
    const m = R[r] as Message;
    if (isSealMessage(m) && open().length > 0) {
      for (const i of open()) claim(i, { change: 'sealed', left: i, right: r });
      continue;
    }
    if (isSummaryMessage(m)) {
      const free = open();
      const row: DiffRow = { change: 'rewritten', left: null, right: r };
      if (free.length > 0)
        row.replaces = [free[0] as number, (free[free.length - 1] as number) + 1];
      rightRows.push(row);
      continue;
    }
    // Merges are looked for in gaps of bounded size (a merge is a few neighbours, not a log).
    const span = mergeable ? mergedSpan(L, m, open(), interner) : null;
    if (span) {
      for (const i of span) claim(i, { change: 'merged', left: i, right: r });
      continue;
    }
    inserted.push(r);
  }
  // As many left as inserted right messages, role for role: each left one rewritten as its right.
  const free = open();
  const pairUp =
    free.length > 0 &&
    free.length === inserted.length &&
    free.every((i, k) => (L[i] as Message).role === (R[inserted[k] as number] as Message).role);
  if (pairUp)
    free.forEach((i, k) =>
      leftRow.set(i, { change: 'rewritten', left: i, right: inserted[k] as number }),
    );
  else for (const r of inserted) rightRows.push({ change: 'inserted', left: null, right: r });
  const rows: DiffRow[] = [];
  for (const i of ls) rows.push(leftRow.get(i) ?? { change: 'dropped', left: i, right: null });
  rightRows.sort((a, b) => (a.right as number) - (b.right as number));
  for (const row of rightRows) rows.push(row);
  return rows;
}

/** The largest gap (left × right messages) in which merges are looked for. */
const MERGE_AREA = 1 << 16;

/** A run of consecutive left messages of `m`'s role whose blocks together are `m`'s, or null. */
function mergedSpan(
  L: readonly Message[],
  m: Message,
  free: readonly number[],
  interner: Interner,
): number[] | null {
  const want = interner.id(contentKey(m));
  for (let s = 0; s < free.length; s++) {
    const first = L[free[s] as number] as Message;
    if (first.role !== m.role) continue;
    const blocks = [...first.blocks];
    for (let e = s + 1; e < free.length; e++) {
      const i = free[e] as number;
      if (i !== (free[e - 1] as number) + 1 || (L[i] as Message).role !== m.role) break;
      blocks.push(...(L[i] as Message).blocks);
      if (interner.id(blocksKey(m.role, blocks)) === want) return free.slice(s, e + 1);
    }
  }
  return null;
}

/**
 * A message left unmatched on both sides with the same content (unique among the unmatched on
 * each side) was moved: paired and flagged, so it reads `reordered`, not dropped and inserted.
 * O(n).
 */
function movedByContent(
  L: readonly Message[],
  R: readonly Message[],
  keys: { left: Keys; right: Keys },
  a: Alignment,
): void {
  const left = new Map<number, number>();
  for (let i = 0; i < L.length; i++) {
    if ((a.leftTo[i] as number) >= 0) continue;
    const k = keys.left.content[i] as number;
    left.set(k, left.has(k) ? -1 : i);
  }
  if (left.size === 0) return;
  const right = new Map<number, number>();
  for (let j = 0; j < R.length; j++) {
    if ((a.rightTo[j] as number) >= 0) continue;
    const k = keys.right.content[j] as number;
    if (left.has(k)) right.set(k, right.has(k) ? -1 : j);
  }
  for (const [k, j] of right) {
    const i = left.get(k) ?? -1;
    if (j < 0 || i < 0 || !sameMessage(L[i] as Message, R[j] as Message)) continue;
    a.leftTo[i] = j;
    a.rightTo[j] = i;
    a.moved[j] = 1;
  }
}

/** Rows in merged order: the right side's order, each gap's left messages where they stood. */
function buildRows(
  left: Transcript,
  right: Transcript,
  keys: { left: Keys; right: Keys },
  interner: Interner,
  sameSource: boolean,
): DiffRow[] {
  const L = left.messages;
  const R = right.messages;
  const identities = [];
  if (sameSource) identities.push({ left: keys.left.identity, right: keys.right.identity });
  identities.push({ left: keys.left.tools, right: keys.right.tools });
  const a = alignMessages({
    left: keys.left.content,
    right: keys.right.content,
    identities,
    preferTail: R.length < L.length,
  });
  movedByContent(L, R, keys, a);
  const rows: DiffRow[] = [];
  let li = 0;
  let rs: number[] = [];
  const flush = (end: number) => {
    const ls: number[] = [];
    for (; li < end; li++) if ((a.leftTo[li] as number) < 0) ls.push(li);
    // One push per row: a gap can hold 100,000 rows, too many for a spread's arguments.
    if (ls.length > 0 || rs.length > 0)
      for (const row of gapRows(L, R, ls, rs, interner)) rows.push(row);
    rs = [];
  };
  for (let j = 0; j < R.length; j++) {
    const i = a.rightTo[j] as number;
    if (i < 0) rs.push(j);
    else if (a.moved[j]) rows.push({ change: 'reordered', left: i, right: j });
    else {
      flush(i);
      li = i + 1;
      const same =
        keys.left.content[i] === keys.right.content[j] &&
        sameMessage(L[i] as Message, R[j] as Message);
      rows.push({ change: same ? 'kept' : 'rewritten', left: i, right: j });
    }
  }
  flush(L.length);
  return rows;
}

function sideOf(
  t: Transcript,
  v: Validation,
  table: TokenTable,
  request: number | null,
  label: string,
): DiffSide {
  const first = v.violations.find((x) => x.severity === 'error') ?? null;
  return {
    request,
    label,
    messages: t.messages.length,
    tokens: table.total,
    valid: v.valid,
    firstError: first?.error ?? null,
    firstRule: first ? { rule: first.rule, code: first.code } : null,
  };
}

/** Findings on the right that the left does not have (by rule and tool id). */
function newFindings(
  lv: Validation,
  rv: Validation,
): { broken: BrokenPair[]; introduced: NewFinding[] } {
  const seen = new Set<string>();
  for (const v of lv.violations) {
    if (v.ids.length === 0) seen.add(`${v.rule}\u0001`);
    for (const id of v.ids) seen.add(`${v.rule}\u0001${id}`);
  }
  const broken: BrokenPair[] = [];
  const introduced: NewFinding[] = [];
  for (const v of rv.violations) {
    if (v.ids.length === 0) {
      if (!seen.has(`${v.rule}\u0001`))
        introduced.push({
          rule: v.rule,
          code: v.code,
          messageIndex: v.index,
          severity: v.severity,
        });
      continue;
    }
    for (const id of v.ids)
      if (!seen.has(`${v.rule}\u0001${id}`))
        broken.push({
          id,
          rule: v.rule,
          code: v.code,
          messageIndex: v.index,
          severity: v.severity,
        });
  }
  return { broken, introduced };
}

/** Where the prompt-cache prefix stops: leading messages kept in place, when system and tools match. */
function cachePrefixOf(
  left: Transcript,
  right: Transcript,
  rows: readonly DiffRow[],
  table: TokenTable,
): CachePrefix {
  const sys = (t: Transcript) => t.system.map((s) => s.text).join('\u0001');
  if (sys(left) !== sys(right) || JSON.stringify(left.tools) !== JSON.stringify(right.tools))
    return { messages: 0, tokens: 0 };
  let p = 0;
  for (const row of rows) {
    if (row.change !== 'kept' || row.left !== p || row.right !== p) break;
    p++;
  }
  return { messages: p, tokens: table.system + (table.prefix[p] as number) };
}

function countsOf(rows: readonly DiffRow[], lt: TokenTable, rt: TokenTable): DiffCounts {
  const c: DiffCounts = {
    kept: 0,
    dropped: 0,
    inserted: 0,
    merged: 0,
    rewritten: 0,
    sealed: 0,
    reordered: 0,
    droppedTokens: 0,
    insertedTokens: 0,
  };
  for (const r of rows) {
    c[r.change]++;
    if (r.change === 'dropped' && r.left !== null) c.droppedTokens += lt.perMessage[r.left] ?? 0;
    if (r.change === 'inserted' && r.right !== null)
      c.insertedTokens += rt.perMessage[r.right] ?? 0;
  }
  return c;
}

/**
 * The right side's token table, reusing the left's count of every kept message (same content,
 * same count): only the other messages are counted. Same figures as `countTokens(right)`.
 */
function rightTable(
  r: Transcript,
  rows: readonly DiffRow[],
  lt: TokenTable,
  provider: ProviderId,
  counter: TextCounter,
): TokenTable {
  const n = r.messages.length;
  const perMessage = new Uint32Array(n);
  const fresh: Message[] = [];
  const at: number[] = [];
  const known = new Uint8Array(n);
  for (const row of rows)
    if (row.change === 'kept' && row.left !== null && row.right !== null) {
      perMessage[row.right] = lt.perMessage[row.left] as number;
      known[row.right] = 1;
    }
  for (let j = 0; j < n; j++)
    if (!known[j]) {
      fresh.push(r.messages[j] as Message);
      at.push(j);
    }
  const part = countTokens({ ...r, messages: fresh }, provider, counter);
  at.forEach((j, k) => (perMessage[j] = part.perMessage[k] as number));
  const prefix = new Float64Array(n + 1);
  for (let j = 0; j < n; j++) prefix[j + 1] = (prefix[j] as number) + (perMessage[j] as number);
  return {
    perMessage,
    prefix,
    system: part.system,
    total: part.system + (prefix[n] as number),
    basis: part.basis,
  };
}

/**
 * Diff two requests.
 * @param left the request before (the one that worked, the full transcript)
 * @param right the request after (the one that failed, the cut); both in any format (two
 *   formats are compared through the model, and a note says so)
 * @returns `TranscriptDiff`: rows (message indices as each side numbers its messages, 0-based),
 *   the pairs the change broke (right-side findings with a tool id the left lacks: rule id and
 *   code from the provider's validator), new findings without an id, the cache prefix (messages
 *   and tokens), counts and a summary sentence. Near-linear for a cut or an append; never throws
 *   on a parsed transcript.
 */
export function diffTranscripts(
  left: Transcript,
  right: Transcript,
  options: DiffOptions = {},
): TranscriptDiff {
  const l = positional(left);
  const r = positional(right);
  const provider = options.provider ?? defaultProviderOf(r);
  const counter = options.counter ?? CHARS_PER_4;
  const sameSource = options.sameSource ?? (left.raw !== undefined && left.raw === right.raw);
  const interner = new Interner();
  const keys = {
    left: keysOf(l.messages, interner, sameSource),
    right: keysOf(r.messages, interner, sameSource),
  };
  const rows = buildRows(l, r, keys, interner, sameSource);
  const lv = validateTranscript(l, provider);
  const rv = validateTranscript(r, provider);
  const lt = countTokens(l, provider, counter);
  const rt = rightTable(r, rows, lt, provider, counter);
  const leftRequest = options.leftRequest ?? null;
  const rightRequest = options.rightRequest ?? null;
  const leftLabel =
    options.leftLabel ?? (leftRequest !== null ? `Request ${leftRequest}` : 'The left request');
  const rightLabel =
    options.rightLabel ?? (rightRequest !== null ? `Request ${rightRequest}` : 'The right request');
  const { broken, introduced } = newFindings(lv, rv);
  const notes: string[] = [];
  if (l.format !== r.format)
    notes.push(
      `The two sides are of different formats (${l.format}, ${r.format}): they were compared through the model (roles and blocks), both judged by ${provider}.`,
    );
  const diff: TranscriptDiff = {
    summary: '',
    left: sideOf(l, lv, lt, leftRequest, leftLabel),
    right: sideOf(r, rv, rt, rightRequest, rightLabel),
    provider,
    rows,
    broken,
    introduced,
    cachePrefix: cachePrefixOf(l, r, rows, lt),
    counts: countsOf(rows, lt, rt),
    tokenBasis: rt.basis.label,
    notes,
  };
  diff.summary = diffSummary(diff, {
    left: l,
    right: r,
    validation: rv,
    rowLabels: options.sameSource === true,
  });
  return diff;
}
