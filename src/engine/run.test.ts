import { gzipSync } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import { analyze } from '../model/analyze.ts';
import { parserFor } from '../model/parse/registry.ts';
import { generate } from '../../scripts/gen.ts';
import { pairTables } from '../model/pairTables.ts';
import { parseTranscript } from '../model/parse/index.ts';
import {
  adoptPairTables,
  pairsOfBlockFrom,
  selectArcTables,
  selectPairsOfBlock,
} from '../state/selectors.ts';
import { WORKER_EVICTION_MIN } from './evictionParts.ts';
import { joinLists, joinTranscript } from './pack.ts';
import { unpackLists } from './packLists.ts';
import { packedRows, unpackMessages } from './packMessages.ts';
import type { WorkerResponse } from './protocol.ts';
import type { SourceBytes } from './lazyMessage.ts';
import { SpanReader, withFileBytes } from './sourceReader.ts';
import type { Message } from '../model/types.ts';
import { resetRun, runRequest } from './run.ts';
import { run } from './runState.ts';
import { PREVIEW_RECORDS } from './stream.ts';
import { rawAsRulesRead } from '../model/validate/rawFields.ts';
import { slimClaudeCodeLine } from '../model/parse/claudeCode/claudeCodeSlim.ts';

/** A poster that keeps what the worker loop posts, as the page receives it (cloned, transferred). */
const collect =
  (posts: WorkerResponse[]) =>
  (m: WorkerResponse, tr: Transferable[] = []) => {
    posts.push(structuredClone(m, { transfer: tr }));
  };

/**
 * A poster that keeps what the worker loop posts (`collect`) and, the first time `when` holds for
 * a posted message, starts `next` with itself as poster: a newer request arriving in the worker
 * then, as a message would. `started()` is that request's run (undefined if it never came).
 */
function newerRequestWhen(
  posts: WorkerResponse[],
  when: (m: WorkerResponse) => boolean,
  next: (post: (m: WorkerResponse, tr?: Transferable[]) => void) => Promise<void>,
) {
  const record = collect(posts);
  let run: Promise<void> | undefined;
  const post = (m: WorkerResponse, tr?: Transferable[]) => {
    record(m, tr);
    if (!run && when(m)) run = next(post);
  };
  return { post, started: () => run };
}

/**
 * The page's messages of a streamed answer whose spans are read from `file` (issue 38), as the
 * page reads them: every message's raw read once (asking for its text), then the texts arrive.
 */
async function pageMessages(posts: WorkerResponse[], file: Blob): Promise<Message[]> {
  let arrived = () => {};
  const read = new Promise<void>((resolve) => (arrived = resolve));
  const source: SourceBytes = { bytes: null, reader: new SpanReader(file, () => arrived()) };
  const messages = posts.flatMap((m) =>
    m.kind === 'messages' ? unpackMessages(m.messages, source, parserFor(m.format)?.blocksOf) : [],
  );
  expect(messages.every((m) => m.raw === undefined && m.blocks.length === 0)).toBe(true);
  await read;
  return messages;
}

/** Stream a log text as a file through the worker loop (request 1); everything it posts. */
async function streamLog(text: string): Promise<WorkerResponse[]> {
  const posts: WorkerResponse[] = [];
  await runRequest(
    {
      id: 1,
      req: { text: '', name: 'log.jsonl', format: null, provider: null, file: new Blob([text]) },
      bpe: false,
      fileKey: 1,
    },
    collect(posts),
  );
  return posts;
}

describe('a streamed file through the worker loop', () => {
  it('sends no bytes of a plain UTF-8 log (issue 38): the page reads each message from the file; raw and blocks are the same', async () => {
    resetRun();
    // Non-ASCII text too, so the bytes are not the characters.
    const text = generate({ format: 'claude-code-jsonl', seed: 4, messages: 60 }).replace(
      /"text":"/,
      '"text":"héllo → ',
    );
    const posts = await streamLog(text);
    const res = posts.find((m) => m.kind === 'result');
    if (res?.kind !== 'result') throw new Error('no answer');
    expect(res.textBytes).toBeUndefined();
    expect(res.spansInFile).toBe(true);
    // The worker keeps no copy either (it read them once, to parse).
    expect(run.lastFile?.source.bytes).toBeNull();
    // Each message names its source lines in those bytes, not a copy of their JSON (issue 20).
    const packed = posts.flatMap((m) => (m.kind === 'messages' ? packedRows(m.messages) : []));
    expect(packed.every((m) => m.rawJson === null && m.spans.length >= 2)).toBe(true);
    expect(packed.some((m) => m.rawMany)).toBe(true); // a reply's lines merged into one message
    // Sent without their blocks (the Claude Code format rebuilds them from raw, issue 20).
    expect(packed.every((m) => m.blocks === null)).toBe(true);
    const file = new Blob([text]);
    const messages = await pageMessages(posts, file);
    // The transcript's own raw (read by an export) comes while the file's bytes are read whole.
    const held: SourceBytes = { bytes: null, reader: new SpanReader(file, () => {}) };
    const source = {
      get text() {
        return held.bytes ? new TextDecoder().decode(held.bytes) : null;
      },
      name: 'log.jsonl',
      format: null,
      streamed: true,
    };
    const r = joinTranscript(res.result, messages, source, null);
    if (!r.ok) throw new Error('no analysis');
    const direct = parseTranscript(text, { name: 'log.jsonl' });
    if (!direct.ok) throw new Error('does not parse');
    expect(r.analysis.transcript.raw).toBeUndefined(); // not read: stays lazy
    const whole = await withFileBytes(held, () => r.analysis.transcript.raw);
    expect(held.bytes).toBeNull(); // dropped again
    expect(whole).toEqual(direct.value.transcript.raw);
    expect(r.analysis.transcript.raw).toEqual(direct.value.transcript.raw);
    expect(r.analysis.transcript.messages).toHaveLength(direct.value.transcript.messages.length);
    expect(r.analysis.transcript.messages.map((m) => m.raw)).toEqual(
      direct.value.transcript.messages.map((m) => m.raw),
    );
    expect(r.analysis.transcript.messages.map((m) => m.blocks)).toEqual(
      direct.value.transcript.messages.map((m) => m.blocks),
    );
  });

  for (const [ending, end] of [
    ['a final newline', '\n'],
    ['no final newline (its last line ends at the file’s end)', ''],
  ])
    it(`reads the spans from the file again when the same file is answered fresh after another input: ${ending}`, async () => {
      resetRun();
      const text = generate({ format: 'claude-code-jsonl', seed: 6, messages: 40 }).trimEnd() + end;
      const file = new Blob([text]);
      const req = { text: '', name: 'log.jsonl', format: null, provider: null, file };
      const first: WorkerResponse[] = [];
      await runRequest({ id: 1, req, bpe: false, fileKey: 9 }, collect(first));
      await runRequest(
        { id: 2, req: { text: '[]', name: '', format: null, provider: null }, bpe: false },
        collect([]),
      );
      const again: WorkerResponse[] = [];
      await runRequest({ id: 3, req, bpe: false, fileKey: 9 }, collect(again));
      const res = again.find((m) => m.kind === 'result');
      if (res?.kind !== 'result') throw new Error('no answer');
      expect(res.fresh).toBe(true);
      expect(res.textBytes).toBeUndefined();
      expect(res.spansInFile).toBe(true);
      const raws = (await pageMessages(again, file)).map((x) => x.raw);
      const direct = parseTranscript(text, { name: 'log.jsonl' });
      if (!direct.ok) throw new Error('does not parse');
      expect(raws).toEqual(direct.value.transcript.messages.map((m) => m.raw));
    });
});

describe('a gzip file streamed (issue 38: the page cannot slice it)', () => {
  it('sends its inflated text as bytes and each message’s raw as JSON: nothing is read from the file', async () => {
    resetRun();
    const text = generate({ format: 'claude-code-jsonl', seed: 8, messages: 50 }).replace(
      /"text":"/,
      '"text":"naïve → ✓ ',
    );
    const file = new Blob([gzipSync(Buffer.from(text))]);
    const posts: WorkerResponse[] = [];
    await runRequest(
      {
        id: 1,
        req: { text: '', name: 'log.jsonl.gz', format: null, provider: null, file },
        bpe: false,
        fileKey: 2,
      },
      collect(posts),
    );
    const res = posts.find((m) => m.kind === 'result');
    if (res?.kind !== 'result' || !res.textBytes) throw new Error('no bytes with the answer');
    expect(res.spansInFile).toBeUndefined();
    expect(new TextDecoder().decode(res.textBytes)).toBe(text);
    const packed = posts.flatMap((m) => (m.kind === 'messages' ? packedRows(m.messages) : []));
    expect(packed.every((m) => m.rawJson !== null && m.spans.length === 0)).toBe(true);
    const raws = posts.flatMap((m) =>
      m.kind === 'messages' ? unpackMessages(m.messages).map((x) => x.raw) : [],
    );
    const direct = parseTranscript(text, { name: 'log.jsonl' });
    if (!direct.ok) throw new Error('does not parse');
    expect(raws).toEqual(direct.value.transcript.messages.map((m) => m.raw));
  });
});

describe('records kept slimmed in the worker (issue 20)', () => {
  const hasSessionFields = (v: unknown) =>
    typeof v === 'object' && v !== null && ('sessionId' in v || 'toolUseResult' in v);
  const keptValues = () => {
    const doc = run.lastFile?.source.doc;
    if (doc?.kind !== 'jsonl') throw new Error('no log kept');
    return doc.lines.map((l) => l.value);
  };

  it('holds only what the parse, then the rules, read of each record; the page reads raws whole from the file', async () => {
    resetRun();
    const text = generate({ format: 'claude-code-jsonl', seed: 7, messages: 600 });
    const whole = text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as unknown);
    const posts = await streamLog(text);
    // Slimmed as a Claude Code log (its slimmer: the fields its parse reads).
    expect(run.lastFile?.source.slimmed?.(whole[1])).toEqual(slimClaudeCodeLine(whole[1]));
    // Once parsed, each record is held as what the rules read of it (the lines are long gone).
    expect(keptValues()).toEqual(whole.map(rawAsRulesRead));
    expect(whole.slice(PREVIEW_RECORDS).filter(hasSessionFields).length).toBeGreaterThan(500);
    const t = run.lastFile?.result.ok ? run.lastFile.result.value.transcript : null;
    expect(t?.raw).toEqual(keptValues());
    expect(t?.messages.some((m) => Array.isArray(m.raw))).toBe(true);
    // The page's raws (read from the file) are the whole lines, and the verdict is the same.
    const res = posts.find((m) => m.kind === 'result');
    if (res?.kind !== 'result' || !res.result.ok) throw new Error('no answer');
    const raws = (await pageMessages(posts, new Blob([text]))).map((x) => x.raw);
    const direct = parseTranscript(text, { name: 'log.jsonl' });
    if (!direct.ok) throw new Error('does not parse');
    expect(raws).toEqual(direct.value.transcript.messages.map((m) => m.raw));
    const want = analyze(direct.value.transcript).validation;
    expect(res.result.analysis.validation.violations).toEqual(want.violations);
  });

  it('keeps no released record alive through the simulator’s window transcript (issue 38)', async () => {
    resetRun();
    const text = generate({
      format: 'claude-code-jsonl',
      seed: 9,
      messages: WORKER_EVICTION_MIN * 2,
    });
    await streamLog(text);
    const t = run.lastFile?.result.ok ? run.lastFile.result.value.transcript : null;
    const winT = run.held?.parts.cuts.fx?.cache.winT;
    if (!t || !winT) throw new Error('no eviction parts held');
    // The records were released after the sweep; the window transcript made before reads the
    // released list, not the slimmed records it was made with.
    expect(t.raw).toEqual(keptValues());
    expect(winT.raw).toBe(t.raw);
    expect(winT.settings.thinking).toBeUndefined();
    expect(winT.messages).toBe(t.messages);
  }, 60_000);

  it('reads the file whole again when the whole file is not the format the preview slimmed for', async () => {
    resetRun();
    const codex = parserFor('codex-jsonl');
    if (!codex) throw new Error('no codex parser');
    // A sniffer that takes a slimmed record for its own: the whole file's detection then differs.
    const spy = vi
      .spyOn(codex, 'sniff')
      .mockImplementation((v) =>
        Array.isArray(v) &&
        v.some((l) => typeof l === 'object' && l !== null && !hasSessionFields(l))
          ? 1
          : 0,
      );
    try {
      const text = generate({ format: 'claude-code-jsonl', seed: 8, messages: 300 });
      const posts = await streamLog(text);
      expect(posts.filter((m) => m.kind === 'preview')).toHaveLength(2);
      const res = posts.find((m) => m.kind === 'result');
      expect(res?.kind === 'result' && res.result.ok && res.result.parsed.transcript.format).toBe(
        'claude-code-jsonl',
      );
      expect(run.lastFile?.source.slimmed).toBe(null);
      const whole = text
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as unknown);
      expect(keptValues()).toEqual(whole);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('pair tables from the worker (issue 7)', () => {
  it('a long transcript’s answer carries the timeline tables the page would build', async () => {
    resetRun();
    const text = generate({
      format: 'claude-code-jsonl',
      seed: 5,
      messages: WORKER_EVICTION_MIN * 2, // log lines; a reply's lines merge into one message
    });
    const posts = await streamLog(text);
    const res = posts.find((m) => m.kind === 'result');
    if (res?.kind !== 'result' || !res.pairTables) throw new Error('no tables with the answer');
    // As the page unpacks them: raws read from the file, blocks rebuilt from the raws.
    const messages = await pageMessages(posts, new Blob([text]));
    const lists = posts.flatMap((m) => (m.kind === 'lists' ? [unpackLists(m.lists)] : []));
    const joined = joinLists(
      res.result,
      lists.flatMap((l) => l.pairs),
      lists.flatMap((l) => l.exchanges),
      lists.flatMap((l) => l.usage),
    );
    const r = joinTranscript(joined, messages, { text, name: 'log.jsonl', format: null }, null);
    if (!r.ok) throw new Error('no analysis');
    const a = r.analysis;
    expect(a.transcript.messages.length).toBeGreaterThanOrEqual(WORKER_EVICTION_MIN);
    // Built on the page from the joined analysis: the same tables.
    expect(res.pairTables).toEqual(pairTables(a.transcript.messages, a.pairs));
    adoptPairTables(a, res.pairTables);
    expect(selectArcTables(a).lanes).toBe(res.pairTables.arcLanes);
    const pob = selectPairsOfBlock(a);
    const page = pairsOfBlockFrom(pairTables(a.transcript.messages, a.pairs).blocks, a.pairs);
    a.transcript.messages.forEach((m, mi) =>
      m.blocks.forEach((_, bi) => expect(pob.of(mi, bi)).toEqual(page.of(mi, bi))),
    );
  }, 60_000);
});

describe('the exact count of the answer shown survives a later failing request', () => {
  const good = generate({ format: 'anthropic-messages', seed: 7, messages: 12 });
  const text = (t: string) => ({ text: t, name: 'body.json', format: null, provider: null });

  it('broken JSON sent before the BPE count of the last answer finished: that count still comes', async () => {
    resetRun();
    const posts: WorkerResponse[] = [];
    // The broken paste arrives as soon as the first answer is out (while its count waits for
    // the BPE's lazy load), as a message would in the worker.
    const { post, started } = newerRequestWhen(
      posts,
      (m) => m.kind === 'result' && m.id === 1,
      (p) => runRequest({ id: 2, req: text('{"messages": [') }, p),
    );
    await runRequest({ id: 1, req: text(good) }, post);
    await started();
    const answer = posts.find((m) => m.kind === 'result' && m.id === 1);
    const failure = posts.find((m) => m.kind === 'result' && m.id === 2);
    if (answer?.kind !== 'result' || failure?.kind !== 'result') throw new Error('no answers');
    expect(answer.result.ok).toBe(true);
    expect(failure.result.ok).toBe(false);
    const exact = posts.filter((m) => m.kind === 'tokens');
    expect(exact).toHaveLength(1);
    const [tokens] = exact;
    if (tokens?.kind !== 'tokens') throw new Error('no exact table');
    expect(tokens.parseId).toBe(answer.parseId);
    expect(tokens.tokens.basis.encoding).toBe('o200k_base');
    expect(tokens.tokens.perMessage).toHaveLength(answer.tokens?.perMessage.length ?? -1);
  }, 60_000);

  it('a failing request after the exact table was sent does not send it again', async () => {
    resetRun();
    const posts: WorkerResponse[] = [];
    const post = collect(posts);
    await runRequest({ id: 1, req: text(good) }, post);
    expect(posts.filter((m) => m.kind === 'tokens')).toHaveLength(1);
    await runRequest({ id: 2, req: text('not json') }, post);
    await runRequest({ id: 3, req: text('{') }, post);
    expect(posts.filter((m) => m.kind === 'tokens')).toHaveLength(1);
  }, 60_000);

  it('two failures in a row: the last one counts the answer shown (once)', async () => {
    resetRun();
    const posts: WorkerResponse[] = [];
    const record = collect(posts);
    const runs: Promise<void>[] = [];
    const post = (m: WorkerResponse, tr?: Transferable[]) => {
      record(m, tr);
      if (m.kind === 'result' && m.id === 1)
        runs.push(runRequest({ id: 2, req: text('{"messages": [') }, post));
      if (m.kind === 'result' && m.id === 2) runs.push(runRequest({ id: 3, req: text('[') }, post));
    };
    await runRequest({ id: 1, req: text(good) }, post);
    await Promise.all(runs);
    const answer = posts.find((m) => m.kind === 'result' && m.id === 1);
    const exact = posts.filter((m) => m.kind === 'tokens');
    expect(exact).toHaveLength(1);
    expect(exact[0]?.id).toBe(3);
    if (answer?.kind !== 'result' || exact[0]?.kind !== 'tokens') throw new Error('no tables');
    expect(exact[0].parseId).toBe(answer.parseId);
  }, 60_000);
});

describe('a fresh parse’s messages go before its analysis (issue 38)', () => {
  const text = generate({
    format: 'claude-code-jsonl',
    seed: 11,
    messages: WORKER_EVICTION_MIN * 2,
  });
  const fileReq = (id: number) => ({
    id,
    req: { text: '', name: 'log.jsonl', format: null, provider: null, file: new Blob([text]) },
    bpe: false,
    fileKey: 4,
  });

  it('every message batch is posted before the worker analyses: the page takes them in meanwhile', async () => {
    resetRun();
    const order: string[] = [];
    const original = run.stages.safeInspect.bind(run.stages);
    const analyse = vi.spyOn(run.stages, 'safeInspect').mockImplementation((...args) => {
      order.push('analyse');
      return original(...args);
    });
    const posts: WorkerResponse[] = [];
    const record = collect(posts);
    await runRequest(fileReq(1), (m, tr) => {
      if (m.kind === 'messages' || m.kind === 'result') order.push(m.kind);
      record(m, tr);
    });
    analyse.mockRestore();
    expect(order.filter((k) => k === 'messages').length).toBeGreaterThan(1);
    expect(order.indexOf('analyse')).toBe(order.lastIndexOf('messages') + 1);
    expect(order.at(-1)).toBe('result');
    const res = posts.find((m) => m.kind === 'result');
    if (res?.kind !== 'result') throw new Error('no answer');
    expect(res.result.ok).toBe(true);
    expect(res.fresh).toBe(true);
  }, 60_000);

  it('a request gone stale after its messages were posted leaves the next one to send them again', async () => {
    resetRun();
    const posts: WorkerResponse[] = [];
    // A newer request for the same file (another provider) arrives while the first sends its
    // lists: the page drops the first with the messages it sent.
    const next = fileReq(2);
    const { post, started } = newerRequestWhen(
      posts,
      (m) => m.kind === 'lists' && m.id === 1,
      (p) => runRequest({ ...next, req: { ...next.req, provider: 'anthropic-bedrock' } }, p),
    );
    await runRequest(fileReq(1), post);
    await started();
    expect(posts.some((m) => m.kind === 'result' && m.id === 1)).toBe(false);
    const answer = posts.find((m) => m.kind === 'result' && m.id === 2);
    if (answer?.kind !== 'result') throw new Error('no answer to the second request');
    expect(answer.fresh).toBe(true);
    expect(answer.result.ok).toBe(true);
    const sent = (id: number) =>
      posts.reduce((n, m) => n + (m.kind === 'messages' && m.id === id ? m.messages.count : 0), 0);
    // The first request had sent every message before it went stale; the second sends them all.
    expect(sent(1)).toBeGreaterThanOrEqual(WORKER_EVICTION_MIN);
    expect(sent(2)).toBe(sent(1));
  }, 60_000);
});
