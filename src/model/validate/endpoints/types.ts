/**
 * An endpoint as data: the API it speaks (whose rules apply), where it answers (hosts, paths,
 * model ids), and its dialect — what it words or enforces differently, each difference a rule of
 * the catalogue with its evidence.
 */
import type { Transcript } from '../../types.ts';
import type { ProviderValidator, ValidateOptions, Validation, Violation } from '../types.ts';
import type { ApiId, EndpointId } from './index.ts';
import type { ContextWindow, TokenizerFamily } from './windows.ts';

/** A base rule this endpoint words its own way. */
export interface Wording {
  /** The endpoint's own catalogue code for the reworded rule. */
  code: string;
  /** Only for these requests (a model generation, a thinking mode); absent: always. */
  when?: (t: Transcript) => boolean;
  /** The endpoint's text for the base violation. */
  text: (v: Violation, t: Transcript) => string;
  /** The endpoint's 400 body around the text; absent: the base's body with the new text. */
  envelope?: (message: string) => unknown;
  /** The endpoint's path (absent: the base's). */
  providerPath?: (v: Violation) => string | null;
}

/** What an endpoint does differently from its base endpoint. */
export interface Dialect {
  /** The base codes this endpoint words its own way (wording by model generation with `when`). */
  wording?: Readonly<Record<string, Wording>>;
  /** Applied to every base violation after `wording` (a prefix and another body: Bedrock). */
  rewrite?: (v: Violation) => Violation;
  /** Checks the base does not make; their violations are met after the base's schema checks. */
  extra?: (t: Transcript, opts: ValidateOptions | undefined, base: Validation) => Violation[];
  /**
   * The documented differences from the base's verdicts (the property tests' only exceptions):
   * `adds`, codes of checks the base does not make (or a warning where the base errs);
   * `rewords`, codes that are a base rule in the endpoint's words (same rule, message, ids);
   * `relaxes`, base codes the endpoint does not enforce (or only warns about).
   */
  adds: readonly string[];
  rewords: readonly string[];
  relaxes?: readonly string[];
}

export interface Endpoint {
  id: EndpointId;
  /** For people: the picker's option, the CLI's output. */
  label: string;
  /** The API whose rules apply (the picker groups endpoints by it). */
  api: ApiId;
  /**
   * The endpoint whose verdicts this one starts from (an API's own endpoint); absent for an
   * endpoint with a validator of its own.
   */
  base?: EndpointId;
  /** The validator of an endpoint that has its own (absent for a dialect of `base`). */
  validator?: ProviderValidator;
  /** The dialect of an endpoint with a `base`. */
  dialect?: Dialect;
  /**
   * The provider's own hosts for this endpoint, from its documented base URLs
   * (`api.deepseek.com`). The checked fetch reads a body only at these hosts, `relays` and the
   * base URLs its caller names.
   */
  hosts: readonly RegExp[];
  /**
   * True for an API's own endpoint: its paths name it at any other host too (gateways and
   * proxies keep the API's paths), for the page and the CLI (a curl command, a HAR entry). The
   * checked fetch does not read such a URL unless its caller names the base URL.
   */
  anyHost?: true;
  /**
   * Hosts of other services that take this endpoint's bodies and have no dialect of their own in
   * the registry (OpenRouter, Groq, … for Chat Completions): judged by this endpoint's rules.
   */
  relays?: readonly RegExp[];
  /** Request paths (no query); group 1, when present, is the model. */
  paths: readonly RegExp[];
  /**
   * Request URLs as the provider documents them (its base URL and this API's path, with sample
   * region, project and model): each is recognised as this endpoint (endpoints.test.ts), by the
   * page and by the checked fetch (src/lib/endpoints.test.ts).
   */
  urls: readonly string[];
  /** A body test, for paths several endpoints share (Bedrock and Vertex invoke Claude). */
  body?: (v: Record<string, unknown>) => boolean;
  /** Model ids that name this endpoint in a body (a Bedrock or Vertex model id). */
  modelIds?: RegExp;
  /** How the endpoint writes where an error is (`messages.N.content.M`, `messages.[N].role`). */
  pathStyle: string;
  /**
   * 'all': public captures show this endpoint answering with the API's own texts (a relay or a
   * hosting that passes them through), so every API rule is evidenced for it; 'own': only the
   * rules the catalogue lists for this endpoint are; for the others the verdict says it is the
   * API's rule and wording.
   */
  evidenced: 'all' | 'own';
  /** Where the endpoint's behaviour comes from (captures, docs). */
  evidence: string;
  /** When the evidence was read (YYYY-MM): the verdict's "as of". */
  asOf: string;
  /** Whose tokenizer the counts follow for this endpoint's models (`windows.ts`). */
  tokenizer: TokenizerFamily;
  /** The context windows the simulator offers for it, each with its source (never empty). */
  windows: readonly ContextWindow[];
}
