import { describe, expect, it } from 'vitest';
import type { ParseError } from '../model/types.ts';
import type { Source } from './store.ts';
import { createTabMemory, needsKeeping, type KeptStorage } from './tabMemory.ts';

/** A Map-backed session storage; `quota` (characters of keys and values) makes setItem throw. */
function fakeStorage(quota = Infinity): KeptStorage & { items: Map<string, string> } {
  const items = new Map<string, string>();
  const used = () => [...items].reduce((n, [k, v]) => n + k.length + v.length, 0);
  return {
    items,
    getItem: (k) => items.get(k) ?? null,
    setItem: (k, v) => {
      const before = items.get(k);
      items.set(k, v);
      if (used() > quota) {
        if (before === undefined) items.delete(k);
        else items.set(k, before);
        throw new Error('QuotaExceededError');
      }
    },
    removeItem: (k) => void items.delete(k),
  };
}

const paste = (text: string): Source => ({ text, name: '', origin: 'paste' });

describe('tab memory', () => {
  it('keeps what no URL brings back: a paste, a file; not a sample or a link', () => {
    expect(needsKeeping(paste('[]'))).toBe(true);
    expect(needsKeeping({ text: '[]', name: 'a.json', origin: 'file' })).toBe(true);
    expect(needsKeeping({ text: '', name: 'big.jsonl', origin: 'file', file: new Blob([]) })).toBe(
      true,
    );
    expect(needsKeeping(paste(''))).toBe(false);
    expect(
      needsKeeping({ text: '[]', name: 'invoice.json', origin: 'sample', sampleId: 'invoice' }),
    ).toBe(false);
    expect(needsKeeping({ text: '[]', name: 'linked transcript', origin: 'link' })).toBe(false);
  });

  it('gives back the same source while the page lives, and its text after a reload', () => {
    const storage = fakeStorage();
    const a = createTabMemory(storage);
    const source = paste('[{"role":"user","content":"hi"}]');
    a.keep('k1', source);
    const held = a.recall('k1');
    // The very object: Back shows the transcript without parsing it again.
    expect(held.kind === 'kept' && held.source).toBe(source);
    // Nothing in session storage until the flush (the debounced URL write, or leaving).
    expect(storage.items.size).toBe(0);
    a.flush();
    // A reload: a new page, the same tab's storage.
    const b = createTabMemory(storage);
    expect(b.recall('k1')).toEqual({ kind: 'kept', source });
    expect(b.recall('other')).toEqual({ kind: 'none' });
  });

  it('input that failed to parse is kept with its error, over a reload too (a damaged one without)', () => {
    const storage = fakeStorage();
    const a = createTabMemory(storage);
    const bad = paste('{"messages": [');
    const error: ParseError = { kind: 'json', message: 'Unexpected end of JSON input' };
    a.keep('r1', bad, error);
    expect(a.recall('r1')).toEqual({ kind: 'kept', source: bad, error });
    a.flush();
    expect(createTabMemory(storage).recall('r1')).toEqual({ kind: 'kept', source: bad, error });
    // The same text kept again without its error (it parsed after all) loses the error.
    a.keep('r1', bad);
    a.flush();
    expect(createTabMemory(storage).recall('r1')).toEqual({ kind: 'kept', source: bad });
    storage.setItem('transcript-inspector.kept.r2', JSON.stringify({ ...bad, error: { kind: 3 } }));
    expect(createTabMemory(storage).recall('r2')).toEqual({ kind: 'kept', source: bad });
  });

  it('a paste too large for a reload is held for Back/Forward, recorded as lost, and warned of', () => {
    const storage = fakeStorage();
    const a = createTabMemory(storage, { maxChars: 100 });
    const big = paste('x'.repeat(101));
    a.keep('k1', big);
    expect(a.survivesReload('k1')).toBe(false);
    expect(a.recall('k1')).toEqual({ kind: 'kept', source: big });
    const b = createTabMemory(storage, { maxChars: 100 });
    expect(b.recall('k1')).toEqual({ kind: 'lost', name: '', origin: 'paste', chars: 101 });
    // The same entry then shows a small paste: kept, no warning.
    a.keep('k1', paste('[]'));
    expect(a.survivesReload('k1')).toBe(true);
    expect(createTabMemory(storage).recall('k1')).toEqual({ kind: 'kept', source: paste('[]') });
  });

  it('drops the oldest entries to stay under the total, and when storage is full', () => {
    const storage = fakeStorage();
    const m = createTabMemory(storage, { maxChars: 100, maxTotalChars: 200 });
    for (const k of ['k1', 'k2', 'k3']) m.keep(k, paste(k.repeat(40)));
    m.flush();
    const after = createTabMemory(storage);
    expect(after.recall('k1')).toEqual({ kind: 'none' });
    expect(after.recall('k2').kind).toBe('kept');
    expect(after.recall('k3').kind).toBe('kept');

    const full = fakeStorage(700);
    const f = createTabMemory(full, { maxChars: 1000, maxTotalChars: 10_000 });
    f.keep('a', paste('a'.repeat(300)));
    f.keep('b', paste('b'.repeat(300)));
    f.flush();
    expect(f.survivesReload('b')).toBe(true);
    expect(createTabMemory(full).recall('a')).toEqual({ kind: 'none' });
    expect(createTabMemory(full).recall('b').kind).toBe('kept');
  });

  it('a streamed file is held in memory only (its link names it); nothing is warned of', () => {
    const storage = fakeStorage();
    const m = createTabMemory(storage);
    const file = { text: '', name: 'big.jsonl', origin: 'file' as const, file: new Blob(['x']) };
    m.keep('k1', file);
    expect(m.survivesReload('k1')).toBe(true);
    expect(m.recall('k1')).toEqual({ kind: 'kept', source: file });
    expect(createTabMemory(storage).recall('k1')).toEqual({ kind: 'none' });
  });

  it('without session storage: memory only, and a paste is warned of', () => {
    const m = createTabMemory(null);
    m.keep('k1', paste('[]'));
    expect(m.recall('k1').kind).toBe('kept');
    expect(m.survivesReload('k1')).toBe(false);
  });

  it('holds at most maxMemoryChars in memory, always the newest entry', () => {
    const m = createTabMemory(null, { maxMemoryChars: 100 });
    m.keep('k1', paste('a'.repeat(80)));
    m.keep('k2', paste('b'.repeat(80)));
    expect(m.recall('k1').kind).toBe('none');
    expect(m.recall('k2').kind).toBe('kept');
    m.keep('k3', paste('c'.repeat(500)));
    expect(m.recall('k3').kind).toBe('kept');
  });

  it('ignores what it cannot read back (damaged or foreign session storage values)', () => {
    const storage = fakeStorage();
    storage.setItem('transcript-inspector.kept.k1', '{not json');
    storage.setItem('transcript-inspector.kept.k2', JSON.stringify({ name: 1 }));
    storage.setItem(
      'transcript-inspector.kept.k4',
      JSON.stringify({ name: 'x', origin: 'sample', text: '[]' }),
    );
    storage.setItem('transcript-inspector.kept.index', '"nope"');
    const m = createTabMemory(storage);
    expect(m.recall('k1')).toEqual({ kind: 'none' });
    expect(m.recall('k2')).toEqual({ kind: 'none' });
    // Only a paste or a file is ever kept: anything else was not written by this page.
    expect(m.recall('k4')).toEqual({ kind: 'none' });
    m.keep('k3', paste('[]'));
    expect(m.survivesReload('k3')).toBe(true);
  });
});
