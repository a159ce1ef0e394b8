import { describe, expect, it } from 'vitest';
import {
  FIXED_MAX_FILE_BYTES,
  heapLimitBytes,
  HEAP_PER_FILE_BYTE,
  maxFileBytes,
  refuseReason,
} from './limits.ts';

describe('file size limit', () => {
  it('derives the limit from the reported heap limit, else a fixed cap', () => {
    expect(heapLimitBytes({ memory: { jsHeapSizeLimit: 4_294_705_152 } })).toBe(4_294_705_152);
    expect(heapLimitBytes({})).toBeNull();
    expect(maxFileBytes(4_000_000_000)).toBe(4_000_000_000 / HEAP_PER_FILE_BYTE);
    expect(maxFileBytes(null)).toBe(FIXED_MAX_FILE_BYTES);
  });

  it('refuses above the limit with the limit and the reason', () => {
    expect(refuseReason(100e6, 4e9)).toBeNull();
    const why = refuseReason(900e6, 4e9);
    expect(why).toContain('900 MB');
    expect(why).toContain('500 MB');
    expect(why).toContain(`${HEAP_PER_FILE_BYTE}×`);
    expect(refuseReason(300 * 1024 * 1024, null)).toContain('does not report its memory limit');
  });
});
