/**
 * `CutError.index`: the marker's error names the message that holds the cause by our index, also
 * where raw indices repeat (a retry fault's copy shares the original's raw index).
 */
import { describe, expect, it } from 'vitest';
import { applyFault, reindexForView } from '../faults.ts';
import { INVOICE_ANTHROPIC, load } from '../testing/faults.fixtures.ts';
import { CHAT_CALL_THEN_USER } from '../testing/shapes.ts';
import { parsedText } from '../testing/index.ts';
import { countTokens } from '../tokens.ts';
import type { Transcript } from '../types.ts';
import { cutMarkers } from './cuts.ts';
import { prepareEviction } from './policies.ts';

/** The invoice example after a retry of message 5 (the reminder call), as the page shows it. */
function retried(): Transcript {
  const r = applyFault(load(INVOICE_ANTHROPIC), { kind: 'retry', messageIndex: 5 });
  if (!r.ok) throw new Error(r.error);
  return reindexForView(r.value.transcript);
}

describe('CutError.index', () => {
  it('points at the retry copy (ours #6), not the original that shares raw index 5', () => {
    const t = retried();
    expect(t.messages.map((m) => m.rawIndex)).toEqual([0, 1, 2, 3, 4, 5, 5, 6, 7]);
    const markers = cutMarkers(prepareEviction(t, countTokens(t, 'anthropic'), 'anthropic').cuts);
    // Keeping everything (cut 0) is refused: the copy repeats toolu_rem1 (A6).
    const e = markers.errorAt(0);
    expect(e).toMatchObject({ code: 'A6', messageIndex: 5, index: 6 });
    expect(t.messages[e?.index ?? -1]?.path).toBe('retry copy of messages.5');
  });

  it('on every refused cut, is the message with the raw index the error names', () => {
    const t = retried();
    const markers = cutMarkers(prepareEviction(t, countTokens(t, 'anthropic'), 'anthropic').cuts);
    let refused = 0;
    for (let k = 0; k <= t.messages.length; k++) {
      const e = markers.errorAt(k);
      if (!e) continue;
      refused++;
      if (e.rule === 'empty_request') {
        // Dropping every message leaves an empty request (A14): no message holds the cause.
        expect(k).toBe(t.messages.length);
        expect(e.index).toBe(-1);
        continue;
      }
      expect(e.index).toBeGreaterThanOrEqual(0);
      expect(t.messages[e.index]?.rawIndex).toBe(e.messageIndex);
    }
    expect(refused).toBeGreaterThan(0);
  });
});

describe('CutError.pathIndex', () => {
  it('names the message the provider’s path names (O2: the row after the call)', () => {
    const t = parsedText(JSON.stringify(CHAT_CALL_THEN_USER)).transcript;
    const markers = cutMarkers(
      prepareEviction(t, countTokens(t, 'openai-chat'), 'openai-chat').cuts,
    );
    // Keeping everything keeps the unanswered call at #1, broken by the user row at #2.
    expect(markers.errorAt(0)).toMatchObject({ code: 'O2', index: 1, pathIndex: 2 });
  });

  it('is absent when the path names the cause’s own message', () => {
    const t = retried();
    const e = cutMarkers(prepareEviction(t, countTokens(t, 'anthropic'), 'anthropic').cuts).errorAt(
      0,
    );
    expect(e && 'pathIndex' in e).toBe(false);
  });
});
