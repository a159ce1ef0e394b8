/**
 * The shapes of a transcript's messages and blocks as flat typed arrays: what the rewriting
 * policies (clear-tool-results, ai-sdk-prune, langchain-trim) and provider-compaction read to
 * plan, built in one walk over the blocks and kept per cut context, so that the four plans of a
 * sweep read the message and block objects once between them instead of once each (issue 39:
 * each walk over 200,000 scattered blocks and their id strings cost 5–30 ms at 100,000
 * messages). The cut engine's tables read them too (cutTables.ts `prepareCuts` builds them for
 * a provider with a cut model, issue 38). Token-independent: a new token table reuses them.
 */
import type { Block, Message } from '../types.ts';
import type { CutContext } from './cutTables.ts';
import type { EvictionContext } from './policies.ts';
import { blockTokens, isClearedResult } from './rewrite.ts';
import { grown } from '../grownArray.ts';

/**
 * The codes of `MessageShapes`: a message's role (`ROLE_*`), a block's kind (`KIND_*`, the bits
 * under `KIND_MASK`) and its flags (`FLAG_*`). Read them into module constants
 * (`const { KIND_MASK } = SHAPE`): a module's own constants are plain reads in every build, where
 * an imported binding may be a getter call at each use (tsx's CommonJS transform, which the bench
 * runs).
 */
export const SHAPE = {
  ROLE_USER: 0,
  ROLE_ASSISTANT: 1,
  ROLE_TOOL: 2,
  /** system or developer (`isPinned`). */
  ROLE_PINNED: 3,
  /** Any other role a source may carry. */
  ROLE_OTHER: 4,
  KIND_OTHER: 0,
  KIND_TEXT: 1,
  /** thinking or redacted_thinking. */
  KIND_REASONING: 2,
  KIND_CALL: 3,
  KIND_RESULT: 4,
  /** image or document. */
  KIND_FILE: 5,
  KIND_MASK: 7,
  /** A call or result whose `server` is set (truthy). */
  FLAG_SERVER: 8,
  /** A call without an id, or a result without a `toolUseId`. */
  FLAG_NO_ID: 16,
  /** A result that already carries the cleared placeholder (`isClearedResult`). */
  FLAG_CLEARED: 32,
  /**
   * As the pairing rules read a server tool: a call whose `server` is `true`, a result whose
   * `server` (its kind) is not undefined (`FLAG_SERVER` reads both as truthy).
   */
  FLAG_SERVER_RULE: 64,
} as const;

const {
  ROLE_USER,
  ROLE_ASSISTANT,
  ROLE_TOOL,
  ROLE_PINNED,
  ROLE_OTHER,
  KIND_OTHER,
  KIND_TEXT,
  KIND_REASONING,
  KIND_CALL,
  KIND_RESULT,
  KIND_FILE,
  FLAG_SERVER,
  FLAG_NO_ID,
  FLAG_CLEARED,
  FLAG_SERVER_RULE,
} = SHAPE;

/** Per message and per block, flat (message i's blocks are `start[i]` … `start[i + 1] − 1`). */
export interface MessageShapes {
  /** Per message: a `SHAPE.ROLE_*`. */
  role: Uint8Array;
  /** First block of message i; length n + 1. */
  start: Uint32Array;
  /** Per block: a `SHAPE.KIND_*` with its `SHAPE.FLAG_*` bits. */
  kind: Uint8Array;
  /**
   * Per block: for a call or a result, the position of its id in `ids`; −1 for any other block.
   */
  idAt: Int32Array;
  /** The ids of the calls and results, in block order (`id ?? ''`, `toolUseId ?? ''`). */
  ids: string[];
  /** True when every message's `index` is its position (so `i` names message `i`). */
  indexed: boolean;
}

const cache = new WeakMap<CutContext, MessageShapes>();

function roleOf(m: Message): number {
  switch (m.role) {
    case 'assistant':
      return ROLE_ASSISTANT;
    case 'tool':
      return ROLE_TOOL;
    case 'system':
    case 'developer':
      return ROLE_PINNED;
    case 'user':
      return ROLE_USER;
    default:
      return ROLE_OTHER;
  }
}

function kindOf(b: Block): number {
  switch (b.type) {
    case 'text':
      return KIND_TEXT;
    case 'thinking':
    case 'redacted_thinking':
      return KIND_REASONING;
    case 'tool_use':
      return (
        KIND_CALL |
        (b.server ? FLAG_SERVER : 0) |
        (b.server === true ? FLAG_SERVER_RULE : 0) |
        (b.id === null ? FLAG_NO_ID : 0)
      );
    case 'tool_result':
      return (
        KIND_RESULT |
        (b.server ? FLAG_SERVER : 0) |
        (b.server !== undefined ? FLAG_SERVER_RULE : 0) |
        (b.toolUseId === null ? FLAG_NO_ID : 0) |
        (isClearedResult(b) ? FLAG_CLEARED : 0)
      );
    case 'image':
    case 'document':
      return KIND_FILE;
    default:
      return KIND_OTHER;
  }
}

/**
 * The shapes of a cut context's transcript, built on first use and kept for the context.
 * O(blocks) once.
 */
export function messageShapes(cuts: CutContext): MessageShapes {
  let s = cache.get(cuts);
  if (s) return s;
  s = new ShapesChain().shapes(cuts.t.messages);
  cache.set(cuts, s);
  return s;
}

/**
 * Sets a cut context's shapes (`messageShapes` then returns them): a chain's request gives the
 * shapes its `ShapesChain` resumed. @param s the shapes of exactly `cuts.t.messages`
 */
export function setMessageShapes(cuts: CutContext, s: MessageShapes): void {
  cache.set(cuts, s);
}

/**
 * The shapes of message lists that each extend the one before (a chain of a session's calls:
 * the same message objects in the same places, more after them), each made from the new
 * messages' blocks alone: a list's shapes are views of buffers the next list extends (read a
 * list's shapes before asking for the next's). A list that does not extend the last one starts
 * again. Each list's shapes equal a fresh walk's (evict/chain.property.test.ts).
 */
export class ShapesChain {
  private messages: readonly Message[] = [];
  private n = 0;
  private blocks = 0;
  private role = new Uint8Array(4);
  private start = new Uint32Array(5);
  private kind = new Uint8Array(4);
  private idAt = new Int32Array(4);
  private ids: string[] = [];
  private indexed = true;

  /** The shapes of `ms` (as `messageShapes` of a context over them). O(new blocks) + views. */
  shapes(ms: readonly Message[]): MessageShapes {
    let m = this.n;
    const extends_ =
      ms.length >= m &&
      (m === 0 || (ms[0] === this.messages[0] && ms[m - 1] === this.messages[m - 1]));
    if (!extends_) {
      m = 0;
      this.blocks = 0;
      // A new list: the earlier shapes keep their own `ids`.
      this.ids = [];
      this.indexed = true;
    }
    const n = ms.length;
    let total = this.blocks;
    for (let i = m; i < n; i++) total += (ms[i] as Message).blocks.length;
    this.role = grown(this.role, m, n);
    this.start = grown(this.start, m + 1, n + 1);
    this.kind = grown(this.kind, this.blocks, total);
    this.idAt = grown(this.idAt, this.blocks, total);
    const { role, start, kind, idAt, ids } = this;
    start[0] = 0;
    // The ids' strings are kept, not numbered: a Map of 100,000 ids cost as much as the rest of
    // this walk; the policies test them against their few kept ids.
    for (let i = m; i < n; i++) {
      const msg = ms[i] as Message;
      role[i] = roleOf(msg);
      if (msg.index !== i) this.indexed = false;
      const blocks = msg.blocks;
      let at = start[i] as number;
      start[i + 1] = at + blocks.length;
      for (let j = 0; j < blocks.length; j++, at++) {
        const b = blocks[j] as Block;
        kind[at] = kindOf(b);
        idAt[at] = -1;
        if (b.type === 'tool_use') {
          idAt[at] = ids.length;
          ids.push(b.id ?? '');
        } else if (b.type === 'tool_result') {
          idAt[at] = ids.length;
          ids.push(b.toolUseId ?? '');
        }
      }
    }
    this.messages = ms;
    this.n = n;
    this.blocks = total;
    return {
      role: role.subarray(0, n),
      start: start.subarray(0, n + 1),
      kind: kind.subarray(0, total),
      idAt: idAt.subarray(0, total),
      ids,
      indexed: this.indexed,
    };
  }
}

/**
 * `blockTokens(ctx, messages[i], j)` read from the token table's per-block counts without the
 * message object when the shapes and the table agree on message i's blocks (the counted path);
 * else `blockTokens` itself. Needs `shapes.indexed`.
 */
export function blockTokensAt(
  ctx: EvictionContext,
  shapes: MessageShapes,
  i: number,
  j: number,
): number {
  const per = ctx.table.blocks;
  if (per) {
    const at = per.start[i] as number;
    const count = (shapes.start[i + 1] as number) - (shapes.start[i] as number);
    if (j >= 0 && j < count && per.start[i + 1] === at + count) {
      const v = per.tokens[at + j] as number;
      if (v >= 0) return v;
    }
  }
  return blockTokens(ctx, ctx.cuts.t.messages[i] as Message, j);
}
