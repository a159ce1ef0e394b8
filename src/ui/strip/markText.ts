/**
 * A strip mark's accessible name and title (issue 33): the request's number, its tokens and
 * messages, its verdict, its flags and label, in words. Formatted with the page's one shared
 * number formatter (`fmtInt`): `toLocaleString` built a formatter per call, and the 200 marks
 * drawn were re-labelled on every render of a loading page (1.8 s of a second 115 MB log's load).
 */
import { apiErrorWords } from '../../model/diff/index.ts';
import type { StripMark } from '../../state/requests.ts';
import { fmtCount, fmtInt } from '../format.ts';

/** The mark's accessible name and title: number, tokens, messages, verdict, flags, label. */
export function markText(m: StripMark, count: number, what: string): string {
  const parts = [`${what} ${fmtInt(m.index + 1)} of ${fmtInt(count)}`];
  // The request's count, by the header's counter (its basis said), and apart from it the usage
  // the log records: two quantities, each labelled (newcomer: 2,804 here, 4,869 in the header).
  if (m.tokens !== null)
    parts.push(
      `request ${m.encoding === 'chars/4' ? '≈' : ''}${fmtInt(m.tokens)} tokens (${m.encoding === 'chars/4' ? 'estimate, chars/4' : (m.encoding ?? 'estimate')}), ${fmtCount(m.messages ?? 0, 'message')}`,
    );
  if (m.usageTokens !== null) parts.push(`usage: ${fmtInt(m.usageTokens)} input tokens recorded`);
  parts.push(
    m.tone === 'ok'
      ? 'passes'
      : m.tone === 'bad'
        ? `fails${m.code ? ` (${m.code})` : ''}`
        : 'not judged yet',
  );
  const c = m.compaction;
  if (c)
    parts.push(
      `${c.kind} before it (${c.trigger}${c.tokensBefore !== null ? `, ${fmtInt(c.tokensBefore)} → ${c.tokensAfter !== null ? fmtInt(c.tokensAfter) : '?'} tokens` : ''})`,
    );
  if (m.retry) parts.push('a retry of the one before');
  if (m.fault) parts.push(`${apiErrorWords(m.tone === 'ok')}: ${m.fault}`);
  return `${parts.join('; ')}. ${m.label}`;
}
