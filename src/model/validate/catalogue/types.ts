import type { ProviderId } from '../../types.ts';
import type { RuleId, Violation } from '../types.ts';

/**
 * What a text template is filled with: message index `n`, content index `m`, the tool ids, and
 * a few rule-specific words. Numbers or, for the catalogue page, placeholders such as `N`.
 */
export interface TextParams {
  n?: number | string;
  m?: number | string;
  id?: string;
  ids?: readonly string[];
  name?: string;
  type?: string;
  /** The block type found where another was expected (T1/T2), or a role (mistral). */
  found?: string;
  prev?: string;
  position?: number | string;
  /** A provider path the text starts with (A17's schema error). */
  path?: string;
  /** A rule's variant, for codes with more than one text (A11, A12, A18, B10). */
  variant?: string;
  /** A value's length in characters (O10, R8: an id longer than the provider allows). */
  length?: number | string;
  /** The request's input tokens (O14, A21, G12: over the context window). */
  tokens?: number | string;
  /** The model's context window in tokens (O14, A21, G12). */
  limit?: number | string;
}

/**
 * One provider rule as data: the condition in our words, the provider's exact text, where the
 * provider says the error is, the public evidence and how sure we are. `docs/rules.md` is
 * generated from these entries (`npm run rules`), and a test runs every entry's fixture.
 */
export interface RuleSpec {
  /** Our id for the rule (`A1`, `O6`, `G8`, `OW1` for a warning). */
  code: string;
  /** The rule classes (`Violation.rule`) this code is reported as. */
  rules: readonly RuleId[];
  providers: readonly ProviderId[];
  /** 'error': the provider answers 400; 'warning': accepted, but a reader should know. */
  severity: Violation['severity'];
  /** V = verbatim capture, V-doc = provider docs, I = inferred, ? = unconfirmed. */
  confidence: Violation['confidence'];
  condition: string;
  /** The provider's text, exactly (null for a warning that the provider never sends). */
  text: ((p: TextParams) => string) | null;
  /** Where the provider reports it (path or `param`), with placeholders; '' when nowhere. */
  path: string;
  /** What the indices in the text and path count. */
  index: string;
  /** Public captures or docs: `owner/repo#N`, docs pages. */
  source: string;
  /** Why it is judged so, where that is not obvious (warnings, inferences, decisions). */
  note?: string;
  /**
   * The month (YYYY-MM) the text is known current as of: its latest dated capture; absent for the
   * rules read in the first research pass, current as of `CATALOGUE_AS_OF`.
   */
  asOf?: string;
}

/** When the first research pass read its reports (2023 to 2026-09): the default "as of". */
export const CATALOGUE_AS_OF = '2026-09';

/** A list of ids as providers print it: `a, b, c`. */
export function idList(ids: readonly string[] | undefined): string {
  return (ids ?? ['<id>']).join(', ');
}
