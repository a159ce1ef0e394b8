/**
 * Files that are not UTF-8 text as they stand: a .gz cut off inside its stream is refused as cut
 * off (never read as a shorter log), under a heading that says what failed; a transcript saved as
 * UTF-16 with its byte order mark (PowerShell's `>`) is read as the text it is.
 */
import { expect, test } from '@playwright/test';
import { Gunzip, gzipSync, strToU8 } from 'fflate';
import { dropFile, openDefault } from './helpers.ts';

/** A Claude Code log of four lines: a call, its result, the reply. */
const LOG = [
  { type: 'user', uuid: 'u1', message: { role: 'user', content: 'List the files' } },
  {
    type: 'assistant',
    uuid: 'a1',
    parentUuid: 'u1',
    message: {
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'toolu_01Ls', name: 'Bash', input: { command: 'ls' } }],
    },
  },
  {
    type: 'user',
    uuid: 'u2',
    parentUuid: 'a1',
    message: {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'toolu_01Ls', content: 'a.txt b.txt' }],
    },
  },
  {
    type: 'assistant',
    uuid: 'a2',
    parentUuid: 'u2',
    message: { role: 'assistant', content: [{ type: 'text', text: 'Two files.' }] },
  },
]
  .map((l) => JSON.stringify({ sessionId: 's1', timestamp: '2026-12-03T10:00:00Z', ...l }))
  .join('\n');

/** The gzip of LOG cut where an inflater yields part of the text without an error. */
function silentlyCutGzip(): number[] {
  const gz = gzipSync(strToU8(LOG));
  for (let cut = 9; cut < gz.length - 10; cut++) {
    const part = gz.subarray(0, gz.length - cut);
    let out = 0;
    try {
      const g = new Gunzip((c) => (out += c.length));
      // As the page pushes it: the data, then an empty final push.
      g.push(part, false);
      g.push(new Uint8Array(0), true);
    } catch {
      continue;
    }
    if (out > 0 && out < LOG.length) return [...part];
  }
  throw new Error('no cut inflates silently: the test needs another log');
}

test('a .gz cut off inside its stream is refused as cut off, not read as a shorter log', async ({
  page,
}) => {
  await openDefault(page);
  const before = await page.getByTestId('count-messages').innerText();
  await dropFile(page, 'session.jsonl.gz', silentlyCutGzip());
  const banner = page.getByTestId('parse-error');
  await expect(banner).toContainText('Cannot unpack the .gz file');
  await expect(banner).toContainText('This .gz file is cut off');
  await expect(page.getByTestId('count-messages')).toHaveText(before);
});

test('a transcript saved as UTF-16 with its byte order mark is read as the text it is', async ({
  page,
}) => {
  await openDefault(page);
  const units = [0xfeff, ...Array.from({ length: LOG.length }, (_, i) => LOG.charCodeAt(i))];
  await dropFile(
    page,
    'session.jsonl',
    units.flatMap((u) => [u & 0xff, u >> 8]),
  );
  await expect(page.getByTestId('format')).toHaveText('claude-code-jsonl');
  await expect(page.getByTestId('count-messages')).toHaveText('4');
  await expect(page.getByTestId('parse-error')).toHaveCount(0);
});
