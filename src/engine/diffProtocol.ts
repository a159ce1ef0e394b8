/**
 * Messages between the page and the diff worker (diff.worker.ts): the requests a file holds,
 * summarised for the strip (issue 33), and the character diff of a rewritten message. Each job
 * is answered by `answerDiffJob`, in the worker or, where no worker runs, on the page.
 */
import { summariseRequests, type RequestSummary } from '../model/requestList.ts';
import type { FormatId, ProviderId } from '../model/types.ts';
import { charDiff, type CharPart } from '../model/charDiff.ts';

/** The summaries of a file's requests (`summariseRequests`). */
export interface RequestsJob {
  kind: 'requests';
  text: string;
  name: string;
  format: FormatId | null;
  provider: ProviderId | null;
}

/** The character diff of two texts (a rewritten message's before and after). */
export interface CharsJob {
  kind: 'chars';
  before: string;
  after: string;
}

export type DiffJob = RequestsJob | CharsJob;

/** What each job answers. */
export interface DiffJobAnswers {
  requests: RequestSummary[] | null;
  chars: CharPart[];
}

export type DiffJobAnswer<J extends DiffJob> = DiffJobAnswers[J['kind']];

/** A job as posted: with its id. */
export type DiffJobMessage = DiffJob & { id: number };

export type DiffWorkerAnswer =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: string };

/** The answer to one job. Throws what the model throws (the worker turns it into `ok: false`). */
export function answerDiffJob<J extends DiffJob>(job: J): DiffJobAnswer<J> {
  if (job.kind === 'requests')
    return summariseRequests(
      job.text,
      { ...(job.name ? { name: job.name } : {}), ...(job.format ? { format: job.format } : {}) },
      job.provider,
    ) as DiffJobAnswer<J>;
  return charDiff(job.before, job.after) as DiffJobAnswer<J>;
}
