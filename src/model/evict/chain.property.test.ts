import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ScanRequest } from '../scan/rows.ts';
import {
  arbEvent,
  codexLogOf,
  FIX_THEN_TESTS,
  logOf,
  requestsOf,
} from '../testing/sessionEvents.ts';
import type { ProviderId, Transcript } from '../types.ts';
import { defaultProviderOf, validateTranscript } from '../validate/index.ts';
import { countTokensCached, TokenCache } from '../tokenCache.ts';
import type { TextCounter } from '../tokens.ts';
import { EvictionChain } from './chain.ts';
import { cutPlan, POLICIES, type EvictionContext } from './policies.ts';
import { assembleEviction, prepareEvictionParts } from './prepare.ts';
import { messageShapes, setMessageShapes, ShapesChain } from './shapes.ts';

/** Every chain's calls through one EvictionChain each, against prepareEvictionParts. */
function checkChains(
  reqs: readonly ScanRequest[],
  provider?: ProviderId,
  thinking?: boolean,
  pin = false,
) {
  // Pinned messages (the generated logs have none): some messages made developer messages, once
  // on the shared message objects, the same for every call that holds them.
  if (pin)
    for (const r of reqs)
      for (const m of r.transcript.messages) if (m.index % 7 === 3) m.role = 'developer';
  const chains = new Map<object, EvictionChain>();
  const settings = new Map<object, Transcript['settings']>();
  for (const r of reqs) {
    let t: Transcript = r.transcript;
    const key = r.tables ?? {};
    if (thinking !== undefined) {
      // One settings object per chain, as the chain's calls share theirs.
      let s = settings.get(key);
      if (!s) settings.set(key, (s = { ...t.settings, thinking }));
      t = { ...t, settings: s };
    }
    const p = provider ?? defaultProviderOf(t);
    let chain = chains.get(key);
    if (!chain) chains.set(key, (chain = new EvictionChain()));
    const validation = validateTranscript(t, p);
    const fresh = prepareEvictionParts(t, p, {}, { validation });
    expect(chain.parts(t, p, {}, { validation })).toEqual(fresh);
  }
}

/** A counter of three tokens a character. */
const WIDE: TextCounter = { encoding: 'test-wide', count: (s) => 3 * s.length };

const arbEvents = fc.array(arbEvent, { minLength: 1, maxLength: 45 });

describe('EvictionChain: the eviction parts of a chain of calls, each resumed from the one before', () => {
  it('equal prepareEvictionParts of each call (Claude Code logs, Anthropic, thinking on or off)', () => {
    fc.assert(
      fc.property(arbEvents, fc.boolean(), fc.boolean(), (ev, thinking, pin) =>
        checkChains(requestsOf(logOf(ev), 'f.jsonl'), undefined, thinking, pin),
      ),
      { numRuns: 300 },
    );
  });

  it('the same for another provider’s rules (OpenAI Chat: stand-ins, tool runs)', () => {
    fc.assert(
      fc.property(arbEvents, fc.boolean(), (ev, pin) =>
        checkChains(requestsOf(logOf(ev), 'f.jsonl'), 'openai-chat', undefined, pin),
      ),
      { numRuns: 200 },
    );
  });

  it('the same for Codex rollouts (the Responses API: no cut model)', () => {
    fc.assert(
      fc.property(arbEvents, (ev) => checkChains(requestsOf(codexLogOf(ev), 'r.jsonl'))),
      { numRuns: 100 },
    );
  });

  it('a call that does not extend the one before starts the chain again', () => {
    const reqs = requestsOf(logOf([...FIX_THEN_TESTS]), 'f.jsonl');
    const last = reqs[reqs.length - 1]?.transcript as Transcript;
    const p = defaultProviderOf(last);
    const chain = new EvictionChain();
    const parts = (t: Transcript) => {
      const validation = validateTranscript(t, p);
      expect(chain.parts(t, p, {}, { validation })).toEqual(
        prepareEvictionParts(t, p, {}, { validation }),
      );
    };
    parts(last);
    parts({ ...last, messages: last.messages.slice(0, 3) });
    parts({ ...last, messages: last.messages.map((m) => ({ ...m })) });
    parts({ ...last, settings: { ...last.settings, thinking: true } });
  });

  it('the forward tables a call was given keep their values through the calls after it', () => {
    fc.assert(
      fc.property(arbEvents, fc.boolean(), (ev, codex) => {
        const reqs = codex
          ? requestsOf(codexLogOf(ev), 'r.jsonl')
          : requestsOf(logOf(ev), 'f.jsonl');
        // One chain for every call (a compaction's call resets it: new buffers), and a last call
        // of the last call's messages with the first made a developer message (a reset whose
        // tables differ from the first entries on: pinned, not).
        const chain = new EvictionChain();
        const forward = (parts: ReturnType<typeof prepareEvictionParts>) => {
          const fx = parts.cuts.fx;
          return [
            parts.nonPinned,
            parts.turnAssistants,
            parts.exchangeStarts,
            parts.grouping.exchangeOf,
            parts.cuts.pinned,
            fx?.renderedAt,
            fx?.cache.start,
            fx?.cache.emptyBefore,
          ].map((a) => (a === undefined ? null : Array.from(a)));
        };
        const given: { view: ReturnType<typeof prepareEvictionParts>; was: unknown }[] = [];
        const last = reqs[reqs.length - 1]?.transcript as Transcript;
        const [m0, ...rest] = last.messages;
        const calls = [
          ...reqs.map((r) => r.transcript),
          { ...last, messages: m0 ? [{ ...m0, role: 'developer' as const }, ...rest] : [] },
        ];
        for (const t of calls) {
          const p = defaultProviderOf(t);
          const validation = validateTranscript(t, p);
          const view = chain.parts(t, p, {}, { validation });
          given.push({ view, was: forward(prepareEvictionParts(t, p, {}, { validation })) });
        }
        for (const g of given) expect(forward(g.view)).toEqual(g.was);
      }),
      { numRuns: 150 },
    );
  });

  it('a chain’s contexts (resumed shapes, policies’ state) give every policy the same plan', () => {
    fc.assert(
      fc.property(arbEvents, fc.nat(4), fc.boolean(), (ev, keepToolUses, codex) => {
        const reqs = codex
          ? requestsOf(codexLogOf(ev), 'r.jsonl')
          : requestsOf(logOf(ev), 'f.jsonl');
        const state = new Map<object, { shapes: ShapesChain; resume: Map<string, unknown> }>();
        for (const r of reqs) {
          const t = r.transcript;
          const p = defaultProviderOf(t);
          const key = r.tables ?? {};
          let st = state.get(key);
          if (!st) state.set(key, (st = { shapes: new ShapesChain(), resume: new Map() }));
          const validation = validateTranscript(t, p);
          // Three tokens a character: a short result frees more than its placeholder costs.
          const table = countTokensCached(t, p, WIDE, new TokenCache(), { preferUsage: true });
          const parts = () => prepareEvictionParts(t, p, {}, { validation });
          const fresh = assembleEviction(parts(), t, table);
          const resumed: EvictionContext = assembleEviction(parts(), t, table);
          setMessageShapes(resumed.cuts, st.shapes.shapes(t.messages));
          resumed.resume = st.resume;
          expect(messageShapes(resumed.cuts)).toEqual(messageShapes(fresh.cuts));
          for (const policy of POLICIES)
            for (const options of [{}, { keepToolUses }]) {
              const a = cutPlan(resumed, policy, options);
              const b = cutPlan(fresh, policy, options);
              expect(a.cuts).toEqual(b.cuts);
              const [ra, rb] = [a.rewrite, b.rewrite];
              expect(ra?.steps.length).toEqual(rb?.steps.length);
              ra?.steps.forEach((s, j) => {
                const w = rb?.steps[j];
                expect([s.tokensKept, s.marker, s.evicted, s.edits]).toEqual([
                  w?.tokensKept,
                  w?.marker,
                  w?.evicted,
                  w?.edits,
                ]);
                expect(ra.derive?.(j)).toEqual(rb?.derive?.(j));
                if (j > 0) expect(ra.messages?.(j)).toEqual(rb?.messages?.(j));
              });
            }
        }
      }),
      { numRuns: 200 },
    );
  });
});
