/**
 * Corpus suite: the reported cases with a `before_trim` history and a prefix trim
 * (`keep_last_messages`, `drop_oldest_messages`) are reproduced by the `message` policy: the same
 * kept messages and the same first error. Our own fixtures of cases 01, 03 and 06 are in
 * trimCases.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { corpusCases, PROVIDER_OF_API, type CorpusCase } from '../../testing/corpus.ts';
import { parsedText, perMessageTable, trimmedIndex } from '../testing/index.ts';
import type { FormatId, ProviderId, Transcript } from '../types.ts';
import { validatorFor } from '../validate/index.ts';
import { prepareEviction, simulatePolicy } from './policies.ts';

function parse(body: unknown, format: FormatId): Transcript {
  return parsedText(JSON.stringify(body), { format }).transcript;
}

describe('reported cases with before_trim and a prefix trim', () => {
  const cases = corpusCases()
    .filter(
      ({ c }) =>
        c.before_trim &&
        (c.trim?.policy === 'keep_last_messages' || c.trim?.policy === 'drop_oldest_messages'),
    )
    .filter(({ c }) => {
      const provider = PROVIDER_OF_API.get(c.provider_api);
      return provider !== undefined && validatorFor(provider) !== undefined;
    });

  it('finds the prefix-trim cases (01, 03, 06)', () => {
    expect(cases.map(({ file }) => file.slice(0, 2)).sort()).toEqual(
      expect.arrayContaining(['01', '03', '06']),
    );
  });

  it.each(cases.map(({ file, c }) => [file, c] as const))(
    '%s: the message policy reproduces the trimmed request and its error',
    (_f, c) => {
      const provider = PROVIDER_OF_API.get(c.provider_api) as ProviderId;
      const before = parse(c.before_trim, c.format);
      const after = parse(c.transcript, c.format);
      const table = perMessageTable(before);
      const ctx = prepareEviction(before, table, provider);
      const trim = c.trim as NonNullable<CorpusCase['trim']>;
      const pinned = before.messages.filter(
        (m) => m.role === 'system' || m.role === 'developer',
      ).length;
      const budget =
        trim.policy === 'keep_last_messages'
          ? (trim.keep ?? 0) + (trim.keep_system ? pinned : 0)
          : table.total - (trim.drop ?? 0);
      const r = simulatePolicy(ctx, 'message', budget);
      expect(r.kept.map((i) => before.messages[i]?.raw)).toEqual(after.messages.map((m) => m.raw));
      const want = c.expected.violations[0];
      expect(r.validation.valid).toBe(c.expected.valid);
      expect(r.firstError?.rule).toBe(want?.kind);
      expect(r.firstError?.ids).toEqual(want?.ids);
      expect(trimmedIndex(before, r.kept, r.firstError?.messageIndex ?? -1)).toBe(
        want?.message_index,
      );
      if (want?.api_path) expect(r.firstError?.providerPath).toBe(want.api_path);
      // The same request validated on its own gives the same first error.
      const direct = prepareEviction(after, perMessageTable(after), provider);
      expect(simulatePolicy(direct, 'message', after.messages.length).firstError?.message).toBe(
        r.firstError?.message,
      );
    },
  );
});
