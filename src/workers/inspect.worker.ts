/// <reference lib="webworker" />
/** Module worker: runs `inspect` (parseTranscript + analyze) for the page. */
import { inspect } from './inspect.ts';
import type { WorkerRequest, WorkerResponse } from './protocol.ts';

self.onmessage = (ev: MessageEvent<WorkerRequest>) => {
  const { id, req } = ev.data;
  const response: WorkerResponse = { id, result: inspect(req) };
  self.postMessage(response);
};
