/**
 * The structure-only copy built in the share-copy worker equals the page's own, for transcripts
 * as the page holds them (messages rebuilt from the inspect worker's columns, with lazy raws);
 * where no worker can take it, the page builds it.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generate } from '../../scripts/gen.ts';
import { MEDIA_BODIES } from '../model/testing/shareCopy.fixtures.ts';
import { checkedStructureCopy } from '../model/redact/shareCopy.ts';
import { CHARS_PER_4, loadBpeCounter, type TextCounter } from '../model/tokens.ts';
import type { Transcript } from '../model/types.ts';
import type { InspectClient } from './clientApi.ts';
import type { SweepRequest, WorkerRequest, WorkerResponse } from './protocol.ts';
import { resetRun, runRequest, runSweep } from './run.ts';
import type { structureCopyOffThread as StructureCopyOffThread } from './shareCopyClient.ts';
import { answerShareCopy, type ShareCopyRequest } from './shareCopyProtocol.ts';

/** Requests the fake share-copy worker received. */
const received: ShareCopyRequest[] = [];

/** A worker running either worker's loop in this thread; messages are cloned as a worker's. */
class FakeWorker {
  onmessage: ((ev: MessageEvent) => void) | null = null;
  onerror: (() => void) | null = null;
  private readonly name: string;
  constructor(_url: string, opts: { name: string }) {
    this.name = opts.name;
    if (this.name === 'inspect') resetRun();
  }
  postMessage(msg: WorkerRequest | SweepRequest | ShareCopyRequest): void {
    const data = structuredClone(msg);
    if (this.name === 'share-copy') {
      received.push(data as ShareCopyRequest);
      void answerShareCopy(data as ShareCopyRequest).then((a) => this.post(a));
    } else if ('kind' in data && data.kind === 'sweep') runSweep(data, this.post);
    else void runRequest(data as WorkerRequest, this.post);
  }
  terminate(): void {}
  private post = (m: unknown, transfer: Transferable[] = []) => {
    this.onmessage?.({ data: structuredClone(m, { transfer }) } as MessageEvent<WorkerResponse>);
  };
}

let client: InspectClient;
let offThread: typeof StructureCopyOffThread;

beforeAll(async () => {
  vi.stubGlobal('Worker', FakeWorker);
  const engine = await import('./client.ts');
  client = engine.createWorkerClient();
  offThread = engine.structureCopyOffThread;
});
afterAll(() => {
  client.dispose();
  vi.unstubAllGlobals();
});

/** The transcript the page holds for `text` (detected format), from the inspect worker. */
async function shown(text: string): Promise<Transcript> {
  const r = await client.inspect({ text, name: '', format: null, provider: null });
  if (!r.ok) throw new Error(r.error.message);
  return r.analysis.transcript;
}

const bodies: [string, string][] = [
  ...MEDIA_BODIES.map(([what, body]): [string, string] => [what, JSON.stringify(body)]),
  ['a generated Claude Code log', generate({ format: 'claude-code-jsonl', seed: 4, messages: 40 })],
  ['a generated Chat body', generate({ format: 'openai-chat', seed: 5, messages: 30 })],
];

describe('structureCopyOffThread', () => {
  it.each(bodies)(
    '%s: the worker’s copy is the page’s, text and problems',
    async (_, text) => {
      const t = await shown(text);
      for (const [counter, names] of [
        [CHARS_PER_4, 'keep'],
        [await loadBpeCounter('o200k_base'), 'hide'],
      ] as [TextCounter, 'keep' | 'hide'][]) {
        const before = received.length;
        const copy = await offThread(t, counter, names);
        expect(received.length).toBe(before + 1);
        expect(copy).toEqual(checkedStructureCopy(t, counter, names));
      }
    },
    30_000,
  );

  it('builds on the page a counter the worker cannot rebuild, or a transcript that does not clone', async () => {
    const t = await shown(bodies[0]?.[1] ?? '');
    const before = received.length;
    const odd: TextCounter = { encoding: 'words', count: (s) => s.split(/\s+/).length };
    expect(await offThread(t, odd, 'keep')).toEqual(checkedStructureCopy(t, odd, 'keep'));
    const unclonable = { ...t, extra: () => 0 } as unknown as Transcript;
    expect(await offThread(unclonable, CHARS_PER_4, 'keep')).toEqual(
      checkedStructureCopy(t, CHARS_PER_4, 'keep'),
    );
    expect(received.length).toBe(before);
  }, 30_000);
});
