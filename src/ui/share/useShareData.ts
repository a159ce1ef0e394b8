/**
 * What the share panel builds from the transcript on screen, as hooks: the structure-only copy
 * (built after the panel has painted, so opening it never waits) and the evictions the exports
 * describe (the simulator's own memoised context, choices and budget clamp).
 */
import { useEffect, useMemo, useState } from 'react';
import type { Analysis } from '../../model/analyze.ts';
import type { EvictionResult } from '../../model/evict/types.ts';
import { inlineSizeRefusal } from '../../model/permalink/inline.ts';
import type { TextCounter, TokenTable } from '../../model/tokens.ts';
import { structureCopyOffThread } from '../../engine/client.ts';
import type { FormatId, Message, Transcript } from '../../model/types.ts';
import {
  selectEviction,
  selectEvictionContext,
  selectPolicyAt,
  selectPolicyChoices,
} from '../../state/eviction.ts';
import type { AppState, Source } from '../../state/store.ts';
import { sourceBytes } from './shareLinks.ts';

/** A structure-only text, with what it was built from (a result for other inputs is stale). */
interface BuiltRedaction {
  transcript: Transcript;
  counter: TextCounter;
  hideNames: boolean;
  reply: Message | undefined;
  text: string;
  ids: number;
  problems: string[];
  request: number | null;
  format: FormatId | null;
}

/**
 * The structure-only copy of the transcript: its text, how many ids it renamed, and where it
 * breaks the redaction contract (`checkedStructureCopy`; empty when it is safe to share).
 */
export interface StructureRedaction {
  text: string;
  ids: number;
  problems: string[];
  /**
   * The request of the copy its link opens (0-based, `rq`): a chosen session call copied with its
   * reply (model/callCopy.ts); null = the copy whole.
   */
  request: number | null;
  /** The format its link must name (`f=`): the copy is not detected as it (else null). */
  format: FormatId | null;
}

/**
 * The structure-only copy: decided from the cheap size estimate first (a transcript above the
 * decoder's limit is never redacted, deflated or offered), then built and checked against the
 * redaction contract (the CLI's check) after paint, in a worker where one can run
 * (engine/shareCopyClient.ts). While `counterLoading` (the exact counter asked for, not loaded
 * yet), nothing is built: the copy is fitted to the counter it will keep. With `reply` (the
 * chosen session call's, `ParsedTranscript.callReply`), the copy holds the call and names it.
 * @returns `redaction` (null while building, or when refused), `refusal`, why the source is
 *   too large for an inline link (null when it is not), and `building`: the copy of what is shown
 *   is still being made (exports that carry its link wait for it)
 */
export function useStructureRedaction(
  transcript: Transcript,
  counter: TextCounter,
  hideNames: boolean,
  source: Source,
  counterLoading = false,
  reply?: Message,
): { redaction: StructureRedaction | null; refusal: string | null; building: boolean } {
  const refusal = inlineSizeRefusal(sourceBytes(source));
  const [built, setBuilt] = useState<BuiltRedaction | null>(null);
  useEffect(() => {
    if (refusal !== null || counterLoading) return;
    let live = true;
    // After paint, so opening the panel never waits; off the page's thread where a worker can.
    const timer = setTimeout(() => {
      const names = hideNames ? 'hide' : 'keep';
      void structureCopyOffThread(transcript, counter, names, reply).then((copy) => {
        if (live) setBuilt({ transcript, counter, hideNames, reply, ...copy });
      });
    }, 0);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [transcript, counter, hideNames, refusal, counterLoading, reply]);
  const redaction =
    built &&
    refusal === null &&
    built.transcript === transcript &&
    built.counter === counter &&
    built.hideNames === hideNames &&
    built.reply === reply
      ? built
      : null;
  return { redaction, refusal, building: refusal === null && redaction === null };
}

/** The primary policy's eviction and `exchange`'s at the same budget (null without a budget). */
export interface ShareEvictions {
  chosen: EvictionResult | null;
  alternative: EvictionResult | null;
}

/**
 * The evictions the exports describe: the simulator's own results (`selectEviction` over the same
 * memoised context, choices and budget clamp, state/eviction.ts), never a second simulation, so
 * the exports say exactly what the page shows; `exchange`, when the simulator does not show it,
 * is simulated once at the same budget (`selectPolicyAt`).
 */
export function useShareEvictions(
  analysis: Analysis,
  tokens: TokenTable,
  { budget, policies, policyOptions }: Pick<AppState, 'budget' | 'policies' | 'policyOptions'>,
): ShareEvictions {
  return useMemo(
    () => selectShareEvictions(analysis, tokens, { budget, policies, policyOptions }),
    [analysis, tokens, budget, policies, policyOptions],
  );
}

/** `exchange`'s options when the simulator does not show it: the defaults (one object, a memo key). */
const DEFAULT_OPTIONS = Object.freeze({});

/** `useShareEvictions` outside React (see there). */
export function selectShareEvictions(
  analysis: Analysis,
  tokens: TokenTable,
  { budget, policies, policyOptions }: Pick<AppState, 'budget' | 'policies' | 'policyOptions'>,
): ShareEvictions {
  if (budget === null) return { chosen: null, alternative: null };
  const ctx = selectEvictionContext(analysis.transcript, tokens, analysis.provider);
  const choices = selectPolicyChoices(policies, policyOptions);
  const view = selectEviction(ctx, choices, budget);
  const shown = choices.findIndex((c) => c.id === 'exchange');
  return {
    chosen: view.results[0],
    alternative:
      shown >= 0
        ? view.results[shown === 0 ? 0 : 1]
        : selectPolicyAt(ctx, 'exchange', view.budget, DEFAULT_OPTIONS),
  };
}
