import { describe, expect, it } from 'vitest';
import {
  countNoun,
  idListText,
  describeSource,
  excerpt,
  findRanges,
  fmtCount,
  fmtInt,
  prettyJson,
  visibleBidi,
} from './format.ts';

describe('fmtInt', () => {
  it('groups thousands with ","', () => {
    expect(fmtInt(67139)).toBe('67,139');
    expect(fmtInt(100012)).toBe('100,012');
    expect(fmtInt(999)).toBe('999');
  });
});

describe('fmtCount', () => {
  it('says one in the singular, any other count in the plural', () => {
    expect(fmtCount(1, 'id')).toBe('1 id');
    expect(fmtCount(0, 'id')).toBe('0 ids');
    expect(fmtCount(2, 'id')).toBe('2 ids');
    expect(fmtCount(1234, 'id')).toBe('1,234 ids');
    expect(fmtCount(3, 'reply', 'replies')).toBe('3 replies');
  });
});

describe('describeSource (names the transcript on screen)', () => {
  it('names a sample or a file, and never points at the text box', () => {
    expect(describeSource({ origin: 'sample', name: 'invoice.json' })).toBe(
      'the sample invoice.json',
    );
    expect(describeSource({ origin: 'file', name: 'run.jsonl' })).toBe('the file run.jsonl');
    // A .gz file is named as it is on disk (newcomer: 'the file plain.json' for plain.json.gz).
    expect(describeSource({ origin: 'file', name: 'plain.json', fileName: 'plain.json.gz' })).toBe(
      'the file plain.json.gz',
    );
    expect(describeSource({ origin: 'paste', name: '' })).toBe('the text pasted earlier');
    expect(describeSource({ origin: 'link', name: '' })).toBe('the linked transcript');
    expect(describeSource(null)).toBe('the last transcript that parsed');
    for (const o of ['sample', 'file', 'paste', 'link'] as const)
      expect(describeSource({ origin: o, name: 'x' })).not.toMatch(/box|below/);
  });
});

describe('findRanges (find marks inside an opened row)', () => {
  it('finds every case-insensitive occurrence, trimmed, regex characters taken literally', () => {
    expect(findRanges('Read the README', ' read ')).toEqual([
      [0, 4],
      [9, 13],
    ]);
    expect(findRanges('a.b a+b a.b', 'a.b')).toEqual([
      [0, 3],
      [8, 11],
    ]);
    expect(findRanges('toolu_01 and TOOLU_01', 'toolu_01')).toHaveLength(2);
    expect(findRanges('anything', '   ')).toEqual([]);
    expect(findRanges('no match here', 'xyz')).toEqual([]);
  });

  it('stops at the cap', () => {
    expect(findRanges('a'.repeat(2000), 'a', 500)).toHaveLength(500);
  });
});

describe('bidirectional controls are shown, not obeyed (Trojan Source)', () => {
  const spoof = 'rm -rf /tmp/x \u202Etxt.exe\u202C ok';
  it('visibleBidi names each one; excerpt (the chips) does too; other text is untouched', () => {
    expect(visibleBidi(spoof)).toBe('rm -rf /tmp/x [U+202E]txt.exe[U+202C] ok');
    for (const c of ['\u061C', '\u200E', '\u200F', '\u202A', '\u202D', '\u2066', '\u2069'])
      expect(visibleBidi(`a${c}b`)).toMatch(/^a\[U\+[0-9A-F]{4}\]b$/);
    expect(excerpt(spoof)).not.toMatch(/[\u202A-\u202E]/);
    expect(visibleBidi('שלום, مرحبا — plain text')).toBe('שלום, مرحبا — plain text');
  });

  it('prettyJson (raw JSON, error bodies) writes them as JSON escapes: the same value, shown', () => {
    const json = prettyJson({ id: `toolu_\u202Eabc` });
    expect(json).toContain('toolu_\\u202Eabc');
    expect(JSON.parse(json)).toEqual({ id: `toolu_\u202Eabc` });
  });
});

describe('idListText (the ids a violation names)', () => {
  it('prints no list when no call has an id (a Gemini body judged for another provider)', () => {
    expect(idListText(['', ''])).toBeNull();
    expect(idListText([])).toBeNull();
  });
  it('lists the ids, an empty one as (no id)', () => {
    expect(idListText(['call_1', 'call_2'])).toBe('call_1, call_2');
    expect(idListText(['call_1', ''])).toBe('call_1, (no id)');
  });
});

describe('countNoun (a count drawn apart from its noun: the fleet totals)', () => {
  it('one file, one request; any other count takes the plural (newcomer: "1 requests")', () => {
    expect(countNoun(1, 'request')).toBe('request');
    expect(countNoun(0, 'request')).toBe('requests');
    expect(countNoun(10, 'file')).toBe('files');
  });
});
