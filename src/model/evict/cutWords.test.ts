import { describe, expect, it } from 'vitest';
import type { Message } from '../types.ts';
import { cutWords } from './cutWords.ts';

const roles = (...r: Message['role'][]) => r.map((role) => ({ role }));
const labelOf = (i: number) => `#${i}`;

describe('cutWords', () => {
  it('without a system prompt names the messages dropped and nothing pinned', () => {
    const ms = roles('user', 'assistant', 'user', 'assistant');
    expect(cutWords(ms, labelOf, 2)).toEqual({
      label: 'Cut above #2: drop #0–#1',
      head: 'Drop #0–#1:',
    });
    expect(cutWords(ms, labelOf, 1)?.label).toBe('Cut above #1: drop #0');
  });

  it('with the system prompt #0: the cut above #1 drops nothing, so there is none', () => {
    const ms = roles('system', 'user', 'assistant', 'tool', 'user');
    expect(cutWords(ms, labelOf, 1)).toBeNull();
    expect(cutWords(ms, labelOf, 0)).toBeNull();
    expect(cutWords(ms, labelOf, 2)).toEqual({
      label: 'Cut above #2: drop #1, keep the system prompt #0 (pinned)',
      head: 'Drop #1, keep the system prompt #0 (pinned):',
    });
    expect(cutWords(ms, labelOf, 4)?.label).toBe(
      'Cut above #4: drop #1–#3, keep the system prompt #0 (pinned)',
    );
  });

  it('a developer message, and pinned messages between those dropped', () => {
    expect(cutWords(roles('developer', 'user', 'assistant'), labelOf, 3)?.label).toBe(
      'Cut above #3: drop #1–#2, keep the developer message #0 (pinned)',
    );
    expect(cutWords(roles('user', 'system', 'user', 'system', 'user'), labelOf, 4)?.label).toBe(
      'Cut above #4: drop #0–#2, keep the system and developer messages (pinned)',
    );
  });
});
