import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { textPending } from './lazyMessage.ts';
import { readSpans, withFileBytes } from './sourceReader.ts';
import { lazyMessage, lineSpans, reader } from './testing/lazyMessages.ts';

const enc = new TextEncoder();

/** The old path: the spans decoded from the page's copy of the bytes. */
function fromBytes(bytes: Uint8Array, spans: number[]): string[] {
  const d = new TextDecoder('utf-8', { fatal: true });
  const out: string[] = [];
  for (let s = 0; s < spans.length; s += 2)
    out.push(d.decode(bytes.subarray(spans[s], spans[s + 1])));
  return out;
}

describe('a message’s text read from the file (issue 38)', () => {
  it('a slice of the Blob gives the same text as the bytes, multi-byte characters at the slice edges', async () => {
    // Lines that start and end on 2-, 3- and 4-byte characters, so every span edge sits next to one.
    const text = ['"é→"', '"✓x🎉"', '"🎉"', '"ÿ"', '""', '"naïve — ok ☃"'].join('\n');
    const bytes = enc.encode(text);
    const spans = lineSpans(text);
    const got = await readSpans(new Blob([bytes]), spans, 0, spans.length);
    expect(got).toEqual(fromBytes(bytes, spans));
    expect(got.map((t) => JSON.parse(t) as unknown)).toEqual(
      text.split('\n').map((l) => JSON.parse(l) as unknown),
    );
  });

  it('any text: every line read from the Blob equals the line decoded from the bytes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.string({ unit: 'binary' }), { minLength: 1, maxLength: 8 }),
        async (parts) => {
          const text = parts.map((p) => JSON.stringify(p)).join('\n');
          const bytes = enc.encode(text);
          const spans = lineSpans(text);
          expect(await readSpans(new Blob([bytes]), spans, 0, spans.length)).toEqual(
            fromBytes(bytes, spans),
          );
        },
      ),
      { numRuns: 60 },
    );
  });

  it('a span cut inside a character, or past the end, is refused, never decoded with a replacement', async () => {
    const bytes = enc.encode('"🎉"');
    await expect(readSpans(new Blob([bytes]), [0, 3], 0, 2)).rejects.toThrow(TypeError);
    await expect(readSpans(new Blob([bytes]), [0, 99], 0, 2)).rejects.toThrow(
      /past the file's end/,
    );
  });

  it('a message reads "pending" until its text arrives, then the raw and blocks the bytes gave', async () => {
    const text = '{"a":"é"}\n{"b":"🎉"}\n{"c":1}';
    const spans = lineSpans(text);
    const { source, next } = reader(new Blob([text]));
    const one = lazyMessage(source, spans, 0, 2);
    const many = lazyMessage(source, spans, 2, 6);
    const arrived = next();
    expect(textPending(one)).toBe(true);
    expect(source.missed).toBeUndefined(); // a row asking is not a missed read
    expect(many.raw).toBeUndefined();
    expect(many.blocks).toEqual([]);
    expect(source.missed).toBe(true); // read through the accessors before the text came
    await arrived;
    expect(textPending(one)).toBe(false);
    expect(one.raw).toEqual({ a: 'é' });
    expect(many.raw).toEqual([{ b: '🎉' }, { c: 1 }]);
    expect(many.blocks).toEqual([{ type: 'text', text: '[{"b":"🎉"},{"c":1}]' }]);
  });

  it('spans far apart are read each alone, and a file gone gives the message an unreadable raw', async () => {
    const far = 9 * 1024 * 1024;
    const head = '{"x":1}';
    const bytes = new Uint8Array(far + 10).fill(32);
    bytes.set(enc.encode(head), 0);
    bytes.set(enc.encode('{"y":2}'), far);
    const { source, next } = reader(new Blob([bytes]));
    const a = lazyMessage(source, [0, head.length], 0, 2);
    const b = lazyMessage(source, [far, far + 7], 0, 2);
    const arrived = next();
    void a.raw;
    void b.raw;
    await arrived;
    expect([a.raw, b.raw]).toEqual([{ x: 1 }, { y: 2 }]);

    const gone = reader(new Blob(['{}']));
    const c = lazyMessage(gone.source, [0, 40], 0, 2);
    const done = gone.next();
    void c.raw;
    await done;
    expect(JSON.stringify(c.raw)).toMatch(
      /could not be read again from the source: .*past the file's end/,
    );
  });

  it('withFileBytes holds the whole file only while its function runs', async () => {
    const text = '{"a":1}\n{"b":2}';
    const spans = lineSpans(text);
    const { source } = reader(new Blob([text]));
    const m = lazyMessage(source, spans, 2, 4);
    const raw = await withFileBytes(source, () => {
      expect(source.bytes).not.toBeNull();
      return m.raw;
    });
    expect(raw).toEqual({ b: 2 });
    expect(source.bytes).toBeNull();
    // No reader (the bytes came with the answer, or the page's own text): runs at once.
    expect(await withFileBytes(undefined, () => 7)).toBe(7);
  });
});
