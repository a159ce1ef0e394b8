/**
 * The permalink schema: what a shared link carries, with a default for every field.
 *
 * Two layers, as Perfetto splits its serialised state (style.md §4.3, §4.9 item 5):
 * - **source**: where the transcript comes from — nothing, a sample id, or the transcript inline
 *   (deflated + base64url, carrying its own payload version and compression flag, like
 *   excalidraw's `encode.ts`);
 * - **view**: what the reader looks at — format override, provider, budget, the two policies
 *   (the chosen one and the one it is compared with) and their options, the selection, and the
 *   scroll anchor (an exchange key, never pixels), and the faults applied to the transcript.
 *
 * `PERMALINK_VERSION` is bumped only for breaking changes; adding a key with a default is not one.
 * Its enums are the registries' ids (formats, providers, policies), never a list of their own.
 * Pure: imports only zod and the model (no window/location), so it runs in tests and workers.
 */
import { z } from 'zod';
import { POLICIES } from '../evict/registry.ts';
import { PARSERS } from '../parse/registry.ts';
import { FAULT_SCHEMAS } from '../faults/registry.ts';
import { LONE_SURROGATE } from '../faults/targets.ts';
import { MODEL_ID_MAX, MODEL_ID_PATTERN } from './modelId.ts';
import { VALIDATORS } from '../validate/index.ts';

/** Version of the fragment syntax (`#v=1&…`). */
export const PERMALINK_VERSION = 1;

/** A registry's ids as the non-empty tuple `z.enum` takes (every registry has entries). */
function registered<T extends string>(ids: readonly T[]): readonly [T, ...T[]] {
  if (ids.length === 0) throw new Error('a permalink enum over an empty registry');
  return ids as readonly [T, ...T[]];
}

/** The `format` values a link may carry: every registered format (parse/registry.ts). */
export const FORMAT_IDS = registered(PARSERS.map((p) => p.id));

/** The `provider` values: every provider with a validator (validate/index.ts). */
export const PROVIDER_IDS = registered(VALIDATORS.map((v) => v.id));

/** The policy ids of `p` / `p2`: every registered eviction policy (evict/registry.ts). */
export const POLICY_IDS = registered(POLICIES);

/** Largest budget a link may carry, in tokens (10 M: above every context window we know of). */
export const MAX_BUDGET_TOKENS = 10_000_000;
/** Largest "keep newest N exchanges" a link may carry. */
export const MAX_KEEP_EXCHANGES = 100_000;
/** Largest summary size a link may carry, in tokens. */
export const MAX_SUMMARY_TOKENS = 1_000_000;

/** A sample shipped with the page (`samples/swe-1.json`): a relative path, no `..`, no scheme. */
export const SampleIdSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9_-][A-Za-z0-9_./-]*$/)
  .refine((s) => !s.split('/').includes('..'), 'no parent segments');

/** A UTF-16 surrogate without its partner: UTF-8 (and so a link) cannot carry one. */

/** Longest transcript name a view-only link may carry (`n=`), in characters. */
export const MAX_SOURCE_NAME_CHARS = 200;

/**
 * The name of the transcript a view-only link was made for (a file name: `session.jsonl`): shown
 * to the reader so they know what to open. No path separators or control characters.
 */
export const SourceNameSchema = z
  .string()
  .min(1)
  .max(MAX_SOURCE_NAME_CHARS)
  .refine(
    (s) => ![...s].some((c) => c === '/' || c === '\\' || c.charCodeAt(0) < 0x20 || c === '\x7f'),
    'no path separators or control characters',
  )
  .refine((s) => !LONE_SURROGATE.test(s), 'well-formed UTF-16');

export const SourceSchema = z.discriminatedUnion('kind', [
  /**
   * No transcript in the link (a view-only link); `name` = the transcript it was made for, when
   * known.
   */
  z.object({ kind: z.literal('none'), name: SourceNameSchema.optional() }),
  z.object({ kind: z.literal('sample'), id: SampleIdSchema }),
  /** The transcript's source text, inline. `redacted` marks a structure-only link. */
  z.object({
    kind: z.literal('inline'),
    text: z.string().refine((s) => !LONE_SURROGATE.test(s), 'well-formed UTF-16'),
    redacted: z.boolean(),
  }),
]);
export type PermalinkSource = z.infer<typeof SourceSchema>;

export const PolicyOptionsSchema = z.object({
  pinFirst: z.boolean(),
  keepNewestExchanges: z.number().int().min(0).max(MAX_KEEP_EXCHANGES),
  /** Tokens; null = the policy's own default. */
  summaryTokens: z.number().int().min(1).max(MAX_SUMMARY_TOKENS).nullable(),
  /** clear-tool-results: tool uses whose results stay; null = Anthropic's default (3). */
  keepToolUses: z.number().int().min(0).max(MAX_KEEP_EXCHANGES).nullable(),
});
export type PermalinkPolicyOptions = z.infer<typeof PolicyOptionsSchema>;

export const PolicyChoiceSchema = z.object({
  id: z.enum(POLICY_IDS),
  options: PolicyOptionsSchema,
});
export type PermalinkPolicy = z.infer<typeof PolicyChoiceSchema>;

/** A selected message (ours, by index: `m42`) or a selected tool pair / arc (pair key: `p3`). */
export const SelectionSchema = z
  .discriminatedUnion('kind', [
    z.object({ kind: z.literal('message'), index: z.number().int().min(0).max(10_000_000) }),
    z.object({ kind: z.literal('pair'), key: z.string().regex(/^p\d{1,8}$/) }),
  ])
  .nullable();
export type PermalinkSelection = z.infer<typeof SelectionSchema>;

/** The scroll anchor: the key of the top visible exchange (`x17`). */
export const AnchorSchema = z
  .string()
  .regex(/^x\d{1,8}$/)
  .nullable();

/** Most faults a link may carry (the page's stack is a handful; more is not a real view). */
export const MAX_FAULTS = 50;

/** Version of the `fx` fault list layout (`1:tp3,c5`), independent of the fragment `v`. */
export const FAULTS_VERSION = 1;

/** One applied fault (model/faults.ts `FaultSpec`), as a link carries it: each fault's own schema. */
export const FaultSpecSchema = z.union(FAULT_SCHEMAS);

/** The applied faults, in order (each applies to the result of the previous one). */
export const FaultsSchema = z.array(FaultSpecSchema).max(MAX_FAULTS);

/** Most requests a link may name (`rq`, `d`): far above any file the page can open. */
export const MAX_REQUEST_INDEX = 10_000_000;
const RequestIndexSchema = z.number().int().min(0).max(MAX_REQUEST_INDEX);

/**
 * The diff view (issue 33), when open: the chosen request against its predecessor in lineage
 * (`previous`), two requests of the file (`requests`, 0-based), or the two policies' cuts of
 * the request shown at the link's budget (`cuts`). Two pasted transcripts are not carried (a
 * link holds one transcript).
 */
export const DiffViewSchema = z
  .discriminatedUnion('kind', [
    z.object({ kind: z.literal('previous') }),
    z.object({ kind: z.literal('requests'), left: RequestIndexSchema, right: RequestIndexSchema }),
    z.object({ kind: z.literal('cuts') }),
  ])
  .nullable();
export type PermalinkDiff = z.infer<typeof DiffViewSchema>;
/** A model id as providers spell them (`claude-opus-4-7`, `anthropic.claude-…-v1:0`, `gemini-3-pro-preview`). */
export const ModelIdSchema = z.string().min(1).max(MODEL_ID_MAX).regex(MODEL_ID_PATTERN);

export const ViewSchema = z.object({
  /** Forced input format; null = detect. */
  format: z.enum(FORMAT_IDS).nullable(),
  /** Provider whose rules apply; null = the format's own provider. */
  provider: z.enum(PROVIDER_IDS).nullable(),
  /**
   * The request shown of a file holding several (0-based; `rq=` writes it 1-based, as the strip
   * and `--request N` number them); null = the parser's default (the newest).
   */
  request: RequestIndexSchema.nullable(),
  /**
   * The model the rules judge as (the page's Model picker, the CLI's `--model`); null = the
   * transcript's own. A model id: letters, digits and `.:/@_-`, at most 120 characters.
   */
  model: ModelIdSchema.nullable(),
  /** Budget in tokens (system prompt included); null = no budget set. */
  budget: z.number().int().min(0).max(MAX_BUDGET_TOKENS).nullable(),
  /** The chosen policy. */
  policy: PolicyChoiceSchema,
  /** The policy it is compared with (the exchange-level alternative by default). */
  compare: PolicyChoiceSchema,
  selection: SelectionSchema,
  anchor: AnchorSchema,
  /** Faults applied to the transcript (issue 8), in order; [] = the transcript as loaded. */
  faults: FaultsSchema,
  /** The diff view open, or null. */
  diff: DiffViewSchema,
});
export type PermalinkView = z.infer<typeof ViewSchema>;

export const PermalinkStateSchema = z.object({ source: SourceSchema, view: ViewSchema });
/** Everything a link carries. Every field has a default (`DEFAULT_PERMALINK_STATE`). */
export type PermalinkState = z.infer<typeof PermalinkStateSchema>;

export const DEFAULT_POLICY_OPTIONS: PermalinkPolicyOptions = {
  pinFirst: false,
  keepNewestExchanges: 0,
  summaryTokens: null,
  keepToolUses: null,
};

export const DEFAULT_PERMALINK_STATE: PermalinkState = {
  source: { kind: 'none' },
  view: {
    format: null,
    provider: null,
    request: null,
    model: null,
    budget: null,
    policy: { id: 'message', options: DEFAULT_POLICY_OPTIONS },
    compare: { id: 'exchange', options: DEFAULT_POLICY_OPTIONS },
    selection: null,
    anchor: null,
    faults: [],
    diff: null,
  },
};

/** A fresh copy of the defaults (callers may mutate it; no object is shared with another copy). */
export function defaultPermalinkState(): PermalinkState {
  const v = DEFAULT_PERMALINK_STATE.view;
  return {
    source: { kind: 'none' },
    view: {
      ...v,
      policy: { id: v.policy.id, options: { ...v.policy.options } },
      compare: { id: v.compare.id, options: { ...v.compare.options } },
      faults: [],
      diff: null,
    },
  };
}
