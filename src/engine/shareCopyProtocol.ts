/**
 * Messages between the page and the share-copy worker (shareCopy.worker.ts), and the counters it
 * can rebuild from their encoding name.
 */
import { checkedStructureCopy, type CheckedCopy } from '../model/redact/shareCopy.ts';
import { CHARS_PER_4, loadBpeCounter, type TextCounter } from '../model/tokens.ts';
import type { Message, Transcript } from '../model/types.ts';

export interface ShareCopyRequest {
  id: number;
  /** The transcript on screen, structured-cloned (its lazy values read on the page). */
  transcript: Transcript;
  /** `TextCounter.encoding` of the page's counter; one of REBUILDABLE. */
  encoding: string;
  toolNames: 'keep' | 'hide';
  /** The chosen session call's reply (`ParsedTranscript.callReply`), copied after the transcript. */
  reply?: Message;
}

export type ShareCopyAnswer =
  | { id: number; ok: true; copy: CheckedCopy }
  | { id: number; ok: false; error: string };

/** Counter encodings a worker can rebuild: the same counts as the page's counter. */
export const REBUILDABLE: readonly string[] = ['chars/4', 'o200k_base', 'cl100k_base'];

/**
 * The counter named `encoding`, as the page builds it (model/tokens.ts).
 * @throws for an encoding not in REBUILDABLE, or a BPE module that cannot be loaded
 */
export async function counterFor(encoding: string): Promise<TextCounter> {
  if (encoding === 'chars/4') return CHARS_PER_4;
  if (encoding === 'o200k_base' || encoding === 'cl100k_base') return loadBpeCounter(encoding);
  throw new Error(`no counter named ${encoding}`);
}

/** The worker's answer to `req`: the checked copy, or why it could not be built. Never throws. */
export async function answerShareCopy(req: ShareCopyRequest): Promise<ShareCopyAnswer> {
  const { id, transcript, encoding, toolNames, reply } = req;
  try {
    const counter = await counterFor(encoding);
    return { id, ok: true, copy: checkedStructureCopy(transcript, counter, toolNames, reply) };
  } catch (e) {
    return { id, ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}
