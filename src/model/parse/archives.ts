/**
 * Archive formats that hold several conversations or samples in one file (Inspect eval logs,
 * ChatGPT and claude.ai data exports). multi.ts `listRequests` asks here first, so the page's
 * request picker lists one entry per sample or conversation. Adding such a format is one line in
 * `LISTERS`.
 */
import { listChatgptConversations } from './chatgptExport.ts';
import { listClaudeAiConversations } from './claudeAiExport.ts';
import { listInspectSamples } from './inspectLog.ts';
import type { RequestEntry } from './multi.ts';

const LISTERS: ((v: unknown) => RequestEntry[])[] = [
  listInspectSamples,
  listChatgptConversations,
  listClaudeAiConversations,
];

/**
 * The samples or conversations of an archive file.
 * @param value a parsed JSON value
 * @returns the first non-empty listing (each entry's value is the archive narrowed to one item,
 *   which the format's own parser reads); `[]` when the value is no multi-item archive. Cheap
 *   (looks at the top level and the first few items before listing) and never throws.
 */
export function listArchiveRequests(value: unknown): RequestEntry[] {
  for (const list of LISTERS) {
    const found = list(value);
    if (found.length > 0) return found;
  }
  return [];
}
