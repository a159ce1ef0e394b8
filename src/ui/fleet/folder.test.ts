/**
 * A folder dropped on the page (`indexDropped`, from `webkitGetAsEntry` entries read in batches)
 * is indexed by the paths a folder input gives (the folder's own name left out), so the page's
 * scan and a row's lookup (`findFile`) name its files alike; the fleet view's words for a rule id.
 */
import { describe, expect, it } from 'vitest';
import { findFile, indexDropped } from './folder.ts';
import { ruleInWords } from './words.ts';

interface FakeEntry {
  isFile: boolean;
  isDirectory: boolean;
  name: string;
  file?: (ok: (f: File) => void) => void;
  createReader?: () => { readEntries: (ok: (es: FakeEntry[]) => void) => void };
}

const fileEntry = (name: string, text = name): FakeEntry => ({
  isFile: true,
  isDirectory: false,
  name,
  file: (ok) => ok(new File([text], name)),
});

/** A directory whose reader answers one entry per batch, then an empty batch (as browsers do). */
function dirEntry(name: string, children: FakeEntry[]): FakeEntry {
  return {
    isFile: false,
    isDirectory: true,
    name,
    createReader: () => {
      let k = 0;
      return { readEntries: (ok) => ok(k < children.length ? [children[k++] as FakeEntry] : []) };
    },
  };
}

const items = (entries: FakeEntry[]) =>
  entries.map((e) => ({ webkitGetAsEntry: () => e })) as unknown as DataTransferItemList;

describe('indexDropped', () => {
  it('indexes one dropped folder by the paths under it, in every batch', async () => {
    const dropped = await indexDropped(
      items([
        dirEntry('sessions', [
          fileEntry('a.json'),
          dirEntry('team', [fileEntry('cc.jsonl', 'log'), fileEntry('b.json')]),
        ]),
      ]),
    );
    expect(dropped?.name).toBe('sessions');
    expect([...(dropped?.index.keys() ?? [])].sort()).toEqual([
      'a.json',
      'team/b.json',
      'team/cc.jsonl',
    ]);
    const get = dropped && findFile(dropped.index, 'team/cc.jsonl');
    expect(await (await get?.())?.text()).toBe('log');
  });

  it('keeps each folder’s name when several are dropped, and is null for files only', async () => {
    const two = await indexDropped(
      items([dirEntry('x', [fileEntry('1.json')]), dirEntry('y', [fileEntry('2.json')])]),
    );
    expect([...(two?.index.keys() ?? [])].sort()).toEqual(['x/1.json', 'y/2.json']);
    expect(await indexDropped(items([fileEntry('1.json'), fileEntry('2.json')]))).toBeNull();
  });
});

describe('ruleInWords', () => {
  it('names a rule id in words, and leaves an unknown id (or a prototype key) as it is', () => {
    expect(ruleInWords('orphan_tool_result')).toBe('tool result with no call before it');
    expect(ruleInWords('a_rule_from_a_newer_cli')).toBe('a_rule_from_a_newer_cli');
    expect(ruleInWords('constructor')).toBe('constructor');
  });
});
