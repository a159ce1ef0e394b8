/**
 * Writing a Gemini `generateContent` body (export, repair, conversion): see `writeGemini`.
 * Reading is in gemini.ts.
 */
import type { Block, MediaBlock, Transcript } from '../../types.ts';
import { parseJsonBounded } from '../json.ts';
import { base64StandIn, isMedia, isObject, mediaTypeOf, withList } from '../util.ts';

/**
 * A media part for a block that holds no payload: a file URI when the source had one, else
 * inline data of the block's size, so the part reads back as the same kind and size.
 */
function mediaPart(b: MediaBlock): Record<string, unknown> {
  const mimeType = mediaTypeOf(b);
  if (b.source) return { fileData: { mimeType, fileUri: `https://example.invalid/${b.type}` } };
  return {
    inlineData: b.bytes === undefined ? { mimeType } : { mimeType, data: base64StandIn(b.bytes) },
  };
}

/** Render a normalised block as a Gemini part (inverse of `geminiPart`, best effort). */
function toPart(b: Block, callNames: Map<string, string>): unknown[] {
  switch (b.type) {
    case 'text':
      return [{ text: b.text }];
    case 'thinking':
      return [
        {
          text: b.thinking,
          thought: true,
          ...(b.signature ? { thoughtSignature: b.signature } : {}),
        },
      ];
    case 'redacted_thinking':
      return [];
    case 'image':
    case 'document':
      return [mediaPart(b)];
    case 'tool_use':
      return [
        {
          functionCall: {
            ...(b.id !== null ? { id: b.id } : {}),
            name: b.name,
            args: isObject(b.input) ? b.input : { input: b.input },
          },
          ...(b.signature ? { thoughtSignature: b.signature } : {}),
        },
      ];
    case 'tool_result': {
      const text = b.content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('\n');
      let response: unknown;
      try {
        response = parseJsonBounded(text);
      } catch {
        response = undefined;
      }
      if (!isObject(response)) response = b.isError ? { error: text } : { output: text };
      const name = b.name ?? (b.toolUseId !== null ? callNames.get(b.toolUseId) : undefined) ?? '';
      // Media a result holds go in its own `parts` (a multimodal function response).
      const parts = b.content.filter(isMedia).map(mediaPart);
      return [
        {
          functionResponse: {
            ...(b.toolUseId !== null ? { id: b.toolUseId } : {}),
            name,
            response,
            ...(parts.length > 0 ? { parts } : {}),
          },
        },
      ];
    }
    case 'other':
      return [b.raw];
  }
}

/**
 * Write a transcript as a Gemini `generateContent` body. Untouched contents (raw set, same
 * format) are written from `raw`; others are rendered from blocks. For a transcript from another
 * format, consecutive messages of the same Gemini role (tool results count as `user`) are merged
 * into one content, as converters do, and system text goes to `systemInstruction`.
 */
export function writeGemini(t: Transcript): string {
  const same = t.format === 'gemini';
  const callNames = new Map<string, string>();
  for (const m of t.messages)
    for (const b of m.blocks)
      if (b.type === 'tool_use' && b.id !== null) callNames.set(b.id, b.name);
  const contents: unknown[] = [];
  const sys: string[] = t.system.map((s) => s.text);
  let lastRendered: { role: string; parts: unknown[] } | null = null;
  for (const m of t.messages) {
    if (same && m.raw !== undefined) {
      contents.push(m.raw);
      lastRendered = null;
      continue;
    }
    if (!same && (m.role === 'system' || m.role === 'developer')) {
      sys.push(m.blocks.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n'));
      continue;
    }
    const parts = m.blocks.flatMap((b) => toPart(b, callNames));
    const role = m.role === 'assistant' ? 'model' : 'user';
    if (!same && lastRendered && lastRendered.role === role) {
      lastRendered.parts.push(...parts);
      continue;
    }
    const c: { role: string; parts: unknown[] } = { role, parts };
    contents.push(c);
    lastRendered = c;
  }
  if (!same) {
    const text = sys.filter((s) => s.length > 0);
    return JSON.stringify(
      {
        ...(text.length ? { systemInstruction: { parts: text.map((s) => ({ text: s })) } } : {}),
        contents,
      },
      null,
      2,
    );
  }
  if (isObject(t.raw) && Array.isArray(t.raw.candidates))
    return JSON.stringify({ contents }, null, 2);
  return JSON.stringify(withList(t.raw, 'contents', contents), null, 2);
}
