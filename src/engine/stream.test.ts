import { mkdtempSync, openAsBlob, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { generate } from '../../scripts/gen.ts';
import { readSource } from '../model/parse/index.ts';
import { gzipSync } from 'fflate';
import fc from 'fast-check';
import { NewlineIndex, PREVIEW_RECORDS, readBlobSource } from './stream.ts';

/**
 * A Blob whose byte stream fills each BYOB read with fewer bytes than asked, by turns `cuts`
 * (a picked file in Chromium gave 64-576 KiB per read of a 4 MiB view): a piece ends anywhere.
 */
class ChoppyBlob extends Blob {
  private readonly data: Uint8Array;
  private readonly cuts: number[];
  constructor(text: string, cuts: number[]) {
    super([text]);
    this.data = new TextEncoder().encode(text);
    this.cuts = cuts;
  }
  override stream(): ReadableStream<Uint8Array<ArrayBuffer>> {
    const { data: bytes, cuts } = this;
    let at = 0;
    let k = 0;
    return new ReadableStream({
      type: 'bytes',
      pull(c) {
        const req = c.byobRequest;
        if (at >= bytes.length) {
          c.close();
          req?.respond(0);
          return;
        }
        const room = req?.view ? req.view.byteLength : Infinity;
        const n = Math.min(cuts[k++ % cuts.length] as number, bytes.length - at, room);
        const part = bytes.subarray(at, at + n);
        at += n;
        if (req?.view) {
          new Uint8Array(req.view.buffer, req.view.byteOffset, n).set(part);
          req.respond(n);
        } else c.enqueue(part.slice());
      },
    }) as ReadableStream<Uint8Array<ArrayBuffer>>;
  }
}

describe('readBlobSource', () => {
  it('streams a JSONL log across chunk boundaries into the same document as the text path', async () => {
    // Non-ASCII too: line spans are in bytes, not characters.
    const text = generate({ format: 'claude-code-jsonl', messages: 1500, seed: 5 }).replace(
      /"text":"/g,
      '"text":"ünïcode → ',
    );
    const chunk = 1 << 18;
    expect(text.length).toBeGreaterThan(4 * chunk); // several chunks, lines cut between them
    const reads: number[] = [];
    let previewRecords = 0;
    const r = await readBlobSource(
      new Blob([text]),
      'log.jsonl',
      (bytes) => reads.push(bytes),
      (doc) => {
        previewRecords = doc.kind === 'jsonl' ? doc.lines.length : 0;
      },
      chunk,
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const want = readSource(text, 'log.jsonl');
    expect(r.value.doc).toEqual(want.ok && want.value);
    // No copy of the bytes is kept (issue 38); each line's span in the file's bytes (what the
    // page reads a raw from, in the file itself).
    expect(r.value.bytes).toBeNull();
    const file = new TextEncoder().encode(text);
    const lines = text.split('\n');
    const span = r.value.lineSpan;
    for (const n of [1, 2, 500, lines.length]) {
      const [a, b] = span ? span(n) : [0, 0];
      expect(new TextDecoder().decode(file.subarray(a, b))).toBe(lines[n - 1]);
    }
    expect(reads.length).toBeGreaterThan(1);
    expect(reads.at(-1)).toBe(new Blob([text]).size);
    expect(previewRecords).toBeGreaterThan(0);
    expect(previewRecords).toBeLessThanOrEqual(PREVIEW_RECORDS + 200);
  });

  it('yields once per chunk of bytes handled, not once per piece of the stream (issue 38)', async () => {
    // A Blob's byte stream gives pieces of 64 KiB here, far smaller than a chunk: a yield after
    // each piece was a task (and a MessageChannel) per 64 KiB — 1,760 for the 115 MB log.
    const text = generate({ format: 'claude-code-jsonl', messages: 4000, seed: 3 });
    const chunk = 1 << 20;
    // A file's Blob, as the worker gets it (an in-memory Blob fills each read whole).
    const dir = mkdtempSync(path.join(os.tmpdir(), 'stream-'));
    writeFileSync(path.join(dir, 'log.jsonl'), text);
    const file = await openAsBlob(path.join(dir, 'log.jsonl'));
    const size = file.size;
    expect(size).toBeGreaterThan(2 * chunk);
    let yields = 0;
    const Channel = globalThis.MessageChannel;
    vi.stubGlobal(
      'MessageChannel',
      class extends Channel {
        constructor() {
          super();
          yields++;
        }
      },
    );
    try {
      const r = await readBlobSource(file, 'log.jsonl', undefined, undefined, chunk);
      expect(r.ok).toBe(true);
      const want = readSource(text, 'log.jsonl');
      expect(r.ok && r.value.doc).toEqual(want.ok && want.value);
    } finally {
      vi.unstubAllGlobals();
      rmSync(dir, { recursive: true, force: true });
    }
    expect(yields).toBeGreaterThan(0);
    expect(yields).toBeLessThanOrEqual(Math.ceil(size / chunk) + 1);
  });

  it('finds every newline byte, from the text of ASCII pieces and the bytes of others (issue 38)', () => {
    const segment = fc.constantFrom('a', '\n', 'é', '€', '😀', '😀\né', 'x'.repeat(40));
    fc.assert(
      fc.property(
        fc.array(segment, { maxLength: 200 }),
        fc.array(fc.oneof(fc.nat(6), fc.nat(60))),
        (segs, cuts) => {
          const bytes = new TextEncoder().encode(segs.join(''));
          const want: number[] = [];
          bytes.forEach((b, k) => b === 10 && want.push(k));
          const got: number[] = [];
          const index = new NewlineIndex(got);
          const decoder = new TextDecoder('utf-8', { fatal: true });
          let at = 0;
          for (const cut of [...cuts, bytes.length]) {
            const end = Math.min(bytes.length, at + cut);
            const piece = bytes.subarray(at, end);
            index.ofPiece(piece, decoder.decode(piece, { stream: true }), at);
            at = end;
          }
          expect(got).toEqual(want);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('reads any JSON Lines text as the text path does, for any window and stream pieces (issue 38)', async () => {
    // Lines cut anywhere by the window and by the stream's own pieces (a BYOB read filled with
    // fewer bytes than asked, as Chromium's are): the document, the broken lines and every
    // line's span stay the text path's.
    const line = fc.oneof(
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc.jsonValue().map((v) => ` ${JSON.stringify(v, null, 0)}\r`),
      fc.record({ t: fc.string({ unit: 'binary' }) }).map((v) => JSON.stringify(v)),
      fc.constantFrom('', '  ', '{broken', '"é😀"', '[1,', '{"a":"ü"}', '\u00e9'),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { minLength: 1, maxLength: 30 }),
        fc.boolean(),
        fc.integer({ min: 1, max: 300 }),
        fc.option(fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1, maxLength: 5 })),
        async (lines, trailing, window, cuts) => {
          const text = lines.join('\n') + (trailing ? '\n' : '');
          const got = await readBlobSource(
            cuts ? new ChoppyBlob(text, cuts) : new Blob([text]),
            'x.jsonl',
            undefined,
            undefined,
            window,
          );
          const want = readSource(text, 'x.jsonl');
          expect(got.ok).toBe(want.ok);
          if (!got.ok || !want.ok) {
            expect(!got.ok && got.error.kind).toBe(!want.ok && want.error.kind);
            return;
          }
          expect(got.value.doc).toEqual(want.value);
          const span = got.value.lineSpan;
          if (!span) return;
          const bytes = new TextEncoder().encode(text);
          text.split('\n').forEach((l, k) => {
            const [a, b] = span(k + 1);
            expect(new TextDecoder().decode(bytes.subarray(a, b))).toBe(l);
          });
        },
      ),
      { numRuns: 400 },
    );
  });

  it('spans every line of a log whose multi-byte characters straddle decoded pieces', async () => {
    // Lines of ASCII with a 4-byte character now and then: pieces of 64 KiB cut through some.
    const lines = Array.from({ length: 3000 }, (_, k) =>
      JSON.stringify({
        type: 'user',
        k,
        text: k % 7 === 0 ? `${'é😀'.repeat(k % 5)}` : 'a'.repeat(k % 90),
      }),
    );
    const text = lines.join('\n');
    const r = await readBlobSource(new Blob([text]), 'log.jsonl', undefined, undefined, 1 << 17);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const span = r.value.lineSpan;
    const bytes = new TextEncoder().encode(text);
    lines.forEach((line, k) => {
      const [a, b] = span ? span(k + 1) : [0, 0];
      expect(new TextDecoder().decode(bytes.subarray(a, b))).toBe(line);
    });
  });

  it('reads a line far longer than a decoded piece (its text carried over many pieces)', async () => {
    const long = 'ä→'.repeat(150_000); // 300,000 characters, 750,000 bytes
    const values = [{ a: 1 }, { long }, { b: 2 }, { long: long + 'x' }];
    const text = values.map((v) => JSON.stringify(v)).join('\n');
    const r = await readBlobSource(
      new Blob([text]),
      'x.jsonl',
      () => {},
      () => {},
      1 << 17,
    );
    expect(r.ok && r.value.doc).toEqual({
      kind: 'jsonl',
      lines: values.map((value, i) => ({ line: i + 1, value })),
      brokenLines: [],
    });
  });

  it('slims the records after the preview when the preview asks, and says so', async () => {
    const text = generate({ format: 'claude-code-jsonl', messages: 600, seed: 2 });
    const chunk = 1 << 16;
    const values = text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as unknown);
    const mark = (v: unknown) => ({ slim: v });
    let asked = 0;
    const r = await readBlobSource(
      new Blob([text]),
      'log.jsonl',
      () => {},
      () => {
        asked++;
        return mark;
      },
      chunk,
    );
    if (!r.ok || r.value.doc.kind !== 'jsonl') throw new Error('not read as JSON Lines');
    expect(asked).toBe(1);
    expect(r.value.slimmed).toBe(mark);
    const got = r.value.doc.lines.map((l) => l.value);
    expect(got).toHaveLength(values.length);
    // Those of the first piece past the preview too, not only those parsed after it.
    expect(values.length).toBeGreaterThan(PREVIEW_RECORDS * 3);
    expect(got.slice(0, PREVIEW_RECORDS)).toEqual(values.slice(0, PREVIEW_RECORDS));
    expect(got.slice(PREVIEW_RECORDS)).toEqual(values.slice(PREVIEW_RECORDS).map(mark));
    // A preview that answers nothing keeps every record whole.
    const whole = await readBlobSource(
      new Blob([text]),
      'log.jsonl',
      () => {},
      () => {},
      chunk,
    );
    expect(whole.ok && whole.value.slimmed).toBe(null);
    expect(
      whole.ok && whole.value.doc.kind === 'jsonl' && whole.value.doc.lines.map((l) => l.value),
    ).toEqual(values);
  });

  it('detects JSONL without a name hint and keeps broken lines as numbers', async () => {
    const text = '{"a":1}\n{"b":2}\n{broken\n{"c":3}\n';
    const r = await readBlobSource(new Blob([text]), '');
    expect(r.ok && r.value.doc).toEqual({
      kind: 'jsonl',
      lines: [
        { line: 1, value: { a: 1 } },
        { line: 2, value: { b: 2 } },
        { line: 4, value: { c: 3 } },
      ],
      brokenLines: [3],
    });
  });

  it('reads a JSON body whole, with a location for bad JSON', async () => {
    const ok = await readBlobSource(new Blob(['{"messages": []}']), 'x.json');
    expect(ok.ok && ok.value.doc).toEqual({ kind: 'json', value: { messages: [] } });
    const bad = await readBlobSource(new Blob(['{"messages": [}']), 'x.json');
    expect(!bad.ok && bad.error.kind).toBe('json');
    expect(!bad.ok && bad.error.location?.line).toBe(1);
  });

  it('inflates gzip and refuses binary and non-UTF-8 bytes as ParseErrors', async () => {
    const gz = await readBlobSource(
      new Blob([gzipSync(new TextEncoder().encode('{"messages": []}')) as Uint8Array<ArrayBuffer>]),
      'x.json.gz',
    );
    expect(gz.ok && gz.value.text).toBe('{"messages": []}');
    const nul = await readBlobSource(new Blob([new Uint8Array([0x7b, 0, 0x7d])]), 'x.json');
    expect(!nul.ok && nul.error.kind).toBe('binary');
    const latin1 = await readBlobSource(new Blob([new Uint8Array([0x7b, 0xe9, 0x7d])]), 'x.json');
    expect(!latin1.ok && latin1.error.kind).toBe('binary');
  });

  it('reads through a default (non-byte) stream the same, and refuses a file that ends early', async () => {
    const text = generate({ format: 'claude-code-jsonl', messages: 300, seed: 9 });
    // A Blob whose stream has no BYOB reader (as some engines give): pieces are copied.
    class PlainBlob extends Blob {
      private readonly cut: number;
      constructor(parts: BlobPart[], cut = Infinity) {
        super(parts);
        this.cut = cut;
      }
      override stream(): ReadableStream<Uint8Array<ArrayBuffer>> {
        const r = super.stream().getReader();
        let sent = 0;
        const cut = this.cut;
        return new ReadableStream({
          async pull(c) {
            const { done, value } = await r.read();
            if (done || sent >= cut) return c.close();
            const piece = value.subarray(0, cut - sent);
            sent += piece.length;
            c.enqueue(piece);
          },
        });
      }
    }
    const plain = await readBlobSource(
      new PlainBlob([text]),
      'log.jsonl',
      undefined,
      undefined,
      1 << 12,
    );
    const want = await readBlobSource(new Blob([text]), 'log.jsonl');
    expect(plain.ok && want.ok).toBe(true);
    if (!plain.ok || !want.ok) return;
    expect(plain.value.doc).toEqual(want.value.doc);
    const spans = (v: typeof plain.value) =>
      Array.from({ length: 50 }, (_, k) => v.lineSpan?.(k + 1) ?? null);
    expect(spans(plain.value)).toEqual(spans(want.value));
    const short = await readBlobSource(new PlainBlob([text], 1000), 'log.jsonl');
    expect(!short.ok && short.error).toMatchObject({ kind: 'binary' });
    expect(!short.ok && short.error.message).toMatch(/ended after 1000 of \d+ bytes/);
  });
});
