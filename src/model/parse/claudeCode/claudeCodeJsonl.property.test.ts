import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sourceLines } from '../../messageLabels.ts';
import {
  referenceClaudeCodeParse,
  referenceSourceLines,
} from '../../testing/claudeCodeJsonl.reference.ts';
import type { JsonlLine } from '../json.ts';
import { claudeCodeJsonlParser } from './claudeCodeJsonl.ts';

/** Freeze a parsed value all through: a parse that wrote into its records would throw. */
function deepFreeze<T>(v: T): T {
  if (v !== null && typeof v === 'object') {
    for (const x of Object.values(v)) deepFreeze(x);
    Object.freeze(v);
  }
  return v;
}

const arbBlock = fc.oneof(
  fc.record({ type: fc.constant('text'), text: fc.constantFrom('', ' ', 'hi') }),
  fc.record({ type: fc.constant('text'), text: fc.constant('x'), cache_control: fc.constant({}) }),
  fc.record({
    type: fc.constant('tool_use'),
    id: fc.constantFrom('t1', 't2', 't3'),
    name: fc.constantFrom('Bash', 'Read'),
    input: fc.constant({ a: 1 }),
  }),
  fc.record({
    type: fc.constant('tool_result'),
    tool_use_id: fc.constantFrom('t1', 't2', 't9'),
    content: fc.oneof(fc.constant('ok'), fc.constant([{ type: 'text', text: 'r' }])),
    is_error: fc.constantFrom(true, false, undefined),
  }),
  fc.record({
    type: fc.constant('thinking'),
    thinking: fc.constant('hm'),
    signature: fc.constant('s'),
  }),
  fc.record({ type: fc.constantFrom('image', 'weird'), data: fc.constant(1) }),
  fc.constant('bare string'),
);
const arbContent = fc.oneof(
  { weight: 6, arbitrary: fc.array(arbBlock, { maxLength: 3 }) },
  { weight: 2, arbitrary: fc.constantFrom('prompt', '') },
  { weight: 1, arbitrary: fc.constantFrom(null, undefined, 7) },
);
const arbUsage = fc.oneof(
  fc.record(
    {
      input_tokens: fc.nat(50),
      output_tokens: fc.nat(50),
      cache_read_input_tokens: fc.nat(50),
      cache_creation_input_tokens: fc.nat(50),
    },
    { requiredKeys: [] },
  ),
  fc.constantFrom(undefined, null, 'x'),
);
const uuids = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
/** One log line's value (before its uuid chain is set), or a line that is no object. */
const arbLine = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record(
      {
        type: fc.constant('assistant'),
        message: fc.record(
          {
            id: fc.constantFrom('m1', 'm2', 'm3'),
            model: fc.constantFrom('claude-x', '<synthetic>'),
            content: arbContent,
            usage: arbUsage,
          },
          { requiredKeys: ['content'] },
        ),
        isSidechain: fc.boolean(),
        isApiErrorMessage: fc.constant(true),
        timestamp: fc.constant('t'),
      },
      { requiredKeys: ['type', 'message'] },
    ),
  },
  {
    weight: 6,
    arbitrary: fc.record(
      {
        type: fc.constant('user'),
        message: fc.record({ content: arbContent }),
        isSidechain: fc.boolean(),
        isCompactSummary: fc.constant(true),
        timestamp: fc.constant('t'),
      },
      { requiredKeys: ['type', 'message'] },
    ),
  },
  {
    weight: 1,
    arbitrary: fc.record(
      {
        type: fc.constant('system'),
        subtype: fc.constantFrom('compact_boundary', 'other'),
        compactMetadata: fc.record(
          { trigger: fc.constantFrom('auto', 'manual'), preTokens: fc.nat(9) },
          { requiredKeys: [] },
        ),
      },
      { requiredKeys: ['type', 'subtype'] },
    ),
  },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('summary'), summary: fc.constant('s') }) },
  {
    weight: 1,
    arbitrary: fc.record({ type: fc.constantFrom('progress', 'user'), message: fc.constant('no') }),
  },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(3, null, [1]) },
);
/**
 * A log's lines: mostly a uuid chain in file order (each line's parent the line before), with
 * sidechains, parents named out of order, repeated uuids, lines that are not objects and gaps in
 * the line numbers, so both reading orders (file order and the reordering) are taken.
 */
const arbLog = fc
  .array(
    fc.tuple(
      arbLine,
      fc.constantFrom(...uuids),
      fc.oneof({ weight: 5, arbitrary: fc.constant('prev') }, fc.constantFrom(null, ...uuids)),
      fc.nat(2),
    ),
    { maxLength: 30 },
  )
  .map((rows) => {
    const lines: JsonlLine[] = [];
    let prev: string | null = null;
    let line = 0;
    rows.forEach(([value, uuid, parent, gap], i) => {
      line += 1 + gap;
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        lines.push({ line, value });
        return;
      }
      const u = `${uuid}${i % 3}`;
      const parentUuid = parent === 'prev' ? prev : parent;
      lines.push({ line, value: { parentUuid, uuid: u, sessionId: 's', ...value } });
      prev = u;
    });
    return deepFreeze(lines);
  });

describe('the Claude Code parse agrees with the parse before issue 38 cut its allocations', () => {
  it('on any log: messages (blocks, raw lines, paths, meta), usage, settings and warnings', () => {
    fc.assert(
      fc.property(arbLog, (lines) => {
        const got = claudeCodeJsonlParser.parse({ kind: 'jsonl', lines, brokenLines: [] });
        const want = referenceClaudeCodeParse(lines);
        expect(got.ok).toBe(true);
        if (!got.ok) return;
        expect(got.value).toStrictEqual(want);
        // Same keys in the same order (what the page and the exports serialise).
        expect(JSON.stringify(got.value)).toBe(JSON.stringify(want));
      }),
      { numRuns: 1500 },
    );
  }, 60_000);

  it('names any ascending file lines as before (one line without a list of runs)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 8 }),
        (steps) => {
          const lines = steps.map(
            (
              (sum) => (d) =>
                (sum += d === 9 ? 1 : d)
            )(0),
          );
          expect(sourceLines(lines)).toBe(referenceSourceLines(lines));
        },
      ),
    );
  });
});
