import { describe, expect, it } from 'vitest';
import type { Source } from '../../state/store.ts';
import { fileGoneMessage, originalExport } from './originalExport.ts';

const file = new File(['{"type":"user"}\n'], 'session.jsonl.gz');

describe('originalExport: the bytes as opened, next to the transcript as read', () => {
  it('a streamed file: the picked File itself (nothing decoded or copied), under its own name', () => {
    const source: Source = { text: '', name: 'session.jsonl', origin: 'file', file };
    const o = originalExport(source, false, 'session', 'jsonl');
    expect(o?.name).toBe('session.jsonl.gz');
    expect(o?.label).toBe('Original file (session.jsonl.gz)');
    expect(o?.blob()).toBe(file);
  });

  it('a small file read as text: its File is kept for the export, not the decoded text', () => {
    const source: Source = {
      text: 'decoded',
      name: 'session.jsonl',
      origin: 'file',
      original: file,
    };
    expect(originalExport(source, false, 'session', 'jsonl')?.blob()).toBe(file);
  });

  it('a file whose bytes are gone (a reload kept its text): the text, labelled as the text read', async () => {
    const source: Source = { text: 'a\nb\n', name: 'session.jsonl', origin: 'file' };
    const o = originalExport(source, false, 'session', 'jsonl');
    expect(o?.label).toBe("Original file's text (.jsonl)");
    expect(await o?.blob().text()).toBe('a\nb\n');
  });

  it('a paste: the text as pasted', async () => {
    const text = '{ "messages": [] }\r\n';
    const o = originalExport({ text, name: '', origin: 'paste' }, false, 'transcript', 'json');
    expect(o?.label).toBe('Pasted text (.json)');
    expect(o?.name).toBe('transcript.json');
    expect(await o?.blob().text()).toBe(text);
  });

  it('a file that can still be read downloads; one changed on disk says why instead', async () => {
    const ok = originalExport({ text: '', name: 'a', origin: 'file', file }, false, 'a', 'jsonl');
    expect(await ok?.unreadable()).toBeNull();
    // What a browser's File does once its file changed on disk: every read rejects.
    class GoneFile extends File {
      override slice(): Blob {
        return {
          arrayBuffer: () => Promise.reject(new DOMException('gone', 'NotReadableError')),
        } as Blob;
      }
    }
    const gone = new GoneFile(['x'], 'session.jsonl');
    const o = originalExport(
      { text: '', name: 'a', origin: 'file', file: gone },
      false,
      'a',
      'jsonl',
    );
    expect(await o?.unreadable()).toBe(fileGoneMessage('session.jsonl'));
    expect(fileGoneMessage('session.jsonl')).toMatch(
      /^session\.jsonl changed on disk.*Open it again/,
    );
    const pasted = originalExport({ text: '[]', name: '', origin: 'paste' }, false, 't', 'json');
    expect(await pasted?.unreadable()).toBeNull();
  });

  it('not offered for a modified transcript, a sample or a link', () => {
    const source: Source = { text: '', name: 'session.jsonl', origin: 'file', file };
    expect(originalExport(source, true, 'session', 'jsonl')).toBeNull();
    expect(
      originalExport({ text: '[]', name: 'invoice', origin: 'sample' }, false, 'x', 'json'),
    ).toBeNull();
    expect(originalExport({ text: '[]', name: '', origin: 'link' }, false, 'x', 'json')).toBeNull();
  });
});
