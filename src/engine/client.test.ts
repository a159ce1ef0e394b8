import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generate } from '../../scripts/gen.ts';
import type { TokenTable } from '../model/tokens.ts';
import type { ProviderId, Transcript } from '../model/types.ts';
import { createWorkerClient, isCancelled, type InspectRequest } from './client.ts';
import { FakeWorker } from './testing/fakeWorker.ts';
import { WORKER_EVICTION_MIN } from './evictionParts.ts';
import { NO_SINK, type AnswerSink } from './sink.ts';

const good = generate({ format: 'anthropic-messages', seed: 9, messages: 10 });
const request = (text: string): InspectRequest => ({
  text,
  name: 'body.json',
  format: null,
  provider: null,
});

/** Token tables heard, and a wait for the exact one of a transcript. */
function tablesHeard() {
  const heard: { t: Transcript; provider: ProviderId; table: TokenTable }[] = [];
  return {
    heard,
    listener: {
      tokens: (t: Transcript, provider: ProviderId, table: TokenTable) =>
        heard.push({ t, provider, table }),
    },
    exactFor: (t: Transcript) =>
      heard.filter((h) => h.t === t && h.table.basis.encoding === 'o200k_base'),
  };
}

describe('the exact count of the transcript shown after a failed or cancelled request', () => {
  beforeAll(() => {
    vi.stubGlobal('Worker', FakeWorker);
  });
  afterAll(() => {
    vi.unstubAllGlobals();
  });

  it('broken JSON right after an answer: its exact table still reaches that transcript, without a new request', async () => {
    const client = createWorkerClient();
    const worker = FakeWorker.spawned.at(-1);
    const tables = tablesHeard();
    const a = await client.inspect(request(good), tables.listener);
    if (!a.ok) throw new Error('the sample did not parse');
    // Sent at once, while the first answer's count waits for the BPE.
    const b = await client.inspect(request('{"messages": ['), tables.listener);
    expect(b.ok).toBe(false);
    // The page asks for the shown transcript's count: the worker already counts it (run.ts).
    client.recount(request(good), a.analysis.transcript, a.analysis.provider, tables.listener);
    expect(worker?.requests).toBe(2);
    await vi.waitFor(() => expect(tables.exactFor(a.analysis.transcript)).toHaveLength(1), {
      timeout: 20_000,
    });
    const [exact] = tables.exactFor(a.analysis.transcript);
    expect(exact?.provider).toBe(a.analysis.provider);
    expect(exact?.table.perMessage).toHaveLength(a.analysis.transcript.messages.length);
    client.dispose();
  }, 30_000);

  it('a load cancelled before the count came: a new worker counts the transcript shown, attached to it', async () => {
    const client = createWorkerClient();
    const tables = tablesHeard();
    const a = await client.inspect(request(good), tables.listener);
    if (!a.ok) throw new Error('the sample did not parse');
    const other = generate({ format: 'anthropic-messages', seed: 10, messages: 10 });
    const loading = client.inspect(request(other), tables.listener);
    client.cancel();
    expect(isCancelled(await loading)).toBe(true);
    const spawnedBefore = FakeWorker.spawned.length;
    client.recount(request(good), a.analysis.transcript, a.analysis.provider, tables.listener);
    expect(FakeWorker.spawned.length).toBe(spawnedBefore + 1);
    await vi.waitFor(() => expect(tables.exactFor(a.analysis.transcript)).toHaveLength(1), {
      timeout: 20_000,
    });
    // Every table heard is for the page's transcript (none for the cancelled load or a copy).
    expect(tables.heard.every((h) => h.t === a.analysis.transcript)).toBe(true);
    const [exact] = tables.exactFor(a.analysis.transcript);
    expect(exact?.table.perMessage).toHaveLength(a.analysis.transcript.messages.length);
    // The next request of the same text reuses the page's transcript (the worker holds its parse).
    const again = await client.inspect(request(good), tables.listener);
    if (!again.ok) throw new Error('the sample did not parse');
    expect(again.analysis.transcript).toBe(a.analysis.transcript);
    client.dispose();
  }, 30_000);
});

describe("a long transcript: the answer first, the simulator's eviction parts after it (issue 38)", () => {
  beforeAll(() => {
    vi.stubGlobal('Worker', FakeWorker);
    FakeWorker.holdEviction = true;
  });
  afterAll(() => {
    FakeWorker.holdEviction = false;
    vi.unstubAllGlobals();
  });
  const long = generate({
    format: 'anthropic-messages',
    seed: 3,
    messages: WORKER_EVICTION_MIN + 100,
  });
  /** A sink that records what it is handed, in order. */
  function recordingSink() {
    const calls: string[] = [];
    const sink: AnswerSink = {
      ...NO_SINK,
      evictionParts: (t, provider) => calls.push(`parts ${provider} ${t.messages.length}`),
      evictionFollows: (t, provider, follows) =>
        calls.push(`follows ${provider} ${t.messages.length} ${follows}`),
    };
    return { calls, sink };
  }

  it('resolves before the eviction parts arrive; the sink hears that they follow, then the parts', async () => {
    const { calls, sink } = recordingSink();
    const client = createWorkerClient(sink);
    const worker = FakeWorker.spawned.at(-1);
    const a = await client.inspect({ ...request(long), provider: 'anthropic' });
    if (!a.ok) throw new Error('the long body did not parse');
    const n = a.analysis.transcript.messages.length;
    expect(n).toBeGreaterThanOrEqual(WORKER_EVICTION_MIN);
    // Answered while the worker's eviction message is still held back.
    expect(calls).toEqual([`follows anthropic ${n} true`]);
    worker?.release();
    expect(calls).toEqual([
      `follows anthropic ${n} true`,
      `parts anthropic ${n}`,
      `follows anthropic ${n} false`,
    ]);
    client.dispose();
  }, 30_000);

  it('a cancel before the parts came: the sink hears they will not come', async () => {
    const { calls, sink } = recordingSink();
    const client = createWorkerClient(sink);
    const a = await client.inspect({ ...request(long), provider: 'anthropic' });
    if (!a.ok) throw new Error('the long body did not parse');
    const n = a.analysis.transcript.messages.length;
    client.cancel();
    expect(calls).toEqual([`follows anthropic ${n} true`, `follows anthropic ${n} false`]);
    client.dispose();
  }, 30_000);
});
