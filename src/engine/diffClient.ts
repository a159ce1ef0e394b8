/// <reference types="vite/client" />
/**
 * The diff worker's client: a file's request summaries and a rewritten message's character diff,
 * computed off the page's thread (a trace of many calls is parsed once per call; a long tool
 * result's character diff is quadratic at worst). Where no worker can run, or it fails, the page
 * computes the same answer itself (`answerDiffJob`).
 */
import { loadBpeCounter } from '../model/tokens.ts';
import {
  answerDiffJob,
  wantsBpe,
  type DiffJob,
  type DiffJobAnswer,
  type DiffWorkerAnswer,
} from './diffProtocol.ts';
import { jobWorker } from './jobWorker.ts';
import workerUrl from './diff.worker.ts?worker&url';

const diffWorker = jobWorker<DiffWorkerAnswer>(workerUrl, 'diff');

/**
 * `answerDiffJob(job)`, off the page's thread where it can be.
 * @returns the same answer as on the page (a worker's failure falls back to the page; there a
 *   job naming a streamed file by its Blob answers `NEEDS_WORKER`: the page does not read it)
 */
export async function diffJobOffThread<J extends DiffJob>(job: J): Promise<DiffJobAnswer<J>> {
  const answer = diffWorker.post(job);
  if (answer) {
    const a = await answer;
    if (a.ok) return a.value as DiffJobAnswer<J>;
  }
  const counter = wantsBpe(job) ? await loadBpeCounter().catch(() => undefined) : undefined;
  return answerDiffJob(job, counter);
}

/**
 * Let the diff worker go when no job is waiting: its tokenizer and the last file's listing (for a
 * long log, its calls' summaries) are not kept for a page that shows no strip. The next job
 * starts a new worker.
 * @returns whether a worker was ended
 */
export function releaseDiffWorker(): boolean {
  return diffWorker.release();
}
