import { describe, expect, it } from 'vitest';
import type { InspectRequest } from '../engine/client.ts';
import type { ParseError } from '../model/types.ts';
import type { Source } from '../state/store.ts';
import { failedInput } from './useShownSource.ts';

const json: ParseError = { kind: 'json', message: 'Unexpected end of JSON input' };
const limit: ParseError = { kind: 'limit', message: 'nested too deeply' };
const reqOf = (s: Source): InspectRequest => ({
  text: s.text,
  name: s.name,
  format: null,
  provider: null,
  ...(s.file ? { file: s.file } : {}),
});
const settled = (s: Source, error: ParseError | null) => ({
  error,
  pending: false,
  request: reqOf(s),
});

const smallFile: Source = { text: 'null', name: 'null.json', origin: 'file' };
const pasted: Source = { text: '{"messages": [', name: '', origin: 'paste' };
const streamed: Source = { text: '', name: 'big.jsonl', origin: 'file', file: new Blob(['x']) };
const linked: Source = { text: '{"messages": [', name: 'linked transcript', origin: 'link' };

describe('failedInput: what goes back to the transcript shown when the source fails', () => {
  it('a small file or a paste that does not parse is text for the box (the reviewer’s null.json)', () => {
    expect(failedInput(smallFile, settled(smallFile, json))).toBe('text');
    expect(failedInput(pasted, settled(pasted, json))).toBe('text');
    expect(failedInput(pasted, settled(pasted, limit))).toBe('text');
  });

  it('a streamed file, or a file refused for a limit, has nothing to fix in the box', () => {
    expect(failedInput(streamed, settled(streamed, json))).toBe('file');
    expect(failedInput(smallFile, settled(smallFile, limit))).toBe('file');
  });

  it('nothing while the source is read, once it parsed, or for an older input’s error', () => {
    expect(failedInput(pasted, { ...settled(pasted, json), pending: true })).toBeNull();
    expect(failedInput(pasted, settled(pasted, null))).toBeNull();
    expect(failedInput(pasted, settled(smallFile, json))).toBeNull();
    expect(failedInput(smallFile, { error: json, pending: false, request: null })).toBeNull();
  });

  it('a link’s text is the link’s: the address stays on it', () => {
    expect(failedInput(linked, settled(linked, json))).toBeNull();
  });
});
