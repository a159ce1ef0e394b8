import { describe, expect, it } from 'vitest';
import { MAX_UNPACKED_BYTES } from '../model/limits.ts';
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
    expect(maxFileBytes(1_000_000_000)).toBe(1_000_000_000 / HEAP_PER_FILE_BYTE);
    expect(maxFileBytes(null)).toBe(FIXED_MAX_FILE_BYTES);
  });

  it('never accepts more than the unpacked-bytes limit of the model (shared with the CLI)', () => {
    expect(maxFileBytes(8_000_000_000)).toBe(MAX_UNPACKED_BYTES);
    expect(maxFileBytes(null)).toBeLessThanOrEqual(MAX_UNPACKED_BYTES);
    const why = refuseReason(600e6, 8e9);
    expect(why).toContain('600 MB');
    expect(why).toContain('536 MB');
    expect(why).toContain('the CLI has the same limit');
  });

  it('takes the 500 MB log of issue 38 in a tab of the usual 4 GiB heap (Chromium, 64-bit)', () => {
    expect(refuseReason(500_044_679, 4_294_705_152)).toBeNull();
  });

  it('refuses above the limit with the limit and the reason', () => {
    expect(refuseReason(100e6, 1e9)).toBeNull();
    const why = refuseReason(200e6, 1e9);
    expect(why).toContain('200 MB');
    expect(why).toContain('125 MB');
    expect(why).toContain(`${HEAP_PER_FILE_BYTE}×`);
    expect(refuseReason(300 * 1024 * 1024, null)).toContain('does not report its memory limit');
  });
});
