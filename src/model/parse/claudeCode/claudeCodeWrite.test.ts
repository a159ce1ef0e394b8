/**
 * Writing a Claude Code log back: a reply read from several lines is written over those lines
 * (or, edited, as one line its children are re-pointed to), so every `parentUuid` in the written
 * file names a line of it, and write → read gives the same messages (`is_error: false` included).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactTranscript } from '../../redact.ts';
import { parsedText } from '../../testing/index.ts';
import type { Block, Transcript } from '../../types.ts';
import { writeTranscript } from '../../write.ts';
import { parseTranscript } from '../index.ts';

const env = { isSidechain: false, userType: 'external', cwd: '/w', sessionId: 's1' };
const userLine = (uuid: string, parentUuid: string | null, content: unknown) => ({
  type: 'user',
  uuid,
  parentUuid,
  ...env,
  message: { role: 'user', content },
});
const replyLine = (uuid: string, parentUuid: string, id: string, block: unknown, out: number) => ({
  type: 'assistant',
  uuid,
  parentUuid,
  ...env,
  message: {
    id,
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-5',
    content: [block],
    usage: { input_tokens: 5, output_tokens: out },
  },
});
const jsonl = (lines: unknown[]) => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';

/** One reply over three lines (a-0002…a-0004); the next line's parent is the reply's last. */
const SPLIT_REPLY = jsonl([
  userLine('u-0001', null, 'List the files.'),
  replyLine('a-0002', 'u-0001', 'msg_1', { type: 'thinking', thinking: 'ls', signature: 's' }, 1),
  replyLine('a-0003', 'a-0002', 'msg_1', { type: 'text', text: 'Listing them.' }, 2),
  replyLine('a-0004', 'a-0003', 'msg_1', { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { c: 'ls' } }, 3), // prettier-ignore
  userLine('u-0005', 'a-0004', [
    { type: 'tool_result', tool_use_id: 'toolu_1', content: 'a.txt', is_error: false },
  ]),
]);

const lines = (text: string) =>
  text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/** Parents the file names that are not in it (empty when the chain is whole). */
function danglingParents(text: string): unknown[] {
  const ls = lines(text);
  const uuids = new Set(ls.map((l) => l.uuid));
  return ls.map((l) => l.parentUuid).filter((p) => p !== null && p !== undefined && !uuids.has(p));
}

/** The page's reading without the lines' raw values (as a large log's transcript holds it). */
const withoutRaw = (t: Transcript): Transcript => ({
  ...t,
  messages: t.messages.map((m) => ({ ...m, raw: undefined })),
});

const read = (text: string) => {
  const r = parseTranscript(text, { format: 'claude-code-jsonl', name: 'x.jsonl' });
  if (!r.ok) throw new Error(r.error.message);
  return r.value.transcript;
};
const shape = (t: Transcript) => t.messages.map((m) => ({ role: m.role, blocks: m.blocks }));

function expectWrittenBack(t: Transcript, label: string): string {
  const text = writeTranscript(t);
  expect(danglingParents(text), label).toEqual([]);
  expect(shape(read(text)), label).toEqual(shape(t));
  return text;
}

describe('claude-code-jsonl writer: a reply read from several lines', () => {
  const t = parsedText(SPLIT_REPLY, { name: 'x.jsonl' }).transcript;

  it('is written over its own lines: same uuids, chain and is_error: false', () => {
    const text = expectWrittenBack(withoutRaw(t), 'as read');
    expect(lines(text).map((l) => [l.uuid, l.parentUuid])).toEqual([
      ['u-0001', null],
      ['a-0002', 'u-0001'],
      ['a-0003', 'a-0002'],
      ['a-0004', 'a-0003'],
      ['u-0005', 'a-0004'],
    ]);
    expect(text).toBe(SPLIT_REPLY);
  });

  it('the sample log read without its lines is written back byte for byte', () => {
    const file = path.resolve(
      import.meta.dirname,
      '../../../../public/samples/claude-code-session.jsonl',
    );
    const sample = readFileSync(file, 'utf8');
    const s = parsedText(sample, { name: 'x.jsonl' }).transcript;
    expect(writeTranscript(withoutRaw(s))).toBe(sample);
  });

  it('keeps its lines in the structure-only copy (ids renamed), the chain whole', () => {
    const text = expectWrittenBack(redactTranscript(t), 'copy');
    expect(lines(text)).toHaveLength(5);
    expect(text).toContain('"is_error":false');
  });

  it('edited (a block fewer) is one line, and the next line is re-pointed to it', () => {
    const edited = withoutRaw(t);
    const reply = edited.messages[1];
    if (!reply) throw new Error('no reply');
    reply.blocks = reply.blocks.slice(1);
    const text = expectWrittenBack(edited, 'edited');
    expect(lines(text).map((l) => [l.uuid, l.parentUuid])).toEqual([
      ['u-0001', null],
      ['a-0002', 'u-0001'],
      ['u-0005', 'a-0002'],
    ]);
  });

  it('removed: the next line is re-pointed to the line before it', () => {
    const text = expectWrittenBack({ ...t, messages: [t.messages[0], t.messages[2]] } as Transcript, 'cut'); // prettier-ignore
    expect(lines(text).map((l) => [l.uuid, l.parentUuid])).toEqual([
      ['u-0001', null],
      ['u-0005', 'u-0001'],
    ]);
  });

  it('an Anthropic body written from its blocks keeps is_error: false', () => {
    const body = {
      model: 'claude-sonnet-4-5',
      messages: [
        { role: 'user', content: 'List the files.' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: {} }] }, // prettier-ignore
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'a', is_error: false }] }, // prettier-ignore
      ],
    };
    const a = parsedText(JSON.stringify(body)).transcript;
    expect(writeTranscript(withoutRaw(a))).toContain('"is_error": false');
  });
});

/** A log of turns: user texts, replies of 1–4 blocks one per line, results (interleaved or after). */
const arbLog = fc
  .array(
    fc.record({
      kinds: fc.array(fc.constantFrom('thinking', 'text', 'call'), { minLength: 1, maxLength: 4 }),
      resultsBetween: fc.boolean(),
      errors: fc.array(fc.constantFrom(true, false, undefined), { minLength: 4, maxLength: 4 }),
      prompt: fc.boolean(),
    }),
    { minLength: 1, maxLength: 5 },
  )
  .map((turns) => {
    const out: unknown[] = [];
    let parent: string | null = null;
    const emit = (make: (uuid: string, parent: string | null) => unknown) => {
      const uuid = `l-${out.length}`;
      out.push(make(uuid, parent));
      parent = uuid;
    };
    turns.forEach((turn, n) => {
      if (turn.prompt || n === 0) emit((u, p) => userLine(u, p, `Prompt ${n}`));
      const results: unknown[] = [];
      turn.kinds.forEach((kind, k) => {
        const block: Block | Record<string, unknown> =
          kind === 'thinking'
            ? { type: 'thinking', thinking: `t${k}`, signature: 'sig' }
            : kind === 'text'
              ? { type: 'text', text: `Text ${k}` }
              : { type: 'tool_use', id: `toolu_${n}_${k}`, name: 'Bash', input: { k } };
        emit((u, p) => replyLine(u, p as string, `msg_${n}`, block, k + 1));
        if (kind !== 'call') return;
        const e = turn.errors[k];
        const r = { type: 'tool_result', tool_use_id: `toolu_${n}_${k}`, content: `out ${k}`, ...(e === undefined ? {} : { is_error: e }) }; // prettier-ignore
        if (turn.resultsBetween) emit((u, p) => userLine(u, p, [r]));
        else results.push(r);
      });
      for (const r of results) emit((u, p) => userLine(u, p, [r]));
    });
    return jsonl(out);
  });

describe('claude-code-jsonl writer: property over generated logs', () => {
  it('every parentUuid names a line of the file, and write → read is the identity on messages', () => {
    fc.assert(
      fc.property(arbLog, fc.array(fc.boolean(), { minLength: 30, maxLength: 30 }), (log, keep) => {
        const t = read(log);
        const cut: Transcript = { ...t, messages: t.messages.filter((_, i) => keep[i]) };
        expectWrittenBack(t, 'as read');
        expectWrittenBack(withoutRaw(t), 'as read, no raw');
        expectWrittenBack(redactTranscript(t), 'structure-only copy');
        if (cut.messages.length === 0) return;
        expectWrittenBack(cut, 'messages removed');
        expectWrittenBack(withoutRaw(cut), 'messages removed, no raw');
      }),
      { numRuns: 200 },
    );
  });
});
