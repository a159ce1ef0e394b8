import { gzipSync, strToU8 } from 'fflate';
import { describe, expect, it, vi } from 'vitest';
import { compactedThreeCallLog as log } from '../model/testing/claudeCodeLog.ts';
import { selectCharJob, selectRequestDiffJob } from '../state/diffView.ts';
import {
  answerDiffJob,
  ListingMemo,
  NEEDS_WORKER,
  readJobFile,
  type DiffAnswer,
  type RequestDiffJob,
} from './diffProtocol.ts';

/** The job of the page's diff view for call 3 against its predecessor, of a streamed `file`. */
function streamedJob(file: Blob): RequestDiffJob {
  const job = selectRequestDiffJob(
    { text: '', name: 'log.jsonl', origin: 'file', file },
    null,
    null,
    { kind: 'previous' },
    2,
    3,
  );
  if (!job) throw new Error('no job for a streamed file');
  return job;
}

const ok = (a: DiffAnswer) => {
  if (!a.ok) throw new Error(a.error);
  return a;
};

describe('a diff job naming a streamed file by its Blob (issue 33)', () => {
  it('is answered from the bytes read, as the same job of the text is', async () => {
    const text = log();
    const file = new File([text], 'log.jsonl');
    const job = streamedJob(file);
    expect(job.file).toBe(file);
    expect(job.text).toBe('');
    const memo = new ListingMemo();
    await readJobFile(job, memo);
    const fromBlob = ok(answerDiffJob(job, undefined, memo));
    const fromText = ok(answerDiffJob({ ...job, text, file: undefined }));
    expect(fromBlob).toEqual(fromText);
    // The compaction before call 3: the summary replaced the turns before it.
    expect(fromBlob.requests).toEqual({ left: 1, right: 2 });
    expect(fromBlob.diff.rows.map((r) => r.change)).toEqual([
      'dropped',
      'dropped',
      'dropped',
      'rewritten',
    ]);
    expect(fromBlob.diff.summary).toMatch(/^Request 3 replaced messages 0–2 .* with a summary/);
  });

  it('reads a .gz once and lists it once for the diff and its character diffs', async () => {
    const text = log();
    const gz = gzipSync(strToU8(text)) as Uint8Array<ArrayBuffer>;
    const picked = new File([gz], 'log.jsonl.gz');
    const memo = new ListingMemo();
    const job = streamedJob(picked);
    await readJobFile(job, memo);
    const answer = ok(answerDiffJob(job, undefined, memo));
    expect(answer).toEqual(ok(answerDiffJob({ ...job, text, file: undefined })));
    // The worker gets the File again as a new object (a structured clone): not read again.
    const again = new File([gz], 'log.jsonl.gz', {
      lastModified: picked.lastModified,
    });
    const read = vi.spyOn(again, 'arrayBuffer');
    const row = answer.diff.rows.findIndex((r) => r.change === 'rewritten');
    expect(row).toBeGreaterThanOrEqual(0);
    const chars = selectCharJob({ ...job, file: again }, answer, row);
    if (!chars || chars.kind !== 'request-chars') throw new Error('no character diff job');
    expect(chars.file).toBe(again);
    await readJobFile(chars, memo);
    expect(answerDiffJob(chars, undefined, memo).length).toBeGreaterThan(0);
    expect(read).not.toHaveBeenCalled();
  });

  it("is answered NEEDS_WORKER where its bytes were not read (the page's fallback)", () => {
    const a = answerDiffJob(streamedJob(new File([log()], 'log.jsonl')));
    expect(a).toEqual({ ok: false, error: NEEDS_WORKER });
    expect(NEEDS_WORKER).toContain('diff FILE --request N');
  });

  it('says how a .gz that is not gzip data was read with an error about its text', async () => {
    const memo = new ListingMemo();
    const job = streamedJob(new File(['{"not": "a log"'], 'log.jsonl.gz'));
    await readJobFile(job, memo);
    const a = answerDiffJob(job, undefined, memo);
    expect(a.ok).toBe(false);
    if (!a.ok) expect(a.error).toMatch(/^log\.jsonl\.gz is named \.gz but is not gzip data/);
  });
});
