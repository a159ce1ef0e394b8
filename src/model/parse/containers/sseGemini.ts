/**
 * Rebuilding a Gemini stream (chunks with `candidates`) into the `GenerateContentResponse` it
 * streamed: consecutive text parts joined.
 */
import { isObject, type Json } from '../util.ts';
import type { RebuiltStream } from './sseRebuilt.ts';

/** One response per `responseId`. */
export function rebuildGemini(events: Json[]): RebuiltStream[] {
  const out: RebuiltStream[] = [];
  let parts: Json[] = [];
  let last: Json | null = null;
  let finish: unknown;
  let id: unknown;
  const close = () => {
    if (!last) return;
    const notes =
      finish === undefined
        ? ['No chunk carries a `finishReason`: the response may be cut off.']
        : [];
    out.push({
      family: 'gemini',
      value: {
        candidates: [
          {
            content: { role: 'model', parts },
            ...(finish !== undefined ? { finishReason: finish } : {}),
          },
        ],
        ...(last.usageMetadata !== undefined ? { usageMetadata: last.usageMetadata } : {}),
        ...(last.modelVersion !== undefined ? { modelVersion: last.modelVersion } : {}),
        ...(id !== undefined ? { responseId: id } : {}),
      },
      notes,
    });
    parts = [];
    last = null;
    finish = undefined;
  };
  for (const d of events) {
    if (last && d.responseId !== undefined && id !== undefined && d.responseId !== id) close();
    id = d.responseId ?? id;
    last = { ...(last ?? {}), ...d };
    const cand = Array.isArray(d.candidates) && isObject(d.candidates[0]) ? d.candidates[0] : null;
    if (!cand) continue;
    if (cand.finishReason !== undefined) finish = cand.finishReason;
    const content = isObject(cand.content) ? cand.content : {};
    for (const p of Array.isArray(content.parts) ? content.parts : []) {
      if (!isObject(p)) continue;
      const prev = parts[parts.length - 1];
      const textOnly = (x: Json) =>
        typeof x.text === 'string' && Object.keys(x).every((k) => k === 'text' || k === 'thought');
      // Text arrives in pieces: join consecutive text parts of the same kind (thought or not).
      if (prev && textOnly(prev) && typeof p.text === 'string' && !!prev.thought === !!p.thought) {
        prev.text = (prev.text as string) + p.text;
        if (p.thoughtSignature !== undefined) prev.thoughtSignature = p.thoughtSignature;
      } else parts.push({ ...p });
    }
  }
  close();
  return out;
}
