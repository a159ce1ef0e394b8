/**
 * One reading of a link for the page and the CLI (issue 37): a link with both `src` and `t` shows
 * its inline transcript on the page and the CLI reads the same transcript (it exited 2); links the
 * page refuses, the CLI refuses, and the other way round.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readLink } from '../../cli/link.ts';
import { cli } from '../../cli/testing/index.ts';
import { encodeInlinePayload } from '../../model/permalink/inline.ts';
import { createAppStore } from '../store.ts';
import { applyLink } from './applyLink.ts';

const SAMPLES = join(import.meta.dirname, '..', '..', '..', 'public', 'samples');
const CODING = readFileSync(join(SAMPLES, 'coding-agent.json'), 'utf8');
const t = encodeInlinePayload(CODING);

/** What the page shows for a link on a fresh page: the inline text, a sample, or nothing. */
function pageReads(fragment: string): string {
  const store = createAppStore();
  applyLink(store, fragment);
  const s = store.getState().source;
  if (s.text !== '') return `text ${s.text.length}`;
  return s.origin === 'link' ? 'refused' : `sample ${s.sampleId ?? ''}`;
}

/** What the CLI reads for the same link. */
async function cliReads(fragment: string): Promise<string> {
  try {
    const l = await readLink(fragment);
    return l.name.endsWith('.json') || l.name.endsWith('.jsonl')
      ? `sample ${l.name.replace(/\.jsonl?$/, '')}`
      : `text ${l.text.length}`;
  } catch {
    return 'refused';
  }
}

describe('a link reads the same on the page and in the CLI', () => {
  it.each([
    ['src and t', `v=1&src=invoice&t=${t}`, `text ${CODING.length}`],
    ['t alone', `v=1&t=${t}`, `text ${CODING.length}`],
    ['a refused t beside a src', 'v=1&src=invoice&t=1.d.%21%21', 'refused'],
    ['an unreadable sample name', 'v=1&src=..%2Fsecret', 'refused'],
  ])('%s', async (_, fragment, want) => {
    expect(pageReads(fragment)).toBe(want);
    expect(await cliReads(fragment)).toBe(want);
  });

  it('check of a link with src and t judges its inline transcript, with a note', async () => {
    const both = await cli(['check', `#v=1&src=invoice&t=${t}`], {});
    const alone = await cli(['check', 'coding-agent.json'], { 'coding-agent.json': CODING });
    expect(both.code).toBe(alone.code);
    // The same report, the input's label (its first words) aside.
    const body = (out: string) => out.slice(out.indexOf(':'));
    expect(body(both.out)).toBe(body(alone.out));
    expect(both.err).toContain('names both a sample and an inline transcript');
  });
});
