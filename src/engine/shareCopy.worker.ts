/// <reference lib="webworker" />
/**
 * Module worker: builds and checks the structure-only copy of a transcript the page posts
 * (`checkedStructureCopy`), so a share panel opened on a large paste never blocks the page's
 * thread (shareCopyClient.ts).
 */
import { answerShareCopy, type ShareCopyRequest } from './shareCopyProtocol.ts';

self.onmessage = async (ev: MessageEvent<ShareCopyRequest>) => {
  self.postMessage(await answerShareCopy(ev.data));
};
