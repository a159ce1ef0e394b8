/// <reference types="vite/client" />
/**
 * The structure-only copy built off the page's thread: redacting, writing, reading back and
 * comparing a transcript of a few MB takes 0.5–1.2 s, a frozen page when the share panel opens.
 * The transcript is structured-cloned to a worker (shareCopy.worker.ts) that runs the same
 * `checkedStructureCopy`; where no worker can take it (no Worker, a counter the worker cannot
 * rebuild, a value that does not clone, a worker that fails) the page runs it itself.
 */
import { checkedStructureCopy, type CheckedCopy } from '../model/redact/shareCopy.ts';
import type { TextCounter } from '../model/tokens.ts';
import type { Message, Transcript } from '../model/types.ts';
import { REBUILDABLE, type ShareCopyAnswer } from './shareCopyProtocol.ts';
import { jobWorker } from './jobWorker.ts';
import workerUrl from './shareCopy.worker.ts?worker&url';

const shareCopy = jobWorker<ShareCopyAnswer>(workerUrl, 'share-copy');

/**
 * `checkedStructureCopy(t, counter, toolNames, reply)`, off the page's thread where it can be.
 * @param reply the chosen session call's reply (`ParsedTranscript.callReply`), or undefined
 * @returns the same copy, text and problems as on the page (a worker's error falls back to it)
 */
export async function structureCopyOffThread(
  t: Transcript,
  counter: TextCounter,
  toolNames: 'keep' | 'hide',
  reply?: Message,
): Promise<CheckedCopy> {
  const onPage = () => checkedStructureCopy(t, counter, toolNames, reply);
  // A counter the worker cannot rebuild, no worker, a value that does not clone: the page builds it.
  const answer = REBUILDABLE.includes(counter.encoding)
    ? shareCopy.post({
        transcript: t,
        encoding: counter.encoding,
        toolNames,
        ...(reply ? { reply } : {}),
      })
    : null;
  if (!answer) return onPage();
  const a = await answer;
  return a.ok ? a.copy : onPage();
}
