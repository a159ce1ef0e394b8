/**
 * What a structure-only copy renames instead of hiding: ids (consistently, no prefix kept),
 * timestamps (to a relative clock), model names (to their public base) and object keys outside
 * the vocabulary.
 */
import { inVocabulary } from './vocabulary.ts';

/** Keys whose string value is an identifier: tool call ids, item ids, uuids, session ids. */
export function isIdKey(key: string): boolean {
  return /^(id|uuid)$|(_id|Id|ID|_uuid|Uuid|UUID)$/.test(key);
}

/** An ISO 8601 date-time (`2025-12-09T19:51:29.418Z`, with or without zone or fraction). */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** Keys whose number value is a point in time (epoch seconds or milliseconds). */
const TIME_NUMBER_KEY =
  /^(created|created_at|create_time|update_time|timestamp|started_at|completed_at|startTime|endTime)$/;

/** True for a string that is a date-time a relative clock replaces. */
export function isTimestamp(s: string): boolean {
  return ISO_TIME.test(s) && Number.isFinite(Date.parse(s));
}

/** True for a number under a key that holds a point in time. */
export function isTimeNumberKey(key: string): boolean {
  return TIME_NUMBER_KEY.test(key);
}

/** Where the relative clock starts (ms since the epoch): a round date no log was written on. */
const CLOCK_ZERO = Date.UTC(2000, 0, 1);

/**
 * An id of the same shape as `id` naming serial `n`: letters and digits replaced by `r`, zeros
 * and `n` in base 36, other characters kept in place. Two ids of one shape get different serials,
 * and ids of different shapes differ in shape, so renames never collide. An id with too few
 * letters and digits for the serial (a few characters long) is `r` + serial + its other
 * characters: longer, but still far below every length limit and with the same punctuation.
 */
export function shapedId(id: string, n: number): string {
  const serial = n.toString(36);
  const slots = id.replace(/[^a-zA-Z0-9]/g, '').length;
  if (slots < serial.length + 1) return `r${serial}${id.replace(/[a-zA-Z0-9]/g, '')}`;
  const fill = `r${serial.padStart(slots - 1, '0')}`;
  let k = 0;
  return id.replace(/[a-zA-Z0-9]/g, () => fill[k++] as string);
}

/** A key a copy renamed (`Renames.key`): renaming it again keeps it (a copy of a copy). */
export const RENAMED_KEY = /^k\d{1,9}(?:_id)?$/;

/** Renamed ids and a relative clock, shared by every part of one redaction. */
export class Renames {
  readonly ids = new Map<string, string>();
  /** Object keys that are data, not schema (file paths, ids, names). */
  private readonly keys = new Map<string, string>();
  private t0: number | null = null;
  private n0: number | null = null;

  /**
   * A renamed id, the same for every occurrence: its letters and digits become `r`, zeros and
   * the id's serial number in base 36 (order of first appearance), every other character stays
   * where it is. Nothing of the original's letters or digits is kept, not even a prefix
   * (`alice_call_7` says who made it); its length and punctuation are, because providers judge
   * ids by them (A18, B10, M4, O10, R8): `functions.Bash:0` → `r00000000.0000:1`.
   */
  id(id: string): string;
  id(id: string | null): string | null;
  id(id: string | null): string | null {
    if (id === null || id === '') return id;
    let r = this.ids.get(id);
    if (r === undefined) {
      r = shapedId(id, this.ids.size + 1);
      this.ids.set(id, r);
    }
    return r;
  }

  /**
   * A date-time on a relative clock: the first one seen becomes 2000-01-01T00:00:00.000Z, the
   * others keep their distance from it (order and durations stay, the date does not).
   */
  clock(s: string): string {
    const t = Date.parse(s);
    if (!Number.isFinite(t)) return s;
    this.t0 ??= t;
    return new Date(CLOCK_ZERO + t - this.t0).toISOString();
  }

  /** A numeric point in time on a relative clock (same unit as given; the first one is 0). */
  clockNumber(n: number): number {
    this.n0 ??= n;
    return n - this.n0;
  }

  /**
   * A key as shared: a key of the vocabulary (`vocabulary.ts`: the keys the model reads and
   * writes) stays; any other key is data — Claude Code keys file backups by path, and a key may
   * be an AWS key id or a token (issue 37) — and becomes `k1`, `k2`, … consistently (`k3_id` for
   * an id's key).
   */
  key(k: string): string {
    if (inVocabulary(k) || RENAMED_KEY.test(k)) return k;
    let r = this.keys.get(k);
    if (r === undefined) {
      // An id's key stays an id's key (`promptId` → `k4_id`), so a copy of the copy renames its
      // value as an id again, not as text: redaction is idempotent.
      r = `k${this.keys.size + 1}${isIdKey(k) ? '_id' : ''}`;
      this.keys.set(k, r);
    }
    return r;
  }
}

/** Model families whose names are public (OpenAI, Anthropic, Google, Mistral, Meta, …), a version joined or not (`llama3.1`). */
const FAMILY =
  '(?:claude|gpt|o[1-9]|chatgpt|gemini|gemma|mistral|mixtral|codestral|magistral|ministral|pixtral|devstral|deepseek|qwen|qwq|llama|grok|command|nova|titan|phi|kimi|glm|text-embedding)(?:\\d+(?:\\.\\d+)?)?';
/** Name parts that belong to public model ids: versions and the providers' own size/tier words. */
const PART =
  '(?:\\d[a-z0-9]*|v\\d[a-z0-9]*|[a-z]?\\d+[a-z]?|mini|nano|turbo|preview|pro|flash|lite|opus|sonnet|haiku|fable|mythos|instruct|chat|latest|exp|experimental|thinking|large|small|medium|tiny|coder|reasoner|vision|max|plus|audio|realtime|search|codex|high|low|it|r|a|e|reasoning|embedding|sonar|image|live|native|fast|oss)';
const PUBLIC_MODEL = new RegExp(`(?<![a-z0-9])${FAMILY}(?:[-.]${PART}(?![a-z0-9]))*`, 'i');

/**
 * A public model name of another provider, kept as it is: the name alone (`gpt-4o-2024-08-06`),
 * under a public namespace (`models/gemini-2.0-flash`, `anthropic/claude-sonnet-4.5`), with a
 * version or tag (`claude-3-5-sonnet-v2@20241022`, `llama3.1:8b`, `deepseek-r1:free`).
 */
const PUBLIC_NAME = new RegExp(
  '^(?:(?:models|publishers|google|anthropic|openai|meta-llama|mistralai|deepseek|qwen|x-ai|cohere|amazon|microsoft|moonshotai|z-ai|nvidia)/)*' +
    `${FAMILY}(?:[-.]${PART})*` +
    '(?:@(?:\\d+|latest)|:(?:\\d+(?:\\.\\d+)?[a-z]?|latest|free|beta|thinking|online|nitro|extended))?$',
  'i',
);

/**
 * A public Bedrock model id, kept as it is: a provider's base model (`anthropic.claude-3-5-sonnet-
 * 20240620-v1:0`, `meta.llama3-1-70b-instruct-v1:0`, `…-v1:0:200k`) or a cross-region inference
 * profile (`us.anthropic.claude-sonnet-4-5-20250929-v1:0`). Custom models have ARNs, not ids.
 */
const BEDROCK_ID = new RegExp(
  '^(?:(?:us|us-gov|eu|apac|jp|au|ca|global)\\.)?' +
    '(?:anthropic|amazon|meta|mistral|cohere|ai21|deepseek|qwen|openai|writer|stability|twelvelabs|luma|google|minimax|moonshot|moonshotai|nvidia|zai)' +
    '\\.[a-z0-9][a-z0-9.-]*(?::\\d+(?::\\d+k)?)?$',
  'i',
);

/** A Bedrock ARN: `arn:aws:bedrock:<region>:<account>:<kind>/<resource>`. */
const BEDROCK_ARN = /^arn:aws[\w-]*:bedrock:[\w-]*:(\d*):([\w-]+)\/(.+)$/;

/**
 * A Bedrock ARN as shared: a foundation model's (it names no account) as it is; any other (an
 * inference profile, a provisioned, custom or imported model) as the Bedrock id it names
 * (`custom-model/anthropic.claude-3-haiku-20240307-v1:0:200k/…` → that id), else undefined.
 */
function bedrockArn(name: string): string | undefined {
  const m = BEDROCK_ARN.exec(name);
  if (!m) return undefined;
  const [, account, kind, resource] = m as unknown as [string, string, string, string];
  if (kind === 'foundation-model' && account === '' && BEDROCK_ID.test(resource)) return name;
  return resource.split('/').find((part) => BEDROCK_ID.test(part));
}

/**
 * A model name as shared. A public id is kept as it is (`claude-sonnet-4-5`, a Bedrock id such as
 * `anthropic.claude-3-5-sonnet-20240620-v1:0` or `us.anthropic.claude-…-v1:0`, `models/gemini-
 * 2.0-flash`), so the copy is still a valid body of its API. A fine-tuned or custom name becomes
 * its public base, so the copy names no fine-tune, organisation, account or deployment:
 * `ft:gpt-4o-mini-2024-07-18:acme:triage:9x` → `gpt-4o-mini-2024-07-18`, a Bedrock ARN → the
 * Bedrock id it names, an Azure deployment `acme-gpt-4o-prod` → `gpt-4o`. Rules that read the
 * model (A12 prefill, G4 thought signatures, Bedrock's Claude rules, the Claude token factors)
 * see the same family and version. A name with no public family becomes `custom-model`; Claude
 * Code's `<synthetic>` marker stays (it says the line is not the model's).
 */
export function publicModel(name: string): string {
  if (/^<\w+>$/.test(name) || BEDROCK_ID.test(name) || PUBLIC_NAME.test(name)) return name;
  const arn = bedrockArn(name);
  if (arn !== undefined) return arn;
  const m = PUBLIC_MODEL.exec(name);
  return m ? m[0] : 'custom-model';
}
