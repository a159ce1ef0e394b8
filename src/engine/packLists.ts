/**
 * A long analysis' pairs, exchanges and usage records as the worker sends them to the page
 * (issue 20), in columns: a 100,000-message log has tens of thousands of each, and a structured
 * clone of one object per item (with its BlockRefs and member lists) cost the worker's `lists`
 * stage and the page about 0.2 s each. `packLists` and `unpackLists` are inverses
 * (packLists.test.ts).
 */
import type { Exchange } from '../model/exchanges.ts';
import { PAIR_STATUSES, type BlockRef, type PairStatus, type ToolPair } from '../model/pairing.ts';
import type { UsageRecord } from '../model/types.ts';
import type { Covers } from './protocol.ts';

/** `ToolPair`s in columns; a BlockRef of −1 is null. */
export interface PackedPairs {
  key: string[];
  id: (string | null)[];
  name: string[];
  /** [call message, call block, result message, result block] per pair. */
  refs: Int32Array;
  /** Position in PAIR_STATUSES (model/pairing.ts). */
  status: Uint8Array;
  /** 1: partial, 2: server. */
  flags: Uint8Array;
}

/** `Exchange`s in columns: exchange k's members are members[memberAt[k] .. memberAt[k + 1]). */
export interface PackedExchanges {
  index: Int32Array;
  key: string[];
  first: Int32Array;
  last: Int32Array;
  leading: Uint8Array;
  memberAt: Int32Array;
  members: Int32Array;
}

/** `UsageRecord`s in columns: a field's value where bit f of `has` is set (USAGE_FIELDS order). */
export interface PackedUsage {
  has: Uint8Array;
  values: Float64Array;
}

export interface PackedLists {
  pairs: PackedPairs;
  exchanges: PackedExchanges;
  usage: PackedUsage;
}

const USAGE_FIELDS = [
  'messageIndex',
  'inputTokens',
  'outputTokens',
  'cacheReadTokens',
  'cacheWriteTokens',
  'reasoningTokens',
] as const satisfies readonly (keyof UsageRecord)[];
// Every field has a column: adding one to these types fails to compile here.
const covered: [
  Covers<ToolPair, 'key' | 'id' | 'name' | 'call' | 'result' | 'status' | 'partial' | 'server'>,
  Covers<Exchange, 'index' | 'key' | 'messages' | 'first' | 'last' | 'leading'>,
  Covers<BlockRef, 'message' | 'block'>,
  Covers<UsageRecord, (typeof USAGE_FIELDS)[number]>,
] = [true, true, true, true];
void covered;

function packPairs(pairs: readonly ToolPair[]): PackedPairs {
  const n = pairs.length;
  const out: PackedPairs = {
    key: [],
    id: [],
    name: [],
    refs: new Int32Array(4 * n),
    status: new Uint8Array(n),
    flags: new Uint8Array(n),
  };
  for (let k = 0; k < n; k++) {
    const p = pairs[k] as ToolPair;
    out.key.push(p.key);
    out.id.push(p.id);
    out.name.push(p.name);
    out.refs[4 * k] = p.call ? p.call.message : -1;
    out.refs[4 * k + 1] = p.call ? p.call.block : -1;
    out.refs[4 * k + 2] = p.result ? p.result.message : -1;
    out.refs[4 * k + 3] = p.result ? p.result.block : -1;
    out.status[k] = PAIR_STATUSES.indexOf(p.status);
    out.flags[k] = (p.partial ? 1 : 0) | (p.server ? 2 : 0);
  }
  return out;
}

function unpackPairs(p: PackedPairs): ToolPair[] {
  const out: ToolPair[] = [];
  const ref = (at: number): BlockRef | null => {
    const message = p.refs[at] as number;
    return message < 0 ? null : { message, block: p.refs[at + 1] as number };
  };
  for (let k = 0; k < p.key.length; k++) {
    const flags = p.flags[k] as number;
    out.push({
      key: p.key[k] as string,
      id: p.id[k] ?? null,
      name: p.name[k] as string,
      call: ref(4 * k),
      result: ref(4 * k + 2),
      status: PAIR_STATUSES[p.status[k] as number] as PairStatus,
      partial: (flags & 1) !== 0,
      server: (flags & 2) !== 0,
    });
  }
  return out;
}

function packExchanges(xs: readonly Exchange[]): PackedExchanges {
  const n = xs.length;
  const memberAt = new Int32Array(n + 1);
  for (let k = 0; k < n; k++)
    memberAt[k + 1] = (memberAt[k] as number) + (xs[k] as Exchange).messages.length;
  const out: PackedExchanges = {
    index: new Int32Array(n),
    key: [],
    first: new Int32Array(n),
    last: new Int32Array(n),
    leading: new Uint8Array(n),
    memberAt,
    members: new Int32Array(memberAt[n] as number),
  };
  for (let k = 0; k < n; k++) {
    const x = xs[k] as Exchange;
    out.index[k] = x.index;
    out.key.push(x.key);
    out.first[k] = x.first;
    out.last[k] = x.last;
    out.leading[k] = x.leading ? 1 : 0;
    out.members.set(x.messages, memberAt[k] as number);
  }
  return out;
}

function unpackExchanges(p: PackedExchanges): Exchange[] {
  const out: Exchange[] = [];
  for (let k = 0; k < p.key.length; k++)
    out.push({
      index: p.index[k] as number,
      key: p.key[k] as string,
      messages: Array.from(p.members.subarray(p.memberAt[k], p.memberAt[k + 1])),
      first: p.first[k] as number,
      last: p.last[k] as number,
      leading: p.leading[k] === 1,
    });
  return out;
}

function packUsage(us: readonly UsageRecord[]): PackedUsage {
  const w = USAGE_FIELDS.length;
  const out: PackedUsage = {
    has: new Uint8Array(us.length),
    values: new Float64Array(w * us.length),
  };
  for (let k = 0; k < us.length; k++) {
    const u = us[k] as UsageRecord;
    let has = 0;
    for (let f = 0; f < w; f++) {
      const v = u[USAGE_FIELDS[f] as keyof UsageRecord];
      if (v === undefined) continue;
      has |= 1 << f;
      out.values[w * k + f] = v;
    }
    out.has[k] = has;
  }
  return out;
}

function unpackUsage(p: PackedUsage): UsageRecord[] {
  const w = USAGE_FIELDS.length;
  const out: UsageRecord[] = [];
  for (let k = 0; k < p.has.length; k++) {
    const has = p.has[k] as number;
    const u: UsageRecord = {};
    for (let f = 0; f < w; f++)
      if (has & (1 << f)) u[USAGE_FIELDS[f] as keyof UsageRecord] = p.values[w * k + f] as number;
    out.push(u);
  }
  return out;
}

/**
 * Pairs, exchanges and usage records (each a slice of the analysis' lists, any lengths) in
 * columns. A usage field present as `undefined` goes as absent.
 */
export function packLists(
  pairs: readonly ToolPair[],
  exchanges: readonly Exchange[],
  usage: readonly UsageRecord[],
): PackedLists {
  return { pairs: packPairs(pairs), exchanges: packExchanges(exchanges), usage: packUsage(usage) };
}

/** The lists `packLists` was given. */
export function unpackLists(p: PackedLists): {
  pairs: ToolPair[];
  exchanges: Exchange[];
  usage: UsageRecord[];
} {
  return {
    pairs: unpackPairs(p.pairs),
    exchanges: unpackExchanges(p.exchanges),
    usage: unpackUsage(p.usage),
  };
}

/** The typed arrays of packed lists (to transfer: the worker keeps the lists themselves). */
export function packedListBuffers(p: PackedLists): ArrayBuffer[] {
  const arrays = [
    p.pairs.refs,
    p.pairs.status,
    p.pairs.flags,
    p.exchanges.index,
    p.exchanges.first,
    p.exchanges.last,
    p.exchanges.leading,
    p.exchanges.memberAt,
    p.exchanges.members,
    p.usage.has,
    p.usage.values,
  ];
  return arrays.flatMap((a) => (a.buffer instanceof ArrayBuffer ? [a.buffer] : []));
}
