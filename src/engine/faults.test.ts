import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generate } from '../../scripts/gen.ts';
import { analyzeFaults } from '../model/faultedAnalysis.ts';
import type { FaultSpec } from '../model/faults.ts';
import { INVOICE_ANTHROPIC } from '../model/testing/faults.fixtures.ts';
import type { TokenTable } from '../model/tokens.ts';
import type { ProviderId, Transcript } from '../model/types.ts';
import { createWorkerClient, type InspectRequest } from './client.ts';
import { WORKER_EVICTION_MIN } from './evictionParts.ts';
import { InspectStages, inspect } from './inspect.ts';
import { NO_SINK, type AnswerSink } from './sink.ts';
import { FakeWorker } from './testing/fakeWorker.ts';

const invoice = JSON.stringify(INVOICE_ANTHROPIC);
const req = (text: string, faults?: FaultSpec[], provider: ProviderId | null = null) =>
  ({
    text,
    name: 'body.json',
    format: null,
    provider,
    ...(faults ? { faults } : {}),
  }) satisfies InspectRequest;
const DROP_1: FaultSpec[] = [{ kind: 'drop', messageIndex: 1 }];

describe('faults are an engine request (issue 34: the page never analyses again)', () => {
  it('the answer is the model’s faulted analysis, with what the faults did', () => {
    const loaded = inspect(req(invoice));
    const r = inspect(req(invoice, DROP_1));
    if (!loaded.ok || !r.ok) throw new Error('the invoice does not parse');
    const model = analyzeFaults(loaded.analysis, DROP_1);
    expect(r.analysis).toEqual(model.analysis);
    expect(r.parsed.transcript).toBe(r.analysis.transcript);
    expect(r.faults).toEqual(model.applied);
    expect(r.analysis.validation.valid).toBe(false);
    // Rows numbered by position; the faulted transcript keeps each message's source index.
    expect(r.analysis.transcript.messages.map((m) => m.index)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(r.faults?.transcript.messages[1]?.index).toBe(2);
    expect(r.faults?.descriptions[0]).toMatch(/Message #1 \(assistant\) was dropped/);
    // No faults: no `faults` in the answer.
    expect(loaded.faults).toBeUndefined();
  });

  it('memoised: the same faults answer the same objects; another provider keeps the faulted parse', () => {
    const stages = new InspectStages();
    const a = stages.inspect(req(invoice, DROP_1));
    const b = stages.inspect(req(invoice, [{ kind: 'drop', messageIndex: 1 }]));
    if (!a.ok || !b.ok) throw new Error('the invoice does not parse');
    expect(b.analysis).toBe(a.analysis);
    expect(b.faults).toBe(a.faults);
    const c = stages.inspect(req(invoice, DROP_1, 'anthropic-bedrock'));
    if (!c.ok) throw new Error('the invoice does not parse');
    expect(c.analysis.provider).toBe('anthropic-bedrock');
    expect(c.parsed).toBe(a.parsed);
  });

  it('a fault that does not fit: the ones before it applied, the error said', () => {
    const r = inspect(
      req(invoice, [
        { kind: 'truncate', count: 1 },
        { kind: 'cancel', messageIndex: 0 },
      ]),
    );
    if (!r.ok) throw new Error('the invoice does not parse');
    expect(r.faults?.descriptions).toHaveLength(1);
    expect(r.faults?.error).toMatch(/not an assistant turn/);
  });
});

describe('faults through the worker client: the same answer, on the ordinary path', () => {
  beforeAll(() => {
    vi.stubGlobal('Worker', FakeWorker);
  });
  afterAll(() => {
    vi.unstubAllGlobals();
  });

  it('joined on the page: equal to the engine’s answer; untouched rows are the shown rows; its tokens come', async () => {
    const heard: { t: Transcript; table: TokenTable }[] = [];
    const client = createWorkerClient();
    const listener = {
      tokens: (t: Transcript, _p: ProviderId, table: TokenTable) => heard.push({ t, table }),
    };
    const loaded = await client.inspect(req(invoice), listener);
    const r = await client.inspect(req(invoice, DROP_1), listener);
    client.dispose();
    const direct = inspect(req(invoice, DROP_1));
    if (!loaded.ok || !r.ok || !direct.ok || !r.faults || !direct.faults)
      throw new Error('no faulted answer');
    expect(r.analysis.transcript.messages).toEqual(direct.analysis.transcript.messages);
    expect(r.analysis.pairs).toEqual(direct.analysis.pairs);
    expect(r.analysis.validation).toEqual(direct.analysis.validation);
    expect(r.faults.descriptions).toEqual(direct.faults.descriptions);
    expect(r.faults.error).toBe(direct.faults.error);
    expect(r.faults.transcript.messages).toEqual(direct.faults.transcript.messages);
    // The faulted transcript shares each row the display copy did not renumber (identity, as
    // repair's diff reads it), and gives the others their source index back.
    r.faults.transcript.messages.forEach((m, i) => {
      const shown = r.analysis.transcript.messages[i];
      if (m.index === i) expect(m).toBe(shown);
      else expect(m).toEqual({ ...shown, index: m.index });
    });
    // A new transcript on the page (not the loaded one), and its token table came with it.
    expect(r.analysis.transcript).not.toBe(loaded.analysis.transcript);
    expect(heard.some((h) => h.t === r.analysis.transcript)).toBe(true);
    const table = heard.find((h) => h.t === r.analysis.transcript)?.table;
    expect(table?.perMessage).toHaveLength(r.analysis.transcript.messages.length);
  });

  it('a long transcript with faults: its eviction parts and a sweep reach the sink, for the faulted transcript', async () => {
    const text = generate({
      format: 'anthropic-messages',
      seed: 3,
      messages: WORKER_EVICTION_MIN + 200,
    });
    const parts: Transcript[] = [];
    const swept: TokenTable[] = [];
    const sink: AnswerSink = {
      ...NO_SINK,
      evictionParts: (t) => parts.push(t),
      sweep: (table) => swept.push(table),
    };
    const heard: { t: Transcript; table: TokenTable }[] = [];
    const client = createWorkerClient(sink);
    const r = await client.inspect(req(text, [{ kind: 'truncate', count: 3 }]), {
      tokens: (t, _p, table) => heard.push({ t, table }),
    });
    if (!r.ok || !r.faults) throw new Error('no faulted answer');
    expect(r.faults.descriptions).toHaveLength(1);
    expect(parts).toEqual([r.analysis.transcript]);
    expect(parts[0]).toBe(r.analysis.transcript);
    const quick = heard.find((h) => h.t === r.analysis.transcript)?.table;
    await vi.waitFor(() => expect(swept).toContain(quick), { timeout: 20_000 });
    client.dispose();
  }, 30_000);
});
