import { describe, expect, it } from 'vitest';
import { keptExportName } from './shareLinks.ts';

describe('keptExportName: the written-back transcript never takes the original’s name', () => {
  it('names the transcript as read, with faults, or the request a policy keeps', () => {
    expect(keptExportName('transcript', 'jsonl', null, false)).toBe('transcript.as-read.jsonl');
    expect(keptExportName('session', 'jsonl', null, true)).toBe('session.with-faults.jsonl');
    expect(keptExportName('coding-agent', 'json', { policy: 'message', budget: 900 }, true)).toBe(
      'coding-agent.message-900.json',
    );
    // The original export of a paste or a file's text is `<base>.<ext>`.
    expect(keptExportName('transcript', 'json', null, false)).not.toBe('transcript.json');
  });
});
