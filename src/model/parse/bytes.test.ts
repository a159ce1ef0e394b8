import { gzipSync, strToU8 } from 'fflate';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_INFLATE_RATIO, MAX_UNPACKED_BYTES, RATIO_FLOOR_BYTES } from '../limits.ts';
import { decodeBytes, gunzipLimited, isGzip, notGzip } from './bytes.ts';

describe('decodeBytes', () => {
  it('decodes UTF-8 and drops a BOM', () => {
    expect(decodeBytes(strToU8('{"a":"é→😀"}'))).toEqual({ ok: true, value: '{"a":"é→😀"}' });
    expect(decodeBytes(new Uint8Array([0xef, 0xbb, 0xbf, 0x5b, 0x5d]))).toEqual({
      ok: true,
      value: '[]',
    });
  });

  it('gunzips .gz input (magic 1f 8b)', () => {
    const gz = gzipSync(strToU8('{"type":"user"}\n{"type":"assistant"}\n'));
    expect(isGzip(gz)).toBe(true);
    expect(decodeBytes(gz)).toEqual({ ok: true, value: '{"type":"user"}\n{"type":"assistant"}\n' });
  });

  it('rejects a truncated gzip stream with a clear message', () => {
    const gz = gzipSync(strToU8('x'.repeat(1000)));
    const r = decodeBytes(gz.slice(0, 12));
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error.kind).toBe('binary');
    expect(!r.ok && r.error.message).toBe(
      'This .gz file is cut off (a truncated copy) or damaged: it does not decompress to its end, and its text stops at line 1. Copy or download the file again.',
    );
  });

  it('a gzip stream cut inside its last member is said to be cut off, wherever the cut falls', () => {
    // Four log lines; some cuts inflate without an error to a part of the text (fflate stops at
    // the last whole block): every one must be refused, none read as a shorter log.
    const text = Array.from(
      { length: 4 },
      (_, i) => `{"type":"user","uuid":"u${i}","message":{"role":"user","content":"line ${i}"}}`,
    ).join('\n');
    const gz = gzipSync(strToU8(text));
    for (let cut = 1; cut < gz.length - 10; cut++) {
      const r = decodeBytes(gz.subarray(0, gz.length - cut));
      expect(r.ok, `cut ${cut}`).toBe(false);
      expect(!r.ok && r.error.unreadable).toBe('gzip');
      expect(!r.ok && r.error.message).toMatch(/cut off|Is it truncated\?/);
    }
    // Two members, the second cut: refused too; both whole: read.
    const two = new Uint8Array([...gz, ...gzipSync(strToU8('\n{"type":"user"}'))]);
    expect(decodeBytes(two.subarray(0, two.length - 3)).ok).toBe(false);
    expect(decodeBytes(two)).toEqual({ ok: true, value: `${text}\n{"type":"user"}` });
  });

  it('decodes UTF-16 with its byte order mark (as PowerShell writes it), both byte orders', () => {
    const text = '{"messages":[{"role":"user","content":"héllo 😀"}]}';
    // UTF-16 code units (an emoji is two), the byte order mark first.
    const units = [0xfeff, ...Array.from({ length: text.length }, (_, i) => text.charCodeAt(i))];
    const bytes = (bigEndian: boolean) =>
      new Uint8Array(units.flatMap((u) => (bigEndian ? [u >> 8, u & 0xff] : [u & 0xff, u >> 8])));
    expect(decodeBytes(bytes(false))).toEqual({ ok: true, value: text });
    expect(decodeBytes(bytes(true))).toEqual({ ok: true, value: text });
    // A lone surrogate is not UTF-16: refused as an encoding, not as a NUL byte.
    const bad = decodeBytes(new Uint8Array([0xff, 0xfe, 0x00, 0xd8, 0x41, 0x00]));
    expect(!bad.ok && bad.error.unreadable).toBe('encoding');
    expect(!bad.ok && bad.error.message).toContain('UTF-16LE');
  });

  it('rejects NUL bytes and invalid UTF-8, saying where', () => {
    const nul = decodeBytes(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x00]));
    expect(nul).toEqual({
      ok: false,
      error: {
        kind: 'binary',
        message:
          'This is not a text file: it contains a NUL byte at byte 4. Drop a .json, .jsonl or .gz transcript.',
      },
    });
    const bad = decodeBytes(new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x7d]));
    expect(bad).toEqual({
      ok: false,
      error: {
        kind: 'binary',
        unreadable: 'encoding',
        message:
          'This is not UTF-8 text: the bytes at line 1, column 3 (offset 2) are not valid UTF-8. Save the transcript as UTF-8 and try again.',
      },
    });
    // On a later line, after a character of two bytes: the column counts characters.
    const later = decodeBytes(new Uint8Array([...strToU8('{\n"é'), 0xff, 0x22]));
    expect(!later.ok && later.error.message).toContain('line 2, column 3 (offset 5)');
    const overlong = decodeBytes(new Uint8Array([0x41, 0xc0, 0x80]));
    expect(!overlong.ok && overlong.error.message).toContain('offset 1');
  });

  it('property: any string without NUL survives encode → (gzip) → decode; never throws on random bytes', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.boolean(), (s, gz) => {
        const clean = s.replaceAll('\u0000', '').replace(/^\uFEFF/, '');
        const bytes = strToU8(clean);
        expect(decodeBytes(gz ? gzipSync(bytes) : bytes)).toEqual({ ok: true, value: clean });
      }),
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (b) => {
        const r = decodeBytes(b);
        expect(typeof r.ok).toBe('boolean');
      }),
    );
  });

  it('refuses a .gz bomb while inflating, by its ratio, saying both sizes and the limit', () => {
    // Members of 1 MiB of spaces each (`cat`-ed .gz files), cheap to build: 4 × the floor.
    const member = gzipSync(new Uint8Array(1 << 20).fill(32), { level: 9 });
    const members = (RATIO_FLOOR_BYTES * 4) >> 20;
    const bomb = new Uint8Array(member.length * members);
    for (let i = 0; i < members; i++) bomb.set(member, i * member.length);
    expect((members << 20) / bomb.length).toBeGreaterThan(MAX_INFLATE_RATIO);
    const r = decodeBytes(bomb);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.kind).toBe('limit');
    expect(r.error.message).toContain('decompression bomb');
    expect(r.error.message).toContain(`the whole file is ${(bomb.length / 1e3).toFixed(1)} kB`);
    expect(r.error.message).toContain(`${(MAX_UNPACKED_BYTES / 1e6).toFixed(0)} MB`);
  }, 30_000);

  it('refuses text over the limit while inflating or from its length (both sizes, the limit)', () => {
    const text = strToU8(
      JSON.stringify({ messages: [{ role: 'user', content: 'x'.repeat(5000) }] }),
    );
    const gz = gzipSync(text);
    const r = decodeBytes(gz, 4096);
    expect(!r.ok && r.error.kind).toBe('limit');
    expect(!r.ok && r.error.message).toMatch(
      /^This \.gz file is \d+ bytes but unpacks to more than [\d.]+ kB; the limit is 4\.1 kB of text\./,
    );
    const plain = decodeBytes(text, 4096);
    expect(!plain.ok && plain.error.message).toMatch(/^This text is 5\.0 kB; the limit is 4\.1 kB/);
    expect(decodeBytes(gz, text.length)).toEqual({
      ok: true,
      value: new TextDecoder().decode(text),
    });
  });

  it('inflates every member of a multi-member .gz (cat a.gz b.gz)', () => {
    const a = gzipSync(strToU8('{"a":'));
    const b = gzipSync(strToU8('1}'));
    const both = new Uint8Array([...a, ...b]);
    expect(decodeBytes(both)).toEqual({ ok: true, value: '{"a":1}' });
    const cut = gunzipLimited(both.slice(0, a.length + 12));
    expect(!cut.ok && cut.error.kind).toBe('binary');
  });
});

describe('a file named .gz that is not gzip data', () => {
  const zip = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00, 0x08, 0x00]);

  it('notGzip: only for a .gz name over bytes without the gzip magic', () => {
    expect(notGzip('s.jsonl', strToU8('hello'))).toBeNull();
    expect(notGzip('s.jsonl.gz', gzipSync(strToU8('hello')))).toBeNull();
    const text = notGzip('s.jsonl.GZ', strToU8('<!DOCTYPE html>'));
    expect(text).toEqual({
      note: 'named .gz but is not gzip data (gzip starts with the bytes 1f 8b; this one starts with 3c 21 44 4f “<!DO”)',
      refusal: null,
    });
    expect(notGzip('a.gz', zip)?.refusal).toBe(
      'This file is named .gz but is not gzip data (gzip starts with the bytes 1f 8b; this one starts with 50 4b 03 04: a zip archive). Unpack it with a tool for a zip archive and open the transcript inside.',
    );
    expect(notGzip('a.gz', strToU8('BZh91AY&SY'))?.refusal).toMatch(/: bzip2 data\)/);
  });

  it('decodeBytes: plain text is read as text; another archive or binary is said to be misnamed', () => {
    const body = '{"messages":[]}';
    expect(decodeBytes(strToU8(body), undefined, 'req.json.gz')).toEqual({ ok: true, value: body });
    const z = decodeBytes(zip, undefined, 'req.json.gz');
    expect(!z.ok && z.error).toEqual({ kind: 'binary', message: notGzip('x.gz', zip)?.refusal });
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00]);
    const b = decodeBytes(png, undefined, 'req.json.gz');
    expect(!b.ok && b.error.kind).toBe('binary');
    expect(!b.ok && b.error.message).toMatch(
      /^This file is named \.gz but is not gzip data \(gzip starts with the bytes 1f 8b; this one starts with 89 50 4e 47\)\. This is not a text file/,
    );
    // Without a name (a paste, the CLI's stdin) nothing changes.
    const plain = decodeBytes(png);
    expect(!plain.ok && plain.error.message).toMatch(/^This is not a text file/);
  });
});
