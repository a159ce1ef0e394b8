/**
 * The client that runs on the calling thread: the fallback when workers are unavailable (tests,
 * old browsers, a worker that failed to start or died).
 */
import { analyze } from '../model/analyze.ts';
import { parseDocument } from '../model/parse/index.ts';
import type { InspectClient, InspectListener } from './clientApi.ts';
import { inspect } from './inspect.ts';
import type { InspectRequest, Inspection } from './protocol.ts';
import { readBlobSource } from './stream.ts';

/** Inspect a file on the calling thread (the fallback for `req.file`). */
async function inspectFileSync(
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
  try {
    const p = parseDocument(src.value.doc, {
      ...(req.format ? { format: req.format } : {}),
      ...(req.name ? { name: req.name } : {}),
      ...(req.requestIndex !== undefined ? { requestIndex: req.requestIndex } : {}),
    });
    if (!p.ok) return p;
    return {
      ok: true,
      parsed: p.value,
      analysis: analyze(p.value.transcript, req.provider ?? undefined),
    };
  } catch (e) {
    return {
      ok: false,
      error: {
        kind: 'shape',
        message: `Analysis failed on this input: ${e instanceof Error ? e.message : String(e)}`,
      },
    };
  }
}

/** A client that runs on the calling thread (tests, fallback). */
export function createSyncClient(): InspectClient {
  return {
    inspect: (req, listener) =>
      req.file ? inspectFileSync(req, listener) : Promise.resolve(inspect(req)),
    cancel: () => {},
    recount: () => {},
    dispose: () => {},
  };
}
