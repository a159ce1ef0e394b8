/**
 * The picker's windows come from the endpoint registry: the chosen provider's, and no other's.
 */
import { describe, expect, it } from 'vitest';
import { ENDPOINT_IDS, ENDPOINTS } from '../../model/validate/index.ts';
import { defaultWindowFor, windowsFor } from './contextWindows.ts';

describe('the context-window picker', () => {
  it.each(ENDPOINT_IDS)('offers %s its own windows only', (id) => {
    expect(windowsFor(id)).toBe(ENDPOINTS[id].windows);
    expect(windowsFor(id)).toContain(defaultWindowFor(undefined, id));
  });

  it('offers DeepSeek, Qwen and Mistral no Claude window', () => {
    for (const p of ['deepseek', 'qwen', 'mistral', 'kimi'])
      expect(windowsFor(p).some((w) => /claude/i.test(w.label))).toBe(false);
    expect(defaultWindowFor(undefined, 'deepseek')?.tokens).toBe(128_000);
    expect(defaultWindowFor('qwen3-max', 'qwen')?.tokens).toBe(262_144);
    expect(defaultWindowFor(undefined, 'mistral')?.tokens).toBe(128_000);
  });

  it('resolves an alias, and offers none for a name the registry does not know', () => {
    expect(windowsFor('moonshot')).toBe(ENDPOINTS.kimi.windows);
    expect(windowsFor('constructor')).toEqual([]);
    expect(defaultWindowFor('claude-3', 'nope')).toBeUndefined();
  });
});
