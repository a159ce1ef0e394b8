/**
 * The client that runs on the calling thread: the fallback when workers are unavailable (tests,
 * old browsers, a worker that failed to start or died).
 */
import type { InspectClient, InspectListener } from './clientApi.ts';
import { InspectStages, safeParseDoc } from './inspect.ts';
import type { InspectRequest, Inspection } from './protocol.ts';
import { readBlobSource } from './stream.ts';

/** Inspect a file on the calling thread (the fallback for `req.file`). */
async function inspectFileSync(
  stages: InspectStages,
  req: InspectRequest,
  listener?: InspectListener,
): Promise<Inspection> {
  const file = req.file as Blob;
  const src = await readBlobSource(file, req.name, (bytes, records) =>
    listener?.progress?.({
      phase: 'read',
      bytes,
      totalBytes: file.size,
      messages: records,
      totalMessages: null,
    }),
  );
  if (!src.ok) return { ok: false, error: src.error };
  const p = safeParseDoc(src.value.doc, req.name, req.format, req.requestIndex, req.model);
  if (!p.ok) return p;
  return stages.safeInspect(p.value, req.provider, req.faults);
}

/** A client that runs on the calling thread (tests, fallback). */
export function createSyncClient(): InspectClient {
  // This client's stages and their memos (owned by whoever holds the client: the session).
  const stages = new InspectStages();
  return {
    inspect: (req, listener) =>
      req.file ? inspectFileSync(stages, req, listener) : Promise.resolve(stages.inspect(req)),
    cancel: () => {},
    recount: () => {},
    dispose: () => {},
  };
}
