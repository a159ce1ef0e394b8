/// <reference lib="webworker" />
/**
 * Module worker: reads (streams) and parses the transcript, analyses it and counts its tokens,
 * off the page's thread (issue 7). Answers in the compact forms of pack.ts, packMessages.ts and
 * packLists.ts; see protocol.ts.
 */
import { runRequest, runSweep } from './run.ts';
import type { SweepRequest, WorkerRequest, WorkerResponse } from './protocol.ts';

const post = (msg: WorkerResponse, transfer: Transferable[] = []) =>
  self.postMessage(msg, transfer);

self.onmessage = (ev: MessageEvent<WorkerRequest | SweepRequest>) => {
  const msg = ev.data;
  if (msg.kind === 'sweep') runSweep(msg, post);
  else void runRequest(msg, post);
};
