import { describe, expect, it } from 'vitest';
import { FIXES, priority } from './index.ts';
import type { Violation } from '../../validate/index.ts';

describe('the fix table', () => {
  it('gives each rule one fix', () => {
    const rules = FIXES.flatMap((e) => e.rules);
    expect(new Set(rules).size).toBe(rules.length);
  });

  it('orders a replayed turn first, then a doubled result, then everything else', () => {
    const v = (rule: Violation['rule']) => ({ rule }) as Violation;
    expect(priority(v('duplicate_tool_use_id'))).toBe(0);
    expect(priority(v('duplicate_tool_result'))).toBe(1);
    expect(priority(v('unanswered_tool_use'))).toBe(2);
    expect(priority(v('thinking_missing'))).toBe(2);
  });
});
