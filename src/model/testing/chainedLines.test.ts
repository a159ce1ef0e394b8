import { describe, expect, it } from 'vitest';
import { chainedLines, pad } from './chainedLines.ts';

describe('chainedLines (the test logs’ JSON Lines writer)', () => {
  it('chains lines by parentUuid, counts side lines, keeps raw lines as given', () => {
    const log = chainedLines({
      base: { sessionId: 's' },
      uuid: (n) => `u-${pad(n, 3)}`,
      timestamp: (n) => `t${n}`,
    });
    expect(log.chain({ type: 'user' })).toBe('u-001');
    log.side({ type: 'file-history-snapshot' });
    log.raw({ type: 'pad' });
    expect(log.chain({ type: 'assistant' })).toBe('u-003');
    expect(log.chain({ type: 'system' }, null)).toBe('u-004');
    expect(log.count()).toBe(4);
    const text = log.text();
    expect(text.endsWith('}\n')).toBe(true);
    expect(
      text
        .split('\n')
        .slice(0, -1)
        .map((l) => JSON.parse(l) as unknown),
    ).toEqual([
      { sessionId: 's', parentUuid: null, uuid: 'u-001', timestamp: 't1', type: 'user' },
      { type: 'file-history-snapshot', timestamp: 't2' },
      { type: 'pad' },
      { sessionId: 's', parentUuid: 'u-001', uuid: 'u-003', timestamp: 't3', type: 'assistant' },
      { sessionId: 's', parentUuid: null, uuid: 'u-004', timestamp: 't4', type: 'system' },
    ]);
  });
});
