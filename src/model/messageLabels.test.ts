import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { messageLabel, messageLabels } from './messageLabels.ts';
import { assistant, transcript, user } from './testing.ts';
import type { Message } from './types.ts';

function withRaw(raws: readonly number[]): Message[] {
  return transcript(
    'anthropic-messages',
    raws.map((_, i) => (i % 2 === 0 ? user(`u${i}`) : assistant(`a${i}`))),
  ).messages.map((m, i) => ({ ...m, rawIndex: raws[i] as number }));
}

describe('messageLabels', () => {
  it('names a message by its raw index when no other message shares it', () => {
    const ms = withRaw([0, 1, 2]);
    expect([0, 1, 2].map((i) => messageLabel(ms, i))).toEqual(['#0', '#1', '#2']);
  });

  it('gives a sub-position to every message of a shared raw index, in our order', () => {
    // A Gemini CLI turn and its results (raw 1 twice), a retry copy (raw 3 three times).
    const ms = withRaw([0, 1, 1, 2, 3, 3, 3]);
    const l = messageLabels(ms);
    expect(ms.map((_, i) => l.of(i))).toEqual(['#0', '#1.1', '#1.2', '#2', '#3.1', '#3.2', '#3.3']);
  });

  it('numbers shared raw indices that are not adjacent (a reordered log) and keeps unique ones plain', () => {
    const ms = withRaw([2, 0, 2, 1]);
    expect(ms.map((_, i) => messageLabel(ms, i))).toEqual(['#2.1', '#0', '#2.2', '#1']);
  });

  it('falls back to the position outside the list', () => {
    expect(messageLabel(withRaw([0]), 5)).toBe('#5');
    expect(messageLabel(withRaw([0]), -1)).toBe('#-1');
  });

  it('property: labels are unique, start with `#rawIndex`, and are plain when the raw index is unique', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(6), { maxLength: 20 }), (raws) => {
        const ms = withRaw(raws);
        const labels = ms.map((_, i) => messageLabel(ms, i));
        expect(new Set(labels).size).toBe(labels.length);
        ms.forEach((m, i) => {
          const shared = raws.filter((r) => r === m.rawIndex).length > 1;
          const label = labels[i] as string;
          if (shared) expect(label.startsWith(`#${m.rawIndex}.`)).toBe(true);
          else expect(label).toBe(`#${m.rawIndex}`);
        });
      }),
    );
  });
});
