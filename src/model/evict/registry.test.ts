/**
 * The policy registry is the one list of policies: ids, order, help lines, the options the
 * simulator offers and how a link writes them all come from its entries.
 */
import { describe, expect, it } from 'vitest';
import {
  isPolicyId,
  MONOTONE_POLICIES,
  POLICIES,
  POLICY_OPTION_KEYS,
  POLICY_REGISTRY,
} from './registry.ts';

describe('the policy registry', () => {
  it('lists the policies in picker order', () => {
    expect(POLICIES).toEqual([
      'message',
      'message-keep-task',
      'exchange',
      'turn-pair',
      'summary',
      'clear-tool-results',
      'provider-compaction',
      'ai-sdk-prune',
      'langchain-trim',
    ]);
    expect(MONOTONE_POLICIES).toEqual([
      'message',
      'message-keep-task',
      'exchange',
      'turn-pair',
      'clear-tool-results',
      'ai-sdk-prune',
      'langchain-trim',
    ]);
  });

  it('gives each policy a help line and the options it offers', () => {
    for (const id of POLICIES) expect(POLICY_REGISTRY[id].help.length, id).toBeGreaterThan(10);
    const offering = (o: 'pinFirst' | 'summaryTokens' | 'keepToolUses') =>
      POLICIES.filter((id) => POLICY_REGISTRY[id].options.includes(o));
    expect(offering('pinFirst')).toEqual(['message', 'exchange']);
    expect(offering('summaryTokens')).toEqual(['summary', 'provider-compaction']);
    expect(offering('keepToolUses')).toEqual(['clear-tool-results']);
    // Only a summarising policy offers a summary size; a policy that keeps the task has no pin.
    for (const id of POLICIES) {
      const p = POLICY_REGISTRY[id];
      expect(p.options.includes('summaryTokens'), id).toBe(p.summarises);
      if (p.keepsTask) expect(p.options.includes('pinFirst'), id).toBe(false);
    }
  });

  it('tells its ids from anything else', () => {
    for (const id of POLICIES) expect(isPolicyId(id)).toBe(true);
    for (const x of ['', 'Message', 'toString', '__proto__', 3, null])
      expect(isPolicyId(x)).toBe(false);
  });

  it('names each option once in a link (the compared policy adds `2`)', () => {
    const keys = Object.values(POLICY_OPTION_KEYS).map((k) => k.key);
    expect(new Set(keys).size).toBe(keys.length);
    for (const k of keys) expect(k).toMatch(/^[a-z]+$/);
  });
});
