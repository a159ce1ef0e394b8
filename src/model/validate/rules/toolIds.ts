/**
 * Tool call ids a provider's request schema refuses (A18, B10, M4, O10, R8): characters outside
 * the provider's pattern, or more characters than it allows. The usual cause is an id made for
 * another provider and replayed: a history built against Kimi (`functions.Bash:0`), an MCP bridge
 * that puts server names in ids, the Responses API's 50-odd-character `fc_…` ids sent to Chat
 * Completions, OpenAI's `call_…` ids sent to Mistral. Written once; each provider words it.
 */
import type { Block, Message, ProviderId } from '../../types.ts';
import type { RenderedMessage } from '../types.ts';
import { isClientCall, isClientResult } from './pairing.ts';
import type { Turns } from './turns.ts';

/** One provider's constraint on tool call ids. */
export interface IdShape {
  /**
   * Whether an id's characters are ones the provider takes (a test of the whole id, as its
   * schema's pattern), or null when only the length is checked. A loop, not a regex, where it
   * can be: it runs for every id of every check.
   */
  chars: ((id: string) => boolean) | null;
  /** The most characters an id may have (UTF-16 code units, as the providers count). */
  max: number;
  /** Whether the ids that results name are checked too (else only the calls' own ids). */
  results: boolean;
  /** Ids are exactly `max` letters and digits (Mistral): a fitting id is a digest. */
  fixed?: boolean;
}

/**
 * A18, B10: letters, digits, `_` and `-` (`/^[a-zA-Z0-9_-]+$/`), as a loop over the characters
 * (a property test holds them equal).
 */
export function isWordId(id: string): boolean {
  if (id.length === 0) return false;
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    const word =
      (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 45;
    if (!word) return false;
  }
  return true;
}

/**
 * The id shapes by provider, as their schemas state them (A18, B10, O10, R8, M4). Providers
 * absent here take any id as far as is known. The validators and the repair read this table.
 */
export const ID_SHAPES: Readonly<Partial<Record<ProviderId, IdShape>>> = {
  // A18: the pattern only (no length limit captured); results too (inferred, see the catalogue).
  anthropic: { chars: isWordId, max: Infinity, results: true },
  // B10: ToolUseBlock / ToolResultBlock toolUseId, 1–64 characters of that pattern.
  bedrock: { chars: isWordId, max: 64, results: true },
  // O10: the calls' own ids (every capture is `tool_calls[K].id`, met first).
  'openai-chat': { chars: null, max: 40, results: false },
  // R8: calls and outputs; the characters are not checked.
  'openai-responses': { chars: null, max: 64, results: true },
  // M4: mistral-common checks the calls' ids and the ids tool messages name.
  mistral: { chars: (id) => /^[a-zA-Z0-9]{9}$/.test(id), max: 9, results: true, fixed: true },
};

/** The shape of a provider with a known id rule (throws for one without: a programming error). */
export function idShapeOf(provider: ProviderId): IdShape {
  const s = ID_SHAPES[provider];
  if (!s) throw new Error(`No tool id shape is known for ${provider}.`);
  return s;
}

const ALNUM = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** `n` letters and digits derived from a string (FNV-1a, re-seeded per 5 characters). */
function digest(s: string, n: number): string {
  let out = '';
  for (let seed = 0x811c9dc5; out.length < n; seed = (seed ^ out.length) >>> 0) {
    let h = seed;
    for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
    for (let k = 0; k < 5 && out.length < n; k++, h = Math.floor(h / 62)) out += ALNUM[h % 62];
  }
  return out;
}

/**
 * An id that fits a shape, made from `id`: characters outside the pattern become `_`, and a long
 * id keeps its start and ends in a digest of the whole (so two long ids with one start differ).
 * Mistral's nine letters and digits are a digest. `taken` says which ids are in use already.
 * @returns `id` itself when it fits
 */
export function fittingId(shape: IdShape, id: string, taken: (x: string) => boolean): string {
  if (idFault(shape, id) === null) return id;
  for (let salt = 0; ; salt++) {
    const key = salt === 0 ? id : `${id}#${salt}`;
    let x: string;
    if (shape.fixed === true) x = digest(key, shape.max);
    else {
      x = shape.chars === null ? id : id.replace(/[^a-zA-Z0-9_-]/g, '_') || 'id';
      if (x.length > shape.max || salt > 0)
        x = `${x.slice(0, Math.min(x.length, shape.max - 9))}_${digest(key, 8)}`;
    }
    if (idFault(shape, x) === null && !taken(x)) return x;
  }
}

/** What is wrong with an id: its characters, its length, or both. */
export interface IdFault {
  pattern: boolean;
  long: boolean;
}

/**
 * What a shape finds wrong with an id.
 * @returns null when the id fits (an absent id is another rule: A17, O9, R7)
 */
export function idFault(shape: IdShape, id: string): IdFault | null {
  const pattern = shape.chars !== null && !shape.chars(id);
  const long = id.length > shape.max;
  return pattern || long ? { pattern, long } : null;
}

/** A call or result whose id a shape refuses, with where it stands. */
export interface BadId {
  block: Block;
  msg: Message;
  /** The block's index in its message (ours). */
  blockIndex: number;
  /** The block's index in the turn or provider message (the provider's `content.M`). */
  pos: number;
  id: string;
  kind: 'call' | 'result';
  fault: IdFault;
}

/** The id a client call (or, when the shape checks them, a result) carries; null otherwise. */
function idIn(b: Block, shape: IdShape): string | null {
  if (isClientCall(b)) return b.id;
  if (shape.results && isClientResult(b) && b.type === 'tool_result') return b.toolUseId;
  return null;
}

/** A block `idIn` found an id in: a call or a result. */
const kindOf = (b: Block): BadId['kind'] => (isClientCall(b) ? 'call' : 'result');

/**
 * The refused ids of turn `n`, in block order. Allocates nothing when every id fits.
 * @param T the request's turns (rules/turns.ts); `pos` counts blocks across the merged turn
 */
export function badIdsInTurn(T: Turns, n: number, shape: IdShape): BadId[] | null {
  let out: BadId[] | null = null;
  let pos = 0;
  for (let s = T.start[n] as number; s < (T.start[n + 1] as number); s++) {
    const msg = T.msgs[s] as Message;
    for (let bi = 0; bi < msg.blocks.length; bi++, pos++) {
      const block = msg.blocks[bi] as Block;
      const id = idIn(block, shape);
      const fault = id === null ? null : idFault(shape, id);
      if (id !== null && fault)
        (out ??= []).push({ block, msg, blockIndex: bi, pos, id, kind: kindOf(block), fault });
    }
  }
  return out;
}

/**
 * The refused ids of one rendered (Chat Completions) message, in item order; `pos` is the
 * position among the message's calls (`tool_calls[K]`), or 0 for a tool message's result.
 */
export function badIdsInRendered(m: RenderedMessage, shape: IdShape): BadId[] | null {
  let out: BadId[] | null = null;
  let calls = 0;
  for (const it of m.items) {
    const id = idIn(it.block, shape);
    if (id === null) continue;
    const kind = kindOf(it.block);
    const pos = kind === 'call' ? calls++ : 0;
    const fault = idFault(shape, id);
    if (fault)
      (out ??= []).push({
        block: it.block,
        msg: it.msg,
        blockIndex: it.blockIndex,
        pos,
        id,
        kind,
        fault,
      });
  }
  return out;
}
