import type { Block, Message, ProviderId, Transcript } from '../types.ts';
import type { InputCount } from './contextWindow.ts';
import type { RuleId } from './ruleRegistry.ts';
import type { Turns } from './rules/turns.ts';

export type { RuleId } from './ruleRegistry.ts';

export interface Violation {
  rule: RuleId;
  /** The rule's code in the rule catalogue (`catalogue/`, docs/rules.md): `A2`, `O1`, `G3`, … */
  code: string;
  /** 'error' makes the request a 400; 'warning' is accepted by this provider but risky. */
  severity: 'error' | 'warning';
  /**
   * Raw index (as pasted, `Message.rawIndex`) of the message that holds the cause: for display
   * (`#N`, as the rows show it) and the CLI's JSON. Not unique: a retry fault's copy, a source
   * message split into several of ours (Vercel AI, Gemini CLI) and log lines merged per reply share
   * one raw index, so never look a message up by it — use `index`.
   */
  messageIndex: number;
  /**
   * Our index of the message that holds the cause: its `Message.index`, i.e. its position in
   * `t.messages` of the transcript as analysed. When a subset is validated (`opts.messages`,
   * eviction), it is still the subset message's own `index` (its position in the full transcript),
   * not its position in the subset; −1 for a message that is not in the transcript (the eviction's
   * synthetic summary) or when no message holds the cause. Select, scroll and highlight by this.
   */
  index: number;
  /** Block index inside that message as pasted, when the cause is one block. */
  blockIndex: number | null;
  /** Tool ids involved (only the missing ones for an unanswered call). */
  ids: string[];
  /** Where the provider says the error is (`messages.3.content.0`, `messages.[2].role`), or null. */
  providerPath: string | null;
  /**
   * Our index of the (first) message the request message `providerPath` names, when that is not
   * the cause's (O2 names the message that broke the run, B2 the turn after the call); absent
   * when the path names the cause's own message or no message.
   */
  pathIndex?: number;
  /** HTTP status the provider answers with (400), or null for a warning. */
  status: number | null;
  /** The provider's JSON error body, exactly as it returns it; null for a warning. */
  error: unknown;
  /** The provider's message text (inside `error`). */
  message: string;
  /** The rule in plain words. */
  title: string;
  /** Why the provider refuses it, in one or two sentences. */
  why: string;
  /** Confidence from the catalogue: V (verbatim capture), V-doc, I (inferred), ? (unconfirmed). */
  confidence: 'V' | 'V-doc' | 'I' | '?';
}

export interface Validation {
  provider: ProviderId;
  /** True when no violation of severity 'error' was found. */
  valid: boolean;
  /** In the order the provider would meet them: the first error is the 400 the request gets. */
  violations: Violation[];
  /** What was not checked and why (e.g. "tools not given: A7 not checked"). */
  notes: string[];
}

export interface ValidateOptions {
  /** Validate this subset of the transcript's messages instead of all of them (eviction). */
  messages?: readonly Message[];
  /**
   * Anthropic A12: does the model accept a trailing assistant message (prefill)?
   * Default: decided from `settings.model` (newer models reject it).
   */
  prefill?: 'allowed' | 'rejected';
  /**
   * The caller knows every tool_use id in these messages is unique (pairing found no
   * `duplicate_id`), so the duplicate-id rule (Anthropic A6) need not build its own id set: on a
   * 100k-message transcript that set is a fifth of the validation. Leave unset when unsure.
   */
  uniqueToolUseIds?: boolean;
  /**
   * The input's token count, when the caller has one (the page's exact table, the CLI's BPE):
   * the context window (O14, A21, G12, CW1: validate/contextWindow.ts) is judged by it. Without
   * it the window is judged by bounds from the text alone. Ignored with `messages` (a subset).
   */
  inputTokens?: InputCount;
}

/**
 * How the fast cut engine (evict/simulate.ts) reads a provider's request. `merged-turns`: messages
 * of one role merge into a turn, and a turn's calls are answered at the start of the next turn
 * (Anthropic). `tool-runs`: a run of tool messages follows the assistant message whose calls it
 * answers (OpenAI Chat). `render` gives the provider messages, to count provider indices.
 */
export interface CutModel {
  kind: 'merged-turns' | 'tool-runs';
  render: (messages: readonly Message[]) => readonly unknown[];
}

export interface ProviderValidator {
  id: ProviderId;
  label: string;
  /** Set for providers whose fast cut path is property-tested against the reference. */
  cuts?: CutModel;
  /**
   * The request's messages as this provider numbers them (the `N` of its `messages.N`), where that
   * follows from the roles alone: consecutive same-role messages sent as one, system messages
   * beside the list. For saying which rows a request index names; absent for a provider that
   * splits messages (Chat Completions) or names no index.
   */
  requestTurns?: (t: Transcript, messages: readonly Message[]) => Turns;
  /** True for a provider reached through a Chat Completions API (clients send it that shape). */
  chatCompletions?: boolean;
  /**
   * The model names of a Chat Completions provider other than OpenAI: a Chat body naming such a
   * model is judged for it by default (`defaultProviderOf`).
   */
  models?: RegExp;
  /**
   * Validate a transcript as this provider would.
   * @returns the violations in the order the provider meets them; never throws.
   */
  validate: (t: Transcript, opts?: ValidateOptions) => Validation;
  /**
   * A validator that resumes along a chain of requests (`ChainValidate`), for a provider whose
   * checks can carry their state from one request to the next; absent: `validate` each time.
   */
  chain?: () => ChainValidate;
}

/**
 * `validate` for the requests of one chain, called in order: requests whose other fields
 * (settings, tools, raw body, format) are the same objects and whose message lists share their
 * first messages (the same objects at the same positions): a session log's calls, each extending
 * the one before, or a policy's rewritten requests, which share their head. It keeps what the
 * shared messages settled, so a request costs the messages from the first one that differs and
 * its last turns (plus a pointer comparison per message), not the whole list; a request with
 * other fields starts the chain again. A list passed is never changed after. Every answer equals
 * `validate(t, opts)` (validators.chain.property.test.ts); `uniqueToolUseIds` is not needed (the
 * chain keeps its id set as it goes).
 */
export type ChainValidate = (t: Transcript, opts?: ValidateOptions) => Validation;

/** A message as the provider sees it after rendering (and merging, for Anthropic). */
export interface RenderedMessage {
  role: string;
  items: RenderedItem[];
  /** Source messages (ours) that make up this provider message. */
  sources: Message[];
  /** True when the source gave empty string content. */
  emptyString?: boolean;
}

export interface RenderedItem {
  block: Block;
  /** The source message and the block's index in it. */
  msg: Message;
  blockIndex: number;
}
