/**
 * The eviction simulator on a session log the page streams through its worker (larger than
 * STREAM_MIN_BYTES, issue 38): the page's messages read their texts from the file when first
 * read, so the simulator, prepared on the page for a short transcript, must not judge them before
 * they are there (newcomer: every call of a 3 MB Claude Code log got "[A10] empty message" with
 * nothing evicted, and the exchange policy evicted 5 of 6 messages at budget 2,000 with an A1,
 * where the verdict column and the CLI's `simulate` said valid). The worker's loop runs in this
 * thread (FakeWorker); the expected results are the CLI's: the same call parsed from the text,
 * simulated with the same token table.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createWorkerClient, textPending } from '../engine/client.ts';
import { STREAM_MIN_BYTES } from '../engine/limits.ts';
import { bigSessionLog } from '../engine/testing/bigSessionLog.ts';
import { FakeWorker } from '../engine/testing/fakeWorker.ts';
import { prepareEviction, simulatePolicy, type PolicyResult } from '../model/evict/policies.ts';
import { parseTranscript, readSource } from '../model/parse/index.ts';
import { withSessionCall } from '../model/sessionCall.ts';
import { claudeCodeLog } from '../model/testing/claudeCodeLog.ts';
import type { Transcript } from '../model/types.ts';
import { CHARS_PER_4 } from '../model/tokens.ts';
import { evictionReading, selectSimulator } from './eviction.ts';
import { activeSession, resetSession } from './session/index.ts';
import { appStore, createAppStore } from './store.ts';
import { selectTokens } from './tokens.ts';
import { until } from './testing/until.ts';

/** The transcript the CLI judges for `--request call+1` (null: none, the whole log), as io.ts reads it. */
function cliParse(text: string, call: number | null): Transcript {
  const parsed = parseTranscript(text, { name: 'big.jsonl' });
  const doc = readSource(text, 'big.jsonl');
  if (!parsed.ok || !doc.ok) throw new Error('the log does not parse');
  return call === null
    ? parsed.value.transcript
    : withSessionCall(doc.value, parsed.value, call).transcript;
}

/** What the simulator says of one policy's result: the words the page shows come from these. */
function said(r: PolicyResult) {
  return {
    cut: r.cut,
    valid: r.validation.valid,
    firstError: r.firstError?.code ?? null,
    evicted: [...r.evicted],
  };
}

beforeAll(() => {
  vi.stubGlobal('Worker', FakeWorker);
});
afterAll(() => {
  vi.unstubAllGlobals();
});
afterEach(() => {
  resetSession(appStore);
});

describe('the simulator of a streamed session log agrees with the verdict and the CLI', () => {
  it.each([
    ['the log', false],
    ['the log with a 3 MB skipped line before its messages', true],
  ])(
    '%s: every call, nothing evicted and at budgets that evict',
    async (_, pad) => {
      const text = bigSessionLog(pad);
      expect(text.length).toBeGreaterThan(STREAM_MIN_BYTES);
      const store = createAppStore();
      const session = resetSession(store, (sink) => createWorkerClient(sink));
      session.subscribe(() => {});
      const file = new Blob([text]);
      store.getState().setSource({ text: '', name: 'big.jsonl', origin: 'file', file });
      for (const call of [null, 0, 1, 2]) {
        if (call !== null) store.getState().setRequestIndex(call);
        const t = cliParse(text, call);
        const { view } = await until(
          (s) =>
            !s.pending &&
            s.view.analysis?.transcript.messages.length === t.messages.length &&
            s.request.requestIndex === (call ?? undefined),
        );
        const a = view.analysis;
        if (!a) throw new Error('no analysis');
        // The page's messages are read from the file: none is there before something reads it.
        const tokens = selectTokens(a.transcript, a.provider, CHARS_PER_4);
        const expected = prepareEviction(t, tokens, a.provider);
        const nothing = tokens.total;
        for (const budget of [null, 2000, Math.floor(nothing / 2), 200]) {
          const sim = await vi.waitFor(
            () => {
              const s = selectSimulator(
                a,
                tokens,
                budget,
                ['message', 'exchange'],
                {},
                session.getSnapshot().answers,
              );
              if (!s) throw new Error('the simulator is not there yet');
              return s;
            },
            { timeout: 10_000 },
          );
          const b = budget ?? nothing;
          const want = (['message', 'exchange'] as const).map((p) =>
            said(simulatePolicy(expected, p, b)),
          );
          expect(sim.view.results.map(said), `call ${call}, budget ${budget}`).toEqual(want);
          // Nothing evicted, the simulator says what the verdict column says.
          if (budget === null)
            for (const r of sim.view.results) {
              expect(r.validation.valid).toBe(a.validation.valid);
              expect(r.firstError?.code ?? null).toBe(a.validation.violations[0]?.code ?? null);
            }
        }
      }
    },
    120_000,
  );
});

describe('a streamed log whose eviction parts the worker prepares', () => {
  it('is not read whole into the page for the simulator: its texts stay in the file', async () => {
    // 2,200 messages (WORKER_EVICTION_MIN is 2,000): the worker sends the parts after its answer.
    // Waiting for every text on the page held the 115 MB bench log's text there (page 320 MiB).
    const w = claudeCodeLog();
    for (let i = 0; i < 1100; i++) {
      w.user(`Question ${i}: ${'context '.repeat(250)}`);
      w.assistant(`msg_${i}`, [{ type: 'text', text: `Answer ${i}.` }]);
    }
    const text = w.text();
    expect(text.length).toBeGreaterThan(STREAM_MIN_BYTES);
    const store = createAppStore();
    const session = resetSession(store, (sink) => createWorkerClient(sink));
    session.subscribe(() => {});
    store
      .getState()
      .setSource({ text: '', name: 'long.jsonl', origin: 'file', file: new Blob([text]) });
    const { view } = await until(
      (s) => !s.pending && s.view.analysis?.transcript.messages.length === 2200,
    );
    const a = view.analysis;
    if (!a) throw new Error('no analysis');
    // The page renders the answer before the worker's parts follow it (here they came in the
    // same turn): in between, the session knows they follow (the answer's `evictionFollows`)
    // and holds none. That state, set up again:
    const answers = activeSession().answers;
    answers.evictionParts.get(a.transcript)?.delete(a.provider);
    const follows = answers.evictionPending.get(a.transcript) ?? new Set();
    answers.evictionPending.set(a.transcript, follows.add(a.provider));
    expect(evictionReading(a)).toBe(false);
    await new Promise((r) => setTimeout(r, 200));
    const pending = a.transcript.messages.filter((m) => textPending(m)).length;
    expect(pending).toBeGreaterThan(2000);
  }, 60_000);
});
