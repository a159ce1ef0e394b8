/**
 * Test support: messages whose texts are read from a file (sourceReader.ts, lazyMessage.ts), as
 * the page holds a streamed log's messages (issue 38).
 */
import type { Message } from '../../model/types.ts';
import { attachLazy, type Lazy, type SourceBytes } from '../lazyMessage.ts';
import { SpanReader } from '../sourceReader.ts';

const enc = new TextEncoder();

/** Lines of `text` as byte spans [start, end) without their newline. */
export function lineSpans(text: string): number[] {
  const bytes = enc.encode(text);
  const spans: number[] = [];
  let at = 0;
  for (let i = 0; i <= bytes.length; i++)
    if (i === bytes.length || bytes[i] === 10) {
      spans.push(at, i);
      at = i + 1;
    }
  return spans;
}

/** A message whose raw is its spans [a, z) of `spans` (JSON lines), read through `source`. */
export function lazyMessage(source: SourceBytes, spans: number[], a: number, z: number): Message {
  const m = { index: 0, rawIndex: 0, path: 'x', role: 'user', blocks: [] } as unknown as Message;
  const lazy: Lazy = {
    json: null,
    spans: Float64Array.from(spans),
    a,
    z,
    many: z - a > 2,
    source,
    blocksOf: (raw) => [{ type: 'text', text: JSON.stringify(raw) }],
  };
  attachLazy(m, lazy, true);
  return m;
}

/** A SpanReader over `blob` and a promise of its next batch. */
export function reader(blob: Blob): { source: SourceBytes; next: () => Promise<void> } {
  let arrived = () => {};
  const source: SourceBytes = { bytes: null, reader: new SpanReader(blob, () => arrived()) };
  return { source, next: () => new Promise<void>((resolve) => (arrived = resolve)) };
}
