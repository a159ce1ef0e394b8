/**
 * A page-side message's `raw` and `blocks` computed when first read (issue 20): from its JSON
 * text, or from its spans of the streamed file's bytes (which arrive with the answer), with the
 * format's `blocksOf` for a format that rebuilds blocks from raw. One pair of accessors serves
 * every message, so messages share one object shape. Reading never throws: a source that cannot
 * be read again gives a raw and a text block that say which message, where and why.
 *
 * A large JSON Lines file's bytes do not come to the page (issue 38): a message sent as spans
 * reads them from the file (`SourceBytes.reader`, sourceReader.ts) when first read; until its
 * text arrives its `raw` is undefined and its `blocks` empty, unsettled (`textPending`).
 */
import type { Block, Message } from '../model/types.ts';
import type { SpanReader } from './sourceReader.ts';

/**
 * Where raws sent as spans are read: the file's bytes, once they arrive with the answer (a
 * file the page cannot slice: not plain UTF-8), or the file itself through `reader`.
 */
export interface SourceBytes {
  bytes: Uint8Array | null;
  /** Reads spans from the picked file (null: the spans are read from `bytes` only). */
  reader?: SpanReader | null;
  /** Set when a message's raw or blocks were read before its text was there (not by a row). */
  missed?: boolean;
}

/**
 * What a message's lazy `raw` and `blocks` are computed from (hidden under LAZY, dropped once
 * both are plain values): its JSON text, or its spans [a, z) of `spans` in the source's bytes.
 */
export interface Lazy {
  json: string | null;
  spans: Float64Array;
  a: number;
  z: number;
  many: boolean;
  source: SourceBytes;
  blocksOf: ((raw: unknown) => Block[]) | undefined;
  /** The spans' texts once read from the file (`reader`); null before. */
  texts?: string[] | null;
  /** Why reading the spans from the file failed (then `raw` is `unreadable`). */
  failed?: unknown;
  /** True while the file is being read for this message. */
  asked?: boolean;
}

const LAZY = Symbol('lazy');
type WithLazy = Message & { [LAZY]: Lazy | null };

/** Replace an accessor by the plain data property it computed (or was given). */
function settle(m: WithLazy, key: 'raw' | 'blocks', value: unknown): unknown {
  Object.defineProperty(m, key, { value, writable: true, enumerable: true, configurable: true });
  // Both plain: nothing is computed any more, so the text and the batch's spans can go.
  const lazy = (k: string) => Object.getOwnPropertyDescriptor(m, k)?.get !== undefined;
  if (!lazy('raw') && !lazy('blocks')) m[LAZY] = null;
  return value;
}

/** The raw: its JSON text parsed, or its spans of the source's bytes (undefined before they arrive). */
function rawOf(l: Lazy | null): unknown {
  if (!l) return undefined;
  if (l.a === l.z) return l.json === null ? undefined : JSON.parse(l.json);
  if (l.failed !== undefined) throw l.failed;
  if (l.texts) {
    const values = l.texts.map((t) => JSON.parse(t) as unknown);
    return l.many ? values : values[0];
  }
  const bytes = l.source.bytes;
  if (!bytes) return undefined;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const values: unknown[] = [];
  for (let s = l.a; s < l.z; s += 2) {
    const from = l.spans[s] as number;
    const to = l.spans[s + 1] as number;
    if (to > bytes.length)
      throw new Error(`bytes ${from}–${to} are past the file's end (${bytes.length})`);
    values.push(JSON.parse(decoder.decode(bytes.subarray(from, to))));
  }
  return l.many ? values : values[0];
}

/**
 * Whether `m`'s raw lies in the source's bytes, which are not at hand: not arrived yet, or to be
 * read from the file (then asked for: read in the next task, `SpanReader`).
 */
function pending(m: WithLazy, read: boolean): boolean {
  const l = m[LAZY];
  if (l === null || l.a === l.z || l.source.bytes || l.texts || l.failed !== undefined)
    return false;
  if (read) l.source.missed = true;
  const reader = l.source.reader;
  if (reader && !l.asked) {
    l.asked = true;
    reader.ask({
      spans: l.spans,
      a: l.a,
      z: l.z,
      done: (texts, error) => {
        l.asked = false;
        if (texts) l.texts = texts;
        else l.failed = error ?? new Error('the file could not be read');
      },
    });
  }
  return true;
}

/**
 * Whether message `m`'s text is being read from the file (its `raw` reads undefined and its
 * `blocks` empty until then); reading `raw` or `blocks` asks for it. False for a plain message.
 */
export function textPending(m: Message): boolean {
  return LAZY in m && pending(m as WithLazy, false);
}

/**
 * Whether any of `messages` has its text still being read from the file (`textPending`); every
 * such message is asked for (all read in one task, `SpanReader`), so a caller that needs every
 * message's content (the simulator's whole validation) waits once, not once per message.
 * O(messages). False for messages that are all plain.
 */
export function textsPending(messages: readonly Message[]): boolean {
  let any = false;
  for (const m of messages) if (textPending(m)) any = true;
  return any;
}

/** Stand-ins for what could not be read again (`unreadable`), to give their blocks a note. */
const UNREADABLE = Symbol('unreadable');

/**
 * What a message whose source could not be read again shows: a raw naming the message, where it
 * sits and why, and a text block saying the same (the worker parsed the same bytes, so only a
 * defect gets here; the row says so and the rest of the page works).
 */
function unreadable(m: Message, e: unknown): { unreadable: string } {
  const why = e instanceof Error ? e.message : String(e);
  const raw = {
    unreadable: `message ${m.index} (${m.path}) could not be read again from the source: ${why}`,
  };
  Object.defineProperty(raw, UNREADABLE, { value: true });
  return raw;
}

/** `rawOf` for message `m`; never throws (`unreadable`). */
function rawOfMessage(m: WithLazy): unknown {
  try {
    return rawOf(m[LAZY]);
  } catch (e) {
    return unreadable(m, e);
  }
}

/** `m`'s blocks rebuilt from its raw with `of`; never throws (a text block naming the failure). */
function blocksOfMessage(m: WithLazy, of: (raw: unknown) => Block[]): Block[] {
  const raw: unknown = m.raw;
  let note: { unreadable: string };
  if (
    typeof raw === 'object' &&
    raw !== null &&
    (raw as Partial<Record<typeof UNREADABLE, true>>)[UNREADABLE] === true
  )
    note = raw as { unreadable: string };
  else
    try {
      return of(raw);
    } catch (e) {
      note = unreadable(m, e);
    }
  return [{ type: 'text', text: `(${note.unreadable})` }];
}

// One pair of accessors for every message, so messages share their shape.
const RAW: PropertyDescriptor = {
  configurable: true,
  enumerable: true,
  get(this: WithLazy) {
    // Not settled before the bytes arrive: a read then must not fix the raw as undefined.
    return pending(this, true) ? undefined : settle(this, 'raw', rawOfMessage(this));
  },
  set(this: WithLazy, v: unknown) {
    settle(this, 'raw', v);
  },
};
const BLOCKS: PropertyDescriptor = {
  configurable: true,
  enumerable: true,
  get(this: WithLazy) {
    const of = this[LAZY]?.blocksOf;
    if (pending(this, true)) return [];
    return settle(this, 'blocks', of ? blocksOfMessage(this, of) : []);
  },
  set(this: WithLazy, v: unknown) {
    settle(this, 'blocks', v);
  },
};

/**
 * Give `m` a lazy `raw` (and lazy `blocks` when `blocksFromRaw`; else the caller sets them),
 * computed from `lazy` when first read.
 */
export function attachLazy(m: Message, lazy: Lazy, blocksFromRaw: boolean): void {
  Object.defineProperty(m, LAZY, { value: lazy, writable: true });
  Object.defineProperty(m, 'raw', RAW);
  if (blocksFromRaw) Object.defineProperty(m, 'blocks', BLOCKS);
}
