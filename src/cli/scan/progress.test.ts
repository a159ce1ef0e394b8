import { afterEach, describe, expect, it, vi } from 'vitest';
import { Progress } from './progress.ts';

const io = () => {
  const lines: string[] = [];
  return {
    lines,
    io: { read: () => ({ text: '', name: '' }), out: () => {}, err: (s: string) => lines.push(s) },
  };
};

describe('scan progress', () => {
  afterEach(() => vi.useRealTimers());

  it('says no time left before it can know (newcomer: the first small file gave "157:00 left")', () => {
    vi.useFakeTimers({ now: 0 });
    const { lines, io: sink } = io();
    const p = new Progress(sink, 3, 1_000_000);
    vi.setSystemTime(2500);
    p.tick(1000); // a second in, a thousandth of the bytes
    expect(lines.at(-1)).toContain('time left not known yet');
    expect(lines.at(-1)).not.toMatch(/\d+:\d\d left/);
    vi.setSystemTime(5000);
    p.tick(499_000); // half the bytes in 5 s: 5 s left
    expect(lines.at(-1)).toContain('0:05 left');
    vi.setSystemTime(7500);
    p.tick(500_000);
    expect(lines.at(-1)).toContain('3/3 files');
    expect(lines.at(-1)).toContain('0:00 left');
  });
});
