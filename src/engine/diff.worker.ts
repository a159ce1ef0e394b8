/// <reference lib="webworker" />
/**
 * Module worker: the request strip's summaries and the character diffs of the diff view
 * (diffProtocol.ts), off the page's thread (diffClient.ts). A streamed file (the page keeps no
 * text of it) comes as its Blob, whose bytes are read here.
 */
import { loadBpeCounter, type TextCounter } from '../model/tokens.ts';
import {
  answerDiffJob,
  ListingMemo,
  readJobFile,
  wantsBpe,
  type DiffJobMessage,
  type DiffWorkerAnswer,
} from './diffProtocol.ts';

/** The BPE, loaded on the first job that asks for exact tokens (as the CLI counts). */
// eslint-disable-next-line cache/no-module-cache -- the diff worker's tokenizer, loaded once (its own realm: one per worker)
let bpe: Promise<TextCounter | undefined> | null = null;

/** The last file listed: a diff after the strip's summaries reuses it. */
// eslint-disable-next-line cache/no-module-cache -- the diff worker's memory of the last file listed (its own realm: this file runs only as the worker)
const listings = new ListingMemo();

self.onmessage = async (ev: MessageEvent<DiffJobMessage>) => {
  const { id } = ev.data;
  let answer: DiffWorkerAnswer;
  try {
    const counter = wantsBpe(ev.data)
      ? await (bpe ??= loadBpeCounter().catch(() => undefined))
      : undefined;
    // A streamed file's job names it by its Blob: its bytes are read here (once per file).
    await readJobFile(ev.data, listings);
    answer = { id, ok: true, value: answerDiffJob(ev.data, counter, listings) };
  } catch (e) {
    answer = { id, ok: false, error: e instanceof Error ? e.message : String(e) };
  }
  self.postMessage(answer);
};
