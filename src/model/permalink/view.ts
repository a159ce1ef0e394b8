/**
 * The view layer of a permalink: format override, provider, budget, the two policies and their
 * options, the selection, the scroll anchor and the applied faults (`f`, `pr`, `rq`, `b`, `p`/`pin`/
 * `keep`/`sum`, `p2`/`pin2`/`keep2`/`sum2`, `sel`, `at`, `fx`, `d`; table in `codec.ts`). Every key
 * goes through the schema; a value that fails falls back to its default with a notice.
 *
 * Pure: zod (via the schema) and model types only.
 */
import { resolveEndpoint } from '../validate/endpoints/index.ts';
import type { z } from 'zod';
import { decodeFaults, encodeFaults } from './faults.ts';
import {
  AnchorSchema,
  DEFAULT_PERMALINK_STATE,
  DEFAULT_POLICY_OPTIONS,
  PolicyOptionsSchema,
  ViewSchema,
  defaultPermalinkState,
  type PermalinkPolicy,
  type PermalinkPolicyOptions,
  type PermalinkView,
} from './schema.ts';
import type { SearchParams } from './web.ts';

/** Reads one key of the fragment (undefined when absent). */
export type Getter = (k: string) => string | undefined;
/** Records a value that was refused (a notice; the default is used instead). */
export type Invalid = (key: string, what: string, value: string) => void;

/** Parse a canonical non-negative decimal integer (no sign, no exponent, ≤ 9 digits). */
export function parseUint(s: string): number | undefined {
  return /^\d{1,9}$/.test(s) ? Number(s) : undefined;
}

/** `1`/`true` and `0`/`false`; undefined for anything else. */
export function parseBool(s: string): boolean | undefined {
  return s === '1' || s === 'true' ? true : s === '0' || s === 'false' ? false : undefined;
}

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
  {
    option: 'keepToolUses',
    schema: PolicyOptionsSchema.shape.keepToolUses,
    key: 'kt',
    what: 'the tool uses kept',
    write: (v) => (v === null ? null : String(v)),
    read: parseUint,
  },
];

function encodeOption<K extends keyof PermalinkPolicyOptions>(
  params: SearchParams,
  c: OptionCodec<K>,
  suffix: string,
  value: PermalinkPolicyOptions[K],
  def: PermalinkPolicyOptions[K],
): void {
  if (value === def) return;
  const text = c.write(value);
  if (text !== null) params.set(c.key + suffix, text);
}

function encodePolicy(params: SearchParams, which: PolicySlot, p: PermalinkPolicy): void {
  const suffix = SLOT_SUFFIX[which];
  const def = DEFAULT_PERMALINK_STATE.view[which];
  if (p.id !== def.id) params.set(`p${suffix}`, p.id);
  for (const c of OPTION_CODECS)
    encodeOption(params, c, suffix, p.options[c.option], def.options[c.option]);
}

/**
 * Write the view's keys (those that differ from their default) into `params`, in the order the
 * fragment lists them.
 */
export function encodeView(params: SearchParams, view: PermalinkView): void {
  if (view.format !== null) params.set('f', view.format);
  if (view.provider !== null) params.set('pr', view.provider);
  if (view.request !== null) params.set('rq', String(view.request + 1));
  if (view.model !== null) params.set('m', view.model);
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
  const d = encodeDiff(view.diff);
  if (d !== null) params.set('d', d);
}

/** The diff view as `d=` writes it: `prev`, `cuts`, or two 1-based requests `3.5`; null = closed. */
export function encodeDiff(diff: PermalinkView['diff']): string | null {
  if (diff === null) return null;
  if (diff.kind === 'previous') return 'prev';
  if (diff.kind === 'cuts') return 'cuts';
  return `${diff.left + 1}.${diff.right + 1}`;
}

/** `d=` read back (`encodeDiff`'s inverse); undefined for anything else. */
export function decodeDiff(text: string): PermalinkView['diff'] | undefined {
  if (text === 'prev') return { kind: 'previous' };
  if (text === 'cuts') return { kind: 'cuts' };
  const m = /^(\d{1,8})\.(\d{1,8})$/.exec(text);
  if (!m) return undefined;
  const left = Number(m[1]) - 1;
  const right = Number(m[2]) - 1;
  return left < 0 || right < 0 ? undefined : { kind: 'requests', left, right };
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

/**
 * Read the view's keys.
 * @param get the fragment's keys
 * @param invalid called once per refused value (its default is used)
 * @returns a complete, in-schema view (defaults where the link said nothing usable)
 */
export function decodeView(get: Getter, invalid: Invalid): PermalinkView {
  const def = DEFAULT_PERMALINK_STATE.view;
  const shape = ViewSchema.shape;
  const view: PermalinkView = defaultPermalinkState().view;

  const f = get('f');
  if (f !== undefined)
    view.format = pick(shape.format, f, def.format, 'f', 'the format', f, invalid);
  const pr = get('pr');
  if (pr !== undefined)
    // An alias (`bedrock-converse`, `azure`, …) reads as the endpoint it names.
    view.provider = pick(
      shape.provider,
      resolveEndpoint(pr) ?? pr,
      def.provider,
      'pr',
      'the provider',
      pr,
      invalid,
    );
  const rq = get('rq');
  if (rq !== undefined) {
    const n = parseUint(rq);
    const candidate = n !== undefined && n > 0 ? n - 1 : rq;
    view.request = pick(shape.request, candidate, def.request, 'rq', 'the request', rq, invalid);
  }
  const m = get('m');
  if (m !== undefined) view.model = pick(shape.model, m, def.model, 'm', 'the model', m, invalid);
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
  const d = get('d');
  if (d !== undefined)
    view.diff = pick(shape.diff, decodeDiff(d) ?? d, def.diff, 'd', 'the diff view', d, invalid);
  return view;
}
