/// <reference lib="webworker" />
/**
 * Module worker: reads (streams) and parses the transcript, analyses it and counts its tokens,
 * off the page's thread (issue 7). Answers in the compact form of pack.ts; see protocol.ts.
 */
import { runRequest } from './run.ts';
import type { WorkerRequest, WorkerResponse } from './protocol.ts';

const post = (msg: WorkerResponse, transfer: Transferable[] = []) =>
  self.postMessage(msg, transfer);

self.onmessage = (ev: MessageEvent<WorkerRequest>) => {
  void runRequest(ev.data, post);
};
