/**
 * An endpoint's validator from its base endpoint's and its dialect (endpoints/types.ts): the
 * base's verdict, the texts the endpoint words its own way, a rewrite of every body (Bedrock's
 * prefix), and the checks the base does not make.
 */
import type { Transcript } from '../../types.ts';
import { ruleSpec } from '../catalogue/index.ts';
import { hasError } from '../rules/common.ts';
import type {
  ChainValidate,
  ProviderValidator,
  ValidateOptions,
  Validation,
  Violation,
} from '../types.ts';
import type { Dialect, Wording } from './types.ts';
import type { EndpointId } from './index.ts';

/**
 * Put a new text into a violation's 400 body: the body is searched for the old text (a string
 * value anywhere in it) and that value replaced.
 */
function withText(error: unknown, old: string, text: string): unknown {
  if (typeof error === 'string') return error === old ? text : error;
  if (Array.isArray(error)) return error.map((e) => withText(e, old, text));
  if (error !== null && typeof error === 'object') {
    // Own data properties (Object.fromEntries), so no key reaches a prototype (issue 37).
    return Object.fromEntries(Object.entries(error).map(([k, v]) => [k, withText(v, old, text)]));
  }
  return error;
}

/** A base violation in the endpoint's words (its code, text, body, path and confidence). */
function reword(v: Violation, w: Wording, t: Transcript): Violation {
  const message = w.text(v, t);
  const spec = ruleSpec(w.code);
  return {
    ...v,
    code: w.code,
    message,
    confidence: spec.confidence,
    severity: spec.severity,
    status: spec.severity === 'error' ? 400 : null,
    providerPath: w.providerPath ? w.providerPath(v) : v.providerPath,
    error: w.envelope ? w.envelope(message) : withText(v.error, v.message, message),
  };
}

/**
 * The validator of an endpoint that speaks its base endpoint's API with its own dialect.
 * @param id the endpoint's id; `label` its name
 * @param base the base endpoint's validator
 * @param dialect what the endpoint does differently
 */
export function dialectValidator(
  id: EndpointId,
  label: string,
  base: ProviderValidator,
  dialect: Dialect,
): ProviderValidator {
  /** The base's verdict `b` of `t` in the endpoint's words, with its extra checks. */
  const inDialect = (
    t: Transcript,
    opts: ValidateOptions | undefined,
    b: Validation,
  ): Validation => {
    const violations: Violation[] = [];
    for (const v of b.violations) {
      const w = dialect.wording?.[v.code];
      let out = w && (w.when === undefined || w.when(t)) ? reword(v, w, t) : v;
      if (dialect.rewrite) out = dialect.rewrite(out);
      violations.push(out);
    }
    const extra = dialect.extra ? dialect.extra(t, opts, b) : [];
    const all = extra.length > 0 ? [...extra, ...violations] : violations;
    return { provider: id, valid: !hasError(all), violations: all, notes: b.notes };
  };
  const validate = (t: Transcript, opts?: ValidateOptions): Validation =>
    inDialect(t, opts, base.validate(t, opts));
  const baseChain = base.chain;
  return {
    id,
    label,
    ...(base.requestTurns ? { requestTurns: base.requestTurns } : {}),
    ...(base.chatCompletions ? { chatCompletions: true } : {}),
    // No `cuts`: the base's fast cut path words what a cut breaks in the base's texts, so an
    // endpoint's cuts are validated directly.
    validate,
    // Along a chain the base resumes; the wording and the extra checks are the endpoint's own.
    ...(baseChain
      ? {
          chain: (): ChainValidate => {
            const step = baseChain();
            return (t, opts) => inDialect(t, opts, step(t, opts));
          },
        }
      : {}),
  };
}
