/**
 * What the Node replays of the inspect worker's load share (scripts/benchEvictionReplay.ts,
 * scripts/benchEvictionAB.ts): the request that loads a log file as the page sends it, and the
 * main thread's CPU clock.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { WorkerRequest } from '../src/engine/protocol.ts';

/**
 * The inspect worker's request for the log at `file` (its bytes given), as the page sends a
 * picked file: no format or provider chosen, no exact BPE count; `id` is also its file key.
 */
export function fileLoadRequest(
  file: string,
  bytes: Uint8Array<ArrayBuffer>,
  id: number,
): WorkerRequest {
  return {
    id,
    req: {
      text: '',
      name: path.basename(file),
      format: null,
      provider: null,
      file: new Blob([bytes]),
    },
    bpe: false,
    fileKey: id,
  };
}

/**
 * This thread's CPU time in ms (Linux /proc/thread-self/schedstat: the collector's helper threads
 * left out), else the process' (`process.cpuUsage`).
 */
export function threadCpuMs(): number {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6;
  } catch {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  }
}
