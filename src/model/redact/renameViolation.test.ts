import { describe, expect, it } from 'vitest';
import type { Violation } from '../validate/types.ts';
import { renameViolation } from './renameViolation.ts';

const base: Violation = {
  rule: 'thought_signature_missing',
  code: 'G4',
  severity: 'error',
  messageIndex: 3,
  index: 3,
  blockIndex: 0,
  ids: ['call_abc', 'call_abcd'],
  providerPath: 'messages.3',
  status: 400,
  error: {
    error: {
      code: 400,
      message: 'call `default_api:messages` ids call_abc, call_abcd',
      status: 'x',
    },
    type: 'error',
  },
  message: 'call `default_api:messages` ids call_abc, call_abcd',
  title: 't',
  why: 'w',
  confidence: 'V',
};

describe('renameViolation', () => {
  const ids = new Map([
    ['call_abc', 'r0000_001'],
    ['call_abcd', 'r0000_0002'],
  ]);

  it('renames whole ids and hidden names in the message and the body, and nothing else', () => {
    const names = new Map([['messages', 'A_x']]);
    const v = renameViolation(base, ids, names);
    expect(v.message).toBe('call `default_api:A_x` ids r0000_001, r0000_0002');
    expect(v.ids).toEqual(['r0000_001', 'r0000_0002']);
    // The body quotes the message: renamed there, its keys and fixed words kept.
    expect(v.error).toEqual({
      error: { code: 400, message: v.message, status: 'x' },
      type: 'error',
    });
    expect(v.providerPath).toBe('messages.3');
  });

  it('leaves a name kept as it is, and a name inside a longer word alone', () => {
    const kept = renameViolation(base, new Map(), new Map([['messages', 'messages']]));
    expect(kept).toBe(base);
    const inside = renameViolation(base, new Map(), new Map([['default', 'B']]));
    expect(inside.message).toBe(base.message);
  });
});
