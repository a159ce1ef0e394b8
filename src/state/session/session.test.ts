/**
 * The session (issue 34) as a framework-free object: it follows the store's inputs once a
 * listener subscribes, asks its engine, shows the answer through one snapshot, keeps the last good
 * transcript next to a parse error, adopts what the engine hands back (telling listeners), and a
 * new session remembers nothing of the old one's memo table.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createSyncClient, type InspectClient } from '../../engine/client.ts';
import { CHARS_PER_4, countTokens, type TextCounter } from '../../model/tokens.ts';
import { prepareEviction } from '../../model/evict/policies.ts';
import { evictionPreparing, selectSimulator } from '../eviction.ts';
import { countsOnPage, selectRows, selectTokens } from '../selectors.ts';
import { appStore, createAppStore } from '../store.ts';
import { activeSession, resetSession } from './active.ts';
import { until } from '../testing/until.ts';

const GOOD =
  '{"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]}';
const BROKEN = '{"messages": [';

afterEach(() => {
  resetSession(appStore);
});

describe('the session', () => {
  it('loads the store source once subscribed, through its engine, and keeps it next to a parse error', async () => {
    const store = createAppStore();
    const asked: string[] = [];
    const sync = createSyncClient();
    const engine: InspectClient = {
      ...sync,
      inspect: (req, l) => {
        asked.push(req.text);
        return sync.inspect(req, l);
      },
    };
    const session = resetSession(store, () => engine);
    store.getState().setSource({ text: GOOD, name: '', origin: 'paste' });
    expect(asked).toEqual([]); // nothing runs before anyone listens
    let heard = 0;
    session.subscribe(() => heard++);
    expect(asked).toEqual([GOOD]);
    const shown = await until((s) => s.view.analysis !== null && !s.pending);
    expect(shown.view.analysis?.transcript.messages.length).toBe(2);
    expect(heard).toBeGreaterThan(0);

    store.getState().setSource({ text: BROKEN, name: '', origin: 'paste' });
    const failed = await until((s) => s.view.error !== null && !s.pending);
    expect(failed.view.analysis).toBe(shown.view.analysis);
    // The same source again: its answer is on screen, so the engine is not asked again.
    store.getState().setSource({ text: GOOD, name: '', origin: 'paste' });
    await until((s) => s.view.error === null && !s.pending);
    expect(asked).toEqual([GOOD, BROKEN]);
  });

  it("adopts the engine's token tables and tells its listeners", async () => {
    const store = createAppStore();
    const session = resetSession(store, () => createSyncClient());
    let heard = 0;
    session.subscribe(() => heard++);
    store.getState().setSource({ text: GOOD, name: '', origin: 'paste' });
    const { view } = await until((s) => s.view.analysis !== null);
    const a = view.analysis;
    if (!a) throw new Error('no analysis');
    const table = countTokens(a.transcript, a.provider, CHARS_PER_4);
    const before = session.getSnapshot().answers;
    heard = 0;
    session.sink.sweepsChanged();
    session.primeTokens(a.transcript, a.provider, table);
    expect(session.answers.tokens.get(a.transcript)?.get(`${a.provider}|chars/4`)).toBe(table);
    expect(session.getSnapshot().answers).toBe(before + 1);
    expect(heard).toBe(1);
  });

  it('while the worker prepares the eviction parts the simulator waits for them (never prepared on the page), then shows', async () => {
    const store = createAppStore();
    const session = resetSession(store, () => createSyncClient());
    session.subscribe(() => {});
    store.getState().setSource({ text: GOOD, name: '', origin: 'paste' });
    const { view } = await until((s) => s.view.analysis !== null);
    const a = view.analysis;
    if (!a) throw new Error('no analysis');
    const table = countTokens(a.transcript, a.provider, CHARS_PER_4);
    session.sink.evictionFollows(a.transcript, a.provider, true);
    expect(evictionPreparing(a)).toBe(true);
    expect(selectSimulator(a, table, null, ['message', 'exchange'], {}, 0)).toBeNull();
    // Nothing was prepared here meanwhile.
    expect(session.answers.evictionParts.get(a.transcript)).toBeUndefined();
    const before = session.getSnapshot().answers;
    const parts = prepareEviction(a.transcript, table, a.provider);
    session.sink.evictionParts(a.transcript, a.provider, parts, null);
    session.sink.evictionFollows(a.transcript, a.provider, false);
    expect(session.getSnapshot().answers).toBe(before + 1);
    expect(evictionPreparing(a)).toBe(false);
    const sim = selectSimulator(a, table, null, ['message', 'exchange'], {}, 1);
    expect(sim?.ctx.cuts).toBe(parts.cuts);
  });

  it('while the page holds side results, those that come before it drew the answer wait for it (issue 38)', async () => {
    const store = createAppStore();
    const session = resetSession(store, () => createSyncClient());
    let heard = 0;
    session.subscribe(() => heard++);
    session.holdSideResults(true);
    store.getState().setSource({ text: GOOD, name: '', origin: 'paste' });
    const { view } = await until((s) => s.view.analysis !== null && !s.pending);
    const a = view.analysis;
    if (!a) throw new Error('no analysis');
    const table = countTokens(a.transcript, a.provider, CHARS_PER_4);
    heard = 0;
    const before = session.getSnapshot().answers;
    // That parts follow is adopted at once (else the page would prepare them meanwhile).
    session.sink.evictionFollows(a.transcript, a.provider, true);
    expect(evictionPreparing(a)).toBe(true);
    const parts = prepareEviction(a.transcript, table, a.provider);
    session.sink.evictionParts(a.transcript, a.provider, parts, null);
    session.sink.evictionFollows(a.transcript, a.provider, false);
    session.sink.requests(null);
    session.sink.sweepsChanged();
    // Nothing else is adopted, and no listener re-renders, before the page drew this view.
    expect(session.answers.evictionParts.get(a.transcript)).toBeUndefined();
    expect(evictionPreparing(a)).toBe(true);
    expect([heard, session.getSnapshot().answers]).toEqual([0, before]);
    // A view drawn that is not the current one (an older answer's frame) applies nothing.
    session.drawn({ ...view });
    expect(session.answers.evictionParts.get(a.transcript)).toBeUndefined();
    session.drawn(session.getSnapshot().view);
    expect(session.answers.evictionParts.get(a.transcript)?.get(a.provider)).toBe(parts);
    expect(evictionPreparing(a)).toBe(false);
    expect(heard).toBeGreaterThan(0);
    // Once drawn, a later side result is applied at once.
    heard = 0;
    session.sink.sweepsChanged();
    expect(heard).toBe(1);
    // Not holding (the page gone): what waits is applied, and later ones at once.
    store.getState().setSource({ text: BROKEN, name: '', origin: 'paste' });
    await until((s) => s.view.error !== null && !s.pending);
    heard = 0;
    session.sink.sweepsChanged();
    expect(heard).toBe(0);
    session.holdSideResults(false);
    expect(heard).toBe(1);
    session.sink.sweepsChanged();
    expect(heard).toBe(2);
  });

  it('parts that will not come after all: the simulator is prepared on the page as before', async () => {
    const store = createAppStore();
    const session = resetSession(store, () => createSyncClient());
    session.subscribe(() => {});
    store.getState().setSource({ text: GOOD, name: '', origin: 'paste' });
    const { view } = await until((s) => s.view.analysis !== null);
    const a = view.analysis;
    if (!a) throw new Error('no analysis');
    const table = countTokens(a.transcript, a.provider, CHARS_PER_4);
    session.sink.evictionFollows(a.transcript, a.provider, true);
    session.sink.evictionFollows(a.transcript, a.provider, false);
    expect(evictionPreparing(a)).toBe(false);
    expect(selectSimulator(a, table, null, ['message', 'exchange'], {}, 0)).not.toBeNull();
  });

  it("a transcript the worker counted needs no exact counter on the page: its exact table is shown with the page's chars/4 counter (issue 38)", async () => {
    const store = createAppStore();
    const sync = createSyncClient();
    // A worker's exact table, labelled as the o200k one is (any counter of that name will do here).
    const exact: TextCounter = { encoding: 'o200k_base', count: (s) => s.length };
    let sendExact: (() => void) | null = null;
    const engine: InspectClient = {
      ...sync,
      inspect: async (req, l) => {
        const r = await sync.inspect(req, l);
        if ('ok' in r && r.ok) {
          const { transcript, provider } = r.analysis;
          // As the worker client does: the chars/4 table with the answer, the exact one after.
          l?.tokens?.(transcript, provider, countTokens(transcript, provider, CHARS_PER_4));
          sendExact = () =>
            l?.tokens?.(transcript, provider, countTokens(transcript, provider, exact));
        }
        return r;
      },
    };
    const session = resetSession(store, () => engine);
    session.subscribe(() => {});
    store.getState().setSource({ text: GOOD, name: '', origin: 'paste' });
    const { view } = await until((s) => s.view.analysis !== null && !s.pending);
    const a = view.analysis;
    if (!a) throw new Error('no analysis');
    expect(countsOnPage(a.transcript)).toBe(false);
    expect(selectTokens(a.transcript, a.provider, CHARS_PER_4).basis.encoding).toBe('chars/4');
    (sendExact as (() => void) | null)?.();
    // The page's counter was never loaded, and the count shown is the worker's exact one.
    expect(session.getSnapshot().counter).toBe(CHARS_PER_4);
    const shown = selectTokens(a.transcript, a.provider, CHARS_PER_4);
    expect(shown.basis.encoding).toBe('o200k_base');
    expect(shown).toBe(session.answers.tokens.get(a.transcript)?.get(`${a.provider}|o200k_base`));
  });

  it('a transcript the page counts itself (no worker table) asks for the exact counter, which the session loads once', async () => {
    const store = createAppStore();
    const session = resetSession(store, () => createSyncClient());
    session.subscribe(() => {});
    store.getState().setSource({ text: GOOD, name: '', origin: 'paste' });
    const { view } = await until((s) => s.view.analysis !== null && !s.pending);
    const a = view.analysis;
    if (!a) throw new Error('no analysis');
    expect(countsOnPage(a.transcript)).toBe(true);
    expect(session.getSnapshot().counter).toBe(CHARS_PER_4);
    session.startCounter();
    session.startCounter();
    const { counter } = await until((s) => s.counter !== CHARS_PER_4 || s.counterFailed);
    expect(counter.encoding).toBe('o200k_base');
    expect(selectTokens(a.transcript, a.provider, counter).basis.encoding).toBe('o200k_base');
  });

  it("keeps the selectors' memo storage: a new session starts with none", async () => {
    const store = createAppStore();
    resetSession(store, () => createSyncClient());
    activeSession().subscribe(() => {});
    store.getState().setSource({ text: GOOD, name: '', origin: 'paste' });
    const { view } = await until((s) => s.view.analysis !== null);
    const a = view.analysis;
    if (!a) throw new Error('no analysis');
    const rows = selectRows(a);
    expect(selectRows(a)).toBe(rows);
    resetSession(store, () => createSyncClient());
    expect(selectRows(a)).not.toBe(rows);
    expect(selectRows(a).rowMessage).toEqual(rows.rowMessage);
  });
});
