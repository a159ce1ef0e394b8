/// <reference lib="webworker" />
/**
 * Module worker: the request strip's summaries and the character diffs of the diff view
 * (diffProtocol.ts), off the page's thread (diffClient.ts).
 */
import { answerDiffJob, type DiffJobMessage, type DiffWorkerAnswer } from './diffProtocol.ts';

self.onmessage = (ev: MessageEvent<DiffJobMessage>) => {
  const { id } = ev.data;
  let answer: DiffWorkerAnswer;
  try {
    answer = { id, ok: true, value: answerDiffJob(ev.data) };
  } catch (e) {
    answer = { id, ok: false, error: e instanceof Error ? e.message : String(e) };
  }
  self.postMessage(answer);
};
