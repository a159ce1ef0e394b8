import { describe, expect, it } from 'vitest';
import type { Analysis } from '../model/analyze.ts';
import { lazyMessage, lineSpans, reader } from '../engine/testing/lazyMessages.ts';
import { selectMatches } from './find.ts';

describe('find over a streamed log whose texts are read from the file (issue 38)', () => {
  it('says it is still reading (not "no match") until the texts arrive, then finds the last one', async () => {
    const text = '{"a":"first"}\n{"b":"middle"}\n{"c":"zebraquartz"}';
    const spans = lineSpans(text);
    const { source, next } = reader(new Blob([text]));
    const messages = [0, 2, 4].map((a) => lazyMessage(source, spans, a, a + 2));
    const analysis = { transcript: { messages } } as unknown as Analysis;
    const arrived = next();
    const before = selectMatches(analysis, 'zebraquartz');
    expect(before.messages).toEqual([]);
    expect(before.reading).toBe(true);
    await arrived;
    // The session clears its selectors when the texts come; a new query computes afresh here.
    const after = selectMatches(analysis, 'zebraquartz ');
    expect(after.reading).toBe(false);
    expect(after.messages).toEqual([2]);
    expect(selectMatches(analysis, 'no such thing').reading).toBe(false);
  });
});
