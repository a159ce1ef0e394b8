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
 * | `rq` | view | the request shown of a file holding several, 1-based (as `--request N`) |
 * | `b` | view | budget in tokens |
 * | `p`, `pin`, `keep`, `sum` | view | chosen policy and its options |
 * | `p2`, `pin2`, `keep2`, `sum2` | view | compared policy and its options |
 * | `sel` | view | selection: `m42` (message index) or `p3` (tool pair key) |
 * | `at` | view | scroll anchor: exchange key (`x17`) |
 * | `d` | view | diff view: `prev` (the request against its predecessor), `3.5` (requests 3 and 5), `cuts` (the two policies' cuts at `b`) |
 * | `fx` | view | applied faults, in order: `1:tp3,rp0,c5,c5.<base64url text>,y5,n2,d3` (see `encodeFaults`) |
 *
 * The layers live in their own files: `inline.ts` (the `t=` payload), `view.ts` (the view keys),
 * `faults.ts` (`fx=`), `schema.ts` (what a link carries, with defaults). This file is the
 * fragment: the version, the source keys and the limits a link must meet.
 *
 * Pure: no window/location; imports only fflate, zod (via the schema) and model types, so the
 * page, the CLI and tests share it.
 */
import { strToU8 } from 'fflate';
import { displayName } from '../displayName.ts';
import {
  decodeInlinePayload,
  encodeInlinePayload,
  inlineSizeRefusal,
  MAX_INLINE_BYTES,
  MAX_LINK_TRANSCRIPT_BYTES,
} from './inline.ts';
import {
  FORMAT_IDS,
  PERMALINK_VERSION,
  POLICY_IDS,
  PROVIDER_IDS,
  SampleIdSchema,
  SourceNameSchema,
  defaultPermalinkState,
  type PermalinkSource,
  type PermalinkState,
} from './schema.ts';
import { decodeView, encodeView, parseBool, parseUint, type Getter, type Invalid } from './view.ts';
import { searchParams } from './web.ts';

/**
 * Largest fragment we read, in characters. Chromium refuses URLs over 2 MiB (2,097,152 chars), so
 * nothing longer can be a link someone actually opened; reading more would only cost memory.
 */
export const MAX_FRAGMENT_CHARS = 2 * 1024 * 1024;

/** A non-blocking message for the reader: a value was ignored, a payload refused. */
export interface PermalinkNotice {
  /** The fragment key concerned (`b`, `t`, …), or `#` for the whole fragment. */
  key: string;
  message: string;
  /** `info`: a note on what is shown (a view-only or structure-only link); absent: something was ignored or refused. */
  tone?: 'info';
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
 * Encode a state as a URL fragment body (no leading `#`). Fields equal to their default are
 * left out, so a fresh page has an empty fragment apart from `v`.
 * @param state an in-schema state (as `decode` returns or the store holds)
 * @returns e.g. `v=1&src=samples%2Fswe-1.json&b=32000&sel=m42&at=x17`; its length is the
 *   link's cost in characters (an inline transcript can make it long: see the share panel)
 */
export function encodePermalink(state: PermalinkState): string {
  const params = searchParams();
  params.set('v', String(PERMALINK_VERSION));
  const { source, view } = state;
  if (source.kind === 'sample') params.set('src', source.id);
  else if (source.kind === 'inline') {
    params.set('t', encodeInlinePayload(source.text));
    if (source.redacted) params.set('r', '1');
  } else if (source.name !== undefined) params.set('n', source.name);
  encodeView(params, view);
  return params.toString();
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
    const params = searchParams(body);
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

/**
 * The notice that refuses a link's transcript, or null when the link gives the transcript it
 * names (or names none). One reading for the page and the CLI (issue 37): a link whose `t` is
 * read shows that transcript, a `src` beside it only noted (the CLI exited 2 on it); a refused
 * `t`, an unreadable sample name or an unreadable fragment leaves no transcript, and is refused.
 */
export function refusedSource(d: DecodeResult): PermalinkNotice | null {
  if (d.state.source.kind !== 'none') return null;
  return d.notices.find((n) => n.key === 't' || n.key === 'src' || n.key === '#') ?? null;
}

/** The source keys (`t`, `r`, `src`, `n`): an inline transcript wins over a sample, a sample over a name. */
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
    // Not "using the default": the page shows no sample in place of the one a link names.
    notices.push({
      key: 'src',
      message: `The link names the sample “${displayName(src.length > 40 ? `${src.slice(0, 40)}…` : src)}”, which is not a sample name this page reads (the link may be cut off or damaged).`,
    });
  }
  if (n !== undefined) {
    const parsed = SourceNameSchema.safeParse(n);
    // Shown in the page: bidi controls as code points (a file's name is shown the same way).
    if (parsed.success) return { kind: 'none', name: displayName(parsed.data) };
    invalid('n', 'the transcript name', n);
  }
  return { kind: 'none' };
}

/**
 * Keys the page reads outside the codec (state/permalink/storeLink.ts): `learn`, the Learn mode
 * step, and `sim`, the simulator panel open or collapsed. Neither changes a verdict.
 */
export const PAGE_ONLY_KEYS = ['learn', 'sim'] as const;

/** Every key the codec reads (the page also reads `PAGE_ONLY_KEYS`). */
export const PERMALINK_KEYS = [
  'v',
  'src',
  't',
  'r',
  'n',
  'f',
  'pr',
  'rq',
  'm',
  'b',
  'p',
  'pin',
  'keep',
  'sum',
  'kt',
  'p2',
  'pin2',
  'keep2',
  'sum2',
  'kt2',
  'sel',
  'at',
  'fx',
  'd',
] as const;

/** The ids accepted for each enumerated key, for pickers and docs. */
export const PERMALINK_ENUMS = {
  formats: FORMAT_IDS,
  providers: PROVIDER_IDS,
  policies: POLICY_IDS,
} as const;
