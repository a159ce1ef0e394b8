/**
 * The permalink codec: `PermalinkState` ⇄ URL fragment (`v=1&src=samples%2Fswe-1.json&b=32000&…`).
 *
 * Short key=value pairs through `URLSearchParams`, in the spirit of speedscope's `hash-params.ts`
 * (style.md §4.3). Every key goes through the schema; a value that fails falls back to its
 * default with a notice; unknown keys are ignored. Decoding trusts nothing: the fragment and the
 * inflated transcript both have a size cap, and the inflater runs in small steps so a
 * decompression bomb is refused before it is expanded (issue 6).
 *
 * Keys (all optional; absent = default):
 * | key | layer | value |
 * | --- | --- | --- |
 * | `v` | — | fragment syntax version (`1`) |
 * | `src` | source | sample id (`samples/swe-1.json`) |
 * | `t` | source | inline transcript: `<payload version>.<d = deflate-raw, n = none>.<base64url>` |
 * | `r` | source | `1` = the inline transcript is a structure-only (redacted) copy |
 * | `n` | source | view-only link: name of the transcript it was made for (`session.jsonl`) |
 * | `f` | view | format override (`openai-chat`) |
 * | `pr` | view | provider (`anthropic`) |
 * | `b` | view | budget in tokens |
 * | `p`, `pin`, `keep`, `sum` | view | chosen policy and its options |
 * | `p2`, `pin2`, `keep2`, `sum2` | view | compared policy and its options |
 * | `sel` | view | selection: `m42` (message index) or `p3` (tool pair key) |
 * | `at` | view | scroll anchor: exchange key (`x17`) |
 * | `fx` | view | applied faults, in order: `1:tp3,rp0,c5,c5.<base64url text>,y5,n2,d3` (see `encodeFaults`) |
 *
 * Pure: no window/location; imports only fflate, zod (via the schema) and model types.
 */
import { Inflate, deflateSync, strFromU8, strToU8 } from 'fflate';
import type { z } from 'zod';
import { displayName } from '../../model/displayName.ts';
import type { FaultSpec } from '../../model/faults.ts';
import {
  AnchorSchema,
  FAULTS_VERSION,
  FaultsSchema,
  DEFAULT_PERMALINK_STATE,
  DEFAULT_POLICY_OPTIONS,
  FORMAT_IDS,
  PERMALINK_VERSION,
  POLICY_IDS,
  PROVIDER_IDS,
  PolicyOptionsSchema,
  SampleIdSchema,
  SourceNameSchema,
  ViewSchema,
  defaultPermalinkState,
  type PermalinkPolicy,
  type PermalinkPolicyOptions,
  type PermalinkSource,
  type PermalinkState,
  type PermalinkView,
} from './schema.ts';

/**
 * Largest fragment we read, in characters. Chromium refuses URLs over 2 MiB (2,097,152 chars), so
 * nothing longer can be a link someone actually opened; reading more would only cost memory.
 */
export const MAX_FRAGMENT_CHARS = 2 * 1024 * 1024;

/**
 * Largest inflated inline transcript the decoder reads, in bytes (16 MiB). Deflate can expand
 * ~1000×, so a 2 MiB fragment could otherwise inflate to gigabytes. Links written before the
 * encoder's own, lower limit (`MAX_LINK_TRANSCRIPT_BYTES`) keep opening up to this size.
 */
export const MAX_INLINE_BYTES = 16 * 1024 * 1024;

/**
 * Largest transcript the encoder puts in a link, in UTF-8 bytes (2 MiB; at most the decoder's
 * `MAX_INLINE_BYTES`, so the page never offers a link it would refuse). 2 MiB is also the size
 * above which the page streams a file instead of holding its text (workers/limits.ts), and
 * building a link from up to 2 MiB takes a fraction of a second; anything larger is shared as a
 * file plus a view-only link.
 */
export const MAX_LINK_TRANSCRIPT_BYTES = 2 * 1024 * 1024;

/** Version of the inline payload layout (`1.d.<base64url>`), independent of the fragment `v`. */
export const INLINE_PAYLOAD_VERSION = 1;

/** Input bytes fed to the inflater per step: one step can emit at most ~1 MiB (1032× ratio). */
const INFLATE_STEP_BYTES = 1024;

/** A non-blocking message for the reader: a value was ignored, a payload refused. */
export interface PermalinkNotice {
  /** The fragment key concerned (`b`, `t`, …), or `#` for the whole fragment. */
  key: string;
  message: string;
}

export interface DecodeResult {
  /** Always a complete, in-schema state (defaults where the link said nothing usable). */
  state: PermalinkState;
  notices: PermalinkNotice[];
}

export interface DecodeOptions {
  /** Fragment cap in characters (default `MAX_FRAGMENT_CHARS`). */
  maxFragmentChars?: number;
  /** Inflated inline transcript cap in bytes (default `MAX_INLINE_BYTES`). */
  maxInlineBytes?: number;
}

// ---------------------------------------------------------------------------------------------
// base64url and the inline payload

/** Bytes → base64url without padding (RFC 4648 §5). */
export function toBase64Url(bytes: Uint8Array): string {
  // strFromU8(…, true) builds the latin1 string in chunks (no argument-count overflow).
  return btoa(strFromU8(bytes, true)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** base64url (padding optional) → bytes, or null when the text is not base64url. */
export function fromBase64Url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return null;
  try {
    return strToU8(atob(text.replace(/-/g, '+').replace(/_/g, '/')), true);
  } catch {
    return null;
  }
}

/**
 * Inflate raw deflate data with an output cap, in small steps, so that a bomb is stopped after at
 * most `cap` + ~1 MiB of output instead of being expanded whole.
 * @returns the bytes, `'too-large'` when the output passes `cap`, `'corrupt'` when the data is
 *   not valid deflate or is truncated
 */
export function inflateCapped(data: Uint8Array, cap: number): Uint8Array | 'too-large' | 'corrupt' {
  const chunks: Uint8Array[] = [];
  let total = 0;
  let done = false;
  const inflater = new Inflate((chunk, final) => {
    total += chunk.length;
    if (total <= cap) chunks.push(chunk);
    if (final) done = true;
  });
  try {
    let off = 0;
    do {
      const end = Math.min(data.length, off + INFLATE_STEP_BYTES);
      inflater.push(data.subarray(off, end), end >= data.length);
      if (total > cap) return 'too-large';
      off = end;
    } while (off < data.length);
  } catch {
    return 'corrupt';
  }
  if (!done) return 'corrupt';
  const out = new Uint8Array(total);
  let pos = 0;
  for (const c of chunks) {
    out.set(c, pos);
    pos += c.length;
  }
  return out;
}

/**
 * Encode a transcript's source text as an inline payload: `1.d.<base64url of raw deflate>`, or
 * `1.n.<base64url of UTF-8>` when deflate does not make it shorter (tiny texts).
 * Lone UTF-16 surrogates become U+FFFD (UTF-8 cannot carry them).
 */
export function encodeInlinePayload(text: string): string {
  // A small cache: the URL writer and the share panel re-encode on every view change while the
  // texts stay the same (the panel encodes two: the full text and the structure-only one).
  const hit = inlineCache.find((e) => e.text === text);
  if (hit) return hit.payload;
  const utf8 = strToU8(text);
  const deflated = deflateSync(utf8, { level: 9 });
  const payload =
    deflated.length < utf8.length
      ? `${INLINE_PAYLOAD_VERSION}.d.${toBase64Url(deflated)}`
      : `${INLINE_PAYLOAD_VERSION}.n.${toBase64Url(utf8)}`;
  inlineCache.unshift({ text, payload });
  inlineCache.length = Math.min(inlineCache.length, INLINE_CACHE_ENTRIES);
  return payload;
}

/** Texts whose payload is kept (each at most `MAX_LINK_TRANSCRIPT_BYTES` when it came through a checked link). */
const INLINE_CACHE_ENTRIES = 3;
const inlineCache: { text: string; payload: string }[] = [];

/**
 * The cheap check before building an inline link: a transcript whose size is known to be above
 * `maxBytes` cannot go in a link, so nothing is built (redacting and deflating a large transcript
 * would freeze the page for seconds).
 * @param bytes the transcript's size in bytes, or a lower bound of it (a string's UTF-16 length:
 *   its UTF-8 form is never shorter); a file's `size`
 * @param maxBytes the limit (default `MAX_LINK_TRANSCRIPT_BYTES`, the encoder's)
 * @returns null when it may fit (the exact check is `encodePermalinkChecked`), else the reason,
 *   naming the size and the limit
 */
export function inlineSizeRefusal(
  bytes: number,
  maxBytes: number = MAX_LINK_TRANSCRIPT_BYTES,
): string | null {
  if (bytes <= maxBytes) return null;
  return `The transcript is ${formatBytes(bytes)}; a link carries at most ${formatBytes(maxBytes)} of transcript.`;
}

/** `encodePermalinkChecked`'s answer. */
export type CheckedFragment =
  | { ok: true; fragment: string }
  | {
      ok: false;
      /** Why no link was written: the size found and the limit, for people. */
      reason: string;
      /** Which limit: the inline transcript's bytes, or the fragment's characters. */
      limit: 'inline-bytes' | 'fragment-chars';
    };

/**
 * Encode a state as `encodePermalink` does, checking the decoder's own limits first, so that a
 * link it returns is one `decodePermalink` reads back in full (with the same `opts`); an inline
 * transcript is also kept to `MAX_LINK_TRANSCRIPT_BYTES`.
 * The inline transcript's UTF-8 size is checked before deflating (a text over the cap costs no
 * compression); the fragment's length after.
 * @param state an in-schema state
 * @param opts the decoder's caps (default `MAX_INLINE_BYTES`, `MAX_FRAGMENT_CHARS`)
 * @returns the fragment (no `#`), or the reason it is refused. Never throws.
 */
export function encodePermalinkChecked(
  state: PermalinkState,
  opts: DecodeOptions = {},
): CheckedFragment {
  const maxInline = Math.min(opts.maxInlineBytes ?? MAX_INLINE_BYTES, MAX_LINK_TRANSCRIPT_BYTES);
  const maxFragment = opts.maxFragmentChars ?? MAX_FRAGMENT_CHARS;
  if (state.source.kind === 'inline') {
    const text = state.source.text;
    const quick = inlineSizeRefusal(text.length, maxInline);
    if (quick !== null) return { ok: false, reason: quick, limit: 'inline-bytes' };
    const bytes = strToU8(text).length;
    const exact = inlineSizeRefusal(bytes, maxInline);
    if (exact !== null) return { ok: false, reason: exact, limit: 'inline-bytes' };
  }
  const fragment = encodePermalink(state);
  if (fragment.length > maxFragment)
    return {
      ok: false,
      reason: `The link would be ${fragment.length.toLocaleString('en-US')} characters; a link this page opens holds at most ${maxFragment.toLocaleString('en-US')}.`,
      limit: 'fragment-chars',
    };
  return { ok: true, fragment };
}

/**
 * Decode an inline payload.
 * @returns the text, or a reason a person can read (never throws)
 */
export function decodeInlinePayload(
  payload: string,
  maxBytes: number = MAX_INLINE_BYTES,
): { ok: true; text: string } | { ok: false; reason: string } {
  const m = /^(\d{1,4})\.([dn])\.([A-Za-z0-9_-]*)$/.exec(payload);
  if (!m)
    return { ok: false, reason: 'The inline transcript is not in the expected `1.d.…` form.' };
  const [, version, flag, body] = m;
  if (Number(version) !== INLINE_PAYLOAD_VERSION)
    return {
      ok: false,
      reason: `The inline transcript uses payload version ${version ?? '?'}, which this page does not read.`,
    };
  const bytes = fromBase64Url(body ?? '');
  if (!bytes) return { ok: false, reason: 'The inline transcript is not valid base64url.' };
  let utf8: Uint8Array;
  if (flag === 'd') {
    const inflated = inflateCapped(bytes, maxBytes);
    if (inflated === 'too-large')
      return {
        ok: false,
        reason: `The inline transcript expands beyond ${formatBytes(maxBytes)} and was refused (a decompression bomb, or too large for a link).`,
      };
    if (inflated === 'corrupt')
      return {
        ok: false,
        reason:
          'The inline transcript is damaged (not valid deflate data; the link may be cut off).',
      };
    utf8 = inflated;
  } else {
    if (bytes.length > maxBytes)
      return {
        ok: false,
        reason: `The inline transcript is larger than ${formatBytes(maxBytes)} and was refused.`,
      };
    utf8 = bytes;
  }
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true }).decode(utf8) };
  } catch {
    return { ok: false, reason: 'The inline transcript is not valid UTF-8 text.' };
  }
}

/**
 * A size for people, in binary units: `2 MiB`, `5.5 MiB`, `340 KiB`, `12 bytes`. Below 10 units a
 * fraction is shown to one decimal, rounded up, so a size above a limit never reads as the limit.
 */
export function formatBytes(n: number): string {
  const unit = (v: number, name: string) =>
    `${v >= 10 || Number.isInteger(v) ? Math.ceil(v) : (Math.ceil(v * 10) / 10).toFixed(1)} ${name}`;
  return n >= 1024 * 1024
    ? unit(n / (1024 * 1024), 'MiB')
    : n >= 1024
      ? unit(n / 1024, 'KiB')
      : `${n} bytes`;
}

// ---------------------------------------------------------------------------------------------
// encode

type PolicySlot = 'policy' | 'compare';

/** The keys of the chosen policy end in nothing, those of the compared one in `2` (`p2`, `pin2`). */
const SLOT_SUFFIX: Record<PolicySlot, string> = { policy: '', compare: '2' };

/** How one policy option goes into the URL and back. */
interface OptionCodec<K extends keyof PermalinkPolicyOptions> {
  option: K;
  /** The key without the slot's suffix. */
  key: string;
  /** The schema the read value must pass (a refused value falls back to the default). */
  schema: z.ZodType<PermalinkPolicyOptions[K]>;
  /** What the notice calls it when its value is refused. */
  what: string;
  /** The URL value; null leaves the key out. */
  write(v: PermalinkPolicyOptions[K]): string | null;
  /** The value the schema checks (undefined when unreadable: the text itself is checked). */
  read(text: string): unknown;
}

type AnyOptionCodec = {
  [K in keyof PermalinkPolicyOptions]: OptionCodec<K>;
}[keyof PermalinkPolicyOptions];

/** The policy options, in the order they are written and read (notices follow this order). */
const OPTION_CODECS: readonly AnyOptionCodec[] = [
  {
    option: 'pinFirst',
    schema: PolicyOptionsSchema.shape.pinFirst,
    key: 'pin',
    what: 'the pin-first option',
    write: (v) => (v ? '1' : '0'),
    read: parseBool,
  },
  {
    option: 'keepNewestExchanges',
    schema: PolicyOptionsSchema.shape.keepNewestExchanges,
    key: 'keep',
    what: 'the keep-newest option',
    write: String,
    read: parseUint,
  },
  {
    option: 'summaryTokens',
    schema: PolicyOptionsSchema.shape.summaryTokens,
    key: 'sum',
    what: 'the summary size',
    write: (v) => (v === null ? null : String(v)),
    read: parseUint,
  },
];

function encodeOption<K extends keyof PermalinkPolicyOptions>(
  params: URLSearchParams,
  c: OptionCodec<K>,
  suffix: string,
  value: PermalinkPolicyOptions[K],
  def: PermalinkPolicyOptions[K],
): void {
  if (value === def) return;
  const text = c.write(value);
  if (text !== null) params.set(c.key + suffix, text);
}

function encodePolicy(params: URLSearchParams, which: PolicySlot, p: PermalinkPolicy): void {
  const suffix = SLOT_SUFFIX[which];
  const def = DEFAULT_PERMALINK_STATE.view[which];
  if (p.id !== def.id) params.set(`p${suffix}`, p.id);
  for (const c of OPTION_CODECS)
    encodeOption(params, c, suffix, p.options[c.option], def.options[c.option]);
}

/**
 * The `fx` value: a layout version, then one item per fault, comma-separated:
 * `t<pair key>` timeout, `r<pair key>` tool raised, `c<message index>` cancel (`.<base64url of
 * UTF-8>` appended when it carries its own user text), `y<message index>` retry,
 * `n<count>` trailing truncation, `d<message index>` drop. Example: `1:tp3,c5`.
 * @param faults in-schema faults (model/faults.ts `FaultSpec`)
 * @returns the value, or null for no faults (the key is then left out)
 */
export function encodeFaults(faults: readonly FaultSpec[]): string | null {
  if (faults.length === 0) return null;
  const items = faults.map((f) => {
    switch (f.kind) {
      case 'timeout':
        return `t${f.pairKey}`;
      case 'tool_raised':
        return `r${f.pairKey}`;
      case 'cancel':
        return `c${f.messageIndex}${f.userText !== undefined ? `.${toBase64Url(strToU8(f.userText))}` : ''}`;
      case 'retry':
        return `y${f.messageIndex}`;
      case 'truncate':
        return `n${f.count}`;
      case 'drop':
        return `d${f.messageIndex}`;
    }
  });
  return `${FAULTS_VERSION}:${items.join(',')}`;
}

/**
 * Read an `fx` value.
 * @returns the faults (schema-checked: `FaultsSchema`), or null when the value is not a fault
 *   list this page reads (the caller falls back to no faults with a notice). Never throws.
 */
export function decodeFaults(value: string): FaultSpec[] | null {
  const m = /^(\d{1,4}):(.*)$/s.exec(value);
  if (!m || Number(m[1]) !== FAULTS_VERSION || !m[2]) return null;
  const out: unknown[] = [];
  for (const item of m[2].split(',')) {
    const pair = /^([tr])(p\d{1,8})$/.exec(item);
    if (pair) {
      out.push({ kind: pair[1] === 't' ? 'timeout' : 'tool_raised', pairKey: pair[2] });
      continue;
    }
    const cancel = /^c(\d{1,8})(?:\.([A-Za-z0-9_-]*))?$/.exec(item);
    if (cancel) {
      const f: Record<string, unknown> = { kind: 'cancel', messageIndex: Number(cancel[1]) };
      if (cancel[2] !== undefined) {
        const bytes = fromBase64Url(cancel[2]);
        if (!bytes) return null;
        try {
          f.userText = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
        } catch {
          return null;
        }
      }
      out.push(f);
      continue;
    }
    const num = /^([ynd])(\d{1,8})$/.exec(item);
    if (!num) return null;
    const n = Number(num[2]);
    out.push(
      num[1] === 'n'
        ? { kind: 'truncate', count: n }
        : { kind: num[1] === 'y' ? 'retry' : 'drop', messageIndex: n },
    );
  }
  const r = FaultsSchema.safeParse(out);
  return r.success ? (r.data as FaultSpec[]) : null;
}

/**
 * Encode a state as a URL fragment body (no leading `#`). Fields equal to their default are
 * left out, so a fresh page has an empty fragment apart from `v`.
 * @param state an in-schema state (as `decode` returns or the store holds)
 * @returns e.g. `v=1&src=samples%2Fswe-1.json&b=32000&sel=m42&at=x17`; its length is the
 *   link's cost in characters (an inline transcript can make it long: see the share panel)
 */
export function encodePermalink(state: PermalinkState): string {
  const params = new URLSearchParams();
  params.set('v', String(PERMALINK_VERSION));
  const { source, view } = state;
  if (source.kind === 'sample') params.set('src', source.id);
  else if (source.kind === 'inline') {
    params.set('t', encodeInlinePayload(source.text));
    if (source.redacted) params.set('r', '1');
  } else if (source.name !== undefined) params.set('n', source.name);
  if (view.format !== null) params.set('f', view.format);
  if (view.provider !== null) params.set('pr', view.provider);
  if (view.budget !== null) params.set('b', String(view.budget));
  encodePolicy(params, 'policy', view.policy);
  encodePolicy(params, 'compare', view.compare);
  if (view.selection)
    params.set(
      'sel',
      view.selection.kind === 'message' ? `m${view.selection.index}` : view.selection.key,
    );
  if (view.anchor !== null) params.set('at', view.anchor);
  const fx = encodeFaults(view.faults);
  if (fx !== null) params.set('fx', fx);
  return params.toString();
}

// ---------------------------------------------------------------------------------------------
// decode

/** Parse a canonical non-negative decimal integer (no sign, no exponent, ≤ 9 digits). */
function parseUint(s: string): number | undefined {
  return /^\d{1,9}$/.test(s) ? Number(s) : undefined;
}

function parseBool(s: string): boolean | undefined {
  return s === '1' || s === 'true' ? true : s === '0' || s === 'false' ? false : undefined;
}

/**
 * Decode a URL fragment into a complete state.
 * @param fragment `location.hash` (with or without the leading `#`), or any string
 * @param opts size caps (tests lower them)
 * @returns a state that always satisfies `PermalinkStateSchema`, plus one notice per ignored
 *   value or refused payload. Never throws.
 */
export function decodePermalink(fragment: string, opts: DecodeOptions = {}): DecodeResult {
  const maxFragment = opts.maxFragmentChars ?? MAX_FRAGMENT_CHARS;
  const maxInline = opts.maxInlineBytes ?? MAX_INLINE_BYTES;
  const state = defaultPermalinkState();
  const notices: PermalinkNotice[] = [];
  try {
    const body = fragment.startsWith('#') ? fragment.slice(1) : fragment;
    if (body.length === 0) return { state, notices };
    if (body.length > maxFragment) {
      notices.push({
        key: '#',
        message: `The link is ${body.length.toLocaleString('en-US')} characters long, above the ${maxFragment.toLocaleString('en-US')} this page reads; it was ignored.`,
      });
      return { state, notices };
    }
    const params = new URLSearchParams(body);
    const get = (k: string): string | undefined => params.get(k) ?? undefined;
    const invalid = (key: string, what: string, value: string) =>
      notices.push({
        key,
        message: `Ignored ${what} “${value.length > 40 ? `${value.slice(0, 40)}…` : value}” in the link: using the default.`,
      });

    const v = get('v');
    if (v !== undefined) {
      const n = parseUint(v);
      if (n === undefined || n < 1) invalid('v', 'the version', v);
      else if (n > PERMALINK_VERSION)
        notices.push({
          key: 'v',
          message: `This link was made by a newer version of the page (v${n}); settings this version does not know were ignored.`,
        });
    }

    state.source = decodeSource(get, notices, maxInline, invalid);
    state.view = decodeView(get, invalid);
  } catch (e) {
    // Defensive: nothing above should throw, but a link must never break the page.
    notices.push({
      key: '#',
      message: `The link could not be read (${e instanceof Error ? e.message : String(e)}); showing the defaults.`,
    });
    return { state: defaultPermalinkState(), notices };
  }
  return { state, notices };
}

type Getter = (k: string) => string | undefined;
type Invalid = (key: string, what: string, value: string) => void;

function decodeSource(
  get: Getter,
  notices: PermalinkNotice[],
  maxInline: number,
  invalid: Invalid,
): PermalinkSource {
  const t = get('t');
  const src = get('src');
  const r = get('r');
  const n = get('n');
  if (t !== undefined) {
    if (src !== undefined)
      notices.push({
        key: 'src',
        message:
          'The link names both a sample and an inline transcript; showing the inline transcript.',
      });
    const decoded = decodeInlinePayload(t, maxInline);
    if (!decoded.ok) {
      notices.push({ key: 't', message: decoded.reason });
      return { kind: 'none' };
    }
    let redacted = false;
    if (r !== undefined) {
      const b = parseBool(r);
      if (b === undefined) invalid('r', 'the structure-only flag', r);
      else redacted = b;
    }
    return { kind: 'inline', text: decoded.text, redacted };
  }
  if (src !== undefined) {
    const parsed = SampleIdSchema.safeParse(src);
    if (parsed.success) return { kind: 'sample', id: parsed.data };
    invalid('src', 'the sample', src);
  }
  if (n !== undefined) {
    const parsed = SourceNameSchema.safeParse(n);
    // Shown in the page: bidi controls as code points (a file's name is shown the same way).
    if (parsed.success) return { kind: 'none', name: displayName(parsed.data) };
    invalid('n', 'the transcript name', n);
  }
  return { kind: 'none' };
}

function pick<T>(
  schema: z.ZodType<T>,
  raw: unknown,
  fallback: T,
  key: string,
  what: string,
  text: string,
  invalid: Invalid,
): T {
  const r = schema.safeParse(raw);
  if (r.success) return r.data;
  invalid(key, what, text);
  return fallback;
}

function decodeOption<K extends keyof PermalinkPolicyOptions>(
  c: OptionCodec<K>,
  suffix: string,
  get: Getter,
  out: PermalinkPolicyOptions,
  invalid: Invalid,
): void {
  const key = c.key + suffix;
  const text = get(key);
  if (text === undefined) return;
  out[c.option] = pick(
    c.schema,
    c.read(text) ?? text,
    DEFAULT_POLICY_OPTIONS[c.option],
    key,
    c.what,
    text,
    invalid,
  );
}

function decodeView(get: Getter, invalid: Invalid): PermalinkView {
  const def = DEFAULT_PERMALINK_STATE.view;
  const shape = ViewSchema.shape;
  const view: PermalinkView = defaultPermalinkState().view;

  const f = get('f');
  if (f !== undefined)
    view.format = pick(shape.format, f, def.format, 'f', 'the format', f, invalid);
  const pr = get('pr');
  if (pr !== undefined)
    view.provider = pick(shape.provider, pr, def.provider, 'pr', 'the provider', pr, invalid);
  const b = get('b');
  if (b !== undefined)
    view.budget = pick(shape.budget, parseUint(b) ?? b, def.budget, 'b', 'the budget', b, invalid);

  for (const which of ['policy', 'compare'] as const) {
    const suffix = SLOT_SUFFIX[which];
    const out = view[which];
    const idKey = `p${suffix}`;
    const id = get(idKey);
    if (id !== undefined)
      out.id = pick(shape[which].shape.id, id, def[which].id, idKey, 'the policy', id, invalid);
    for (const c of OPTION_CODECS) decodeOption(c, suffix, get, out.options, invalid);
  }

  const sel = get('sel');
  if (sel !== undefined) {
    const m = /^m(\d{1,8})$/.exec(sel);
    const candidate = m ? { kind: 'message', index: Number(m[1]) } : { kind: 'pair', key: sel };
    view.selection = pick(
      shape.selection,
      candidate,
      def.selection,
      'sel',
      'the selection',
      sel,
      invalid,
    );
  }
  const at = get('at');
  if (at !== undefined)
    view.anchor = pick(AnchorSchema, at, def.anchor, 'at', 'the scroll anchor', at, invalid);
  const fx = get('fx');
  if (fx !== undefined) {
    const faults = decodeFaults(fx);
    if (faults === null) invalid('fx', 'the applied faults', fx);
    else view.faults = faults;
  }
  return view;
}

/** The ids accepted for each enumerated key, for pickers and docs. */
export const PERMALINK_ENUMS = {
  formats: FORMAT_IDS,
  providers: PROVIDER_IDS,
  policies: POLICY_IDS,
} as const;
