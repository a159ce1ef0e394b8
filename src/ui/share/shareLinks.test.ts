import { describe, expect, it } from 'vitest';
import { keptExportName, shareExportName } from './shareLinks.ts';

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

describe('shareExportName: the summary and timeline of the structure-only copy name nothing', () => {
  it('is neutral unless the transcript or the previews are ticked in', () => {
    expect(shareExportName('incident', 'md', 'acme-payroll', false)).toBe('incident.md');
    expect(shareExportName('timeline', 'svg', 'acme-payroll', false)).toBe('timeline.svg');
    expect(shareExportName('timeline', 'png', 'acme-payroll', false)).toBe('timeline.png');
    expect(shareExportName('incident', 'md', 'acme-payroll', true)).toBe(
      'acme-payroll-incident.md',
    );
    expect(shareExportName('timeline', 'svg', 'acme-payroll', true)).toBe(
      'acme-payroll-timeline.svg',
    );
  });
});
