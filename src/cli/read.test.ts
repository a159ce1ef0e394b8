/**
 * `readInput`'s native decoding (issue 38: Node's `isAscii`/`isUtf8`/`toString` instead of the
 * model's TextDecoder) gives the text `decodeBytes` gives, and leaves every refusal to it.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync, strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { decodeBytes } from '../model/parse/bytes.ts';
import { readInput } from './read.ts';

const dir = mkdtempSync(join(tmpdir(), 'ti-read-'));
const BODY = '{"messages":[{"role":"user","content":"héllo ✓ 😀"}]}';

const INPUTS: [string, string, Uint8Array][] = [
  ['ascii', 'a.json', strToU8('{"messages":[]}')],
  ['UTF-8', 'u.json', strToU8(BODY)],
  ['UTF-8 with a BOM', 'bom.json', new Uint8Array([0xef, 0xbb, 0xbf, ...strToU8(BODY)])],
  ['a BOM alone', 'only-bom.json', new Uint8Array([0xef, 0xbb, 0xbf])],
  ['UTF-16LE', 'le.json', new Uint8Array([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00])],
  ['a NUL byte', 'nul.json', new Uint8Array([0x7b, 0x00, 0x7d])],
  ['invalid UTF-8', 'bad.json', new Uint8Array([0x7b, 0xc3, 0x28, 0x7d])],
  ['a surrogate in UTF-8', 'sur.json', new Uint8Array([0x22, 0xed, 0xa0, 0x80, 0x22])],
  ['gzip', 'g.json.gz', gzipSync(strToU8(BODY))],
  ['plain text named .gz', 'p.json.gz', strToU8(BODY)],
  ['empty', 'e.json', new Uint8Array(0)],
];

describe('readInput decodes as decodeBytes does', () => {
  it.each(INPUTS)('%s', (_what, name, bytes) => {
    const file = join(dir, name);
    writeFileSync(file, bytes);
    const want = decodeBytes(bytes, undefined, file);
    if (want.ok) expect(readInput(file).text).toBe(want.value);
    else expect(() => readInput(file)).toThrow(want.error.message);
  });
});
