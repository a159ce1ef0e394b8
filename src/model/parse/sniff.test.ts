/**
 * Detection across formats: the log, framework and archive parsers (every category but `request`
 * in the registry) claim their own samples unaided and none of the other formats' samples or our
 * case fixtures. The reported cases and real logs are checked by sniff.corpus.test.ts.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CASE_FIXTURES } from '../testing/cases.ts';
import type { FormatId } from '../types.ts';
import { detectFormats, readSource } from './index.ts';
import { formatsOf } from './registry.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const samplesDir = path.join(repoRoot, 'public/samples');
/** Archive formats (Inspect logs, SWE-agent trajectories, ChatGPT and claude.ai exports). */
const ARCHIVES = formatsOf('archive');
const MINE = [...formatsOf('log'), ...formatsOf('framework'), ...ARCHIVES];

interface SampleEntry {
  file: string;
  format: FormatId;
  requests?: number;
}
const index = JSON.parse(
  readFileSync(path.join(samplesDir, 'index.json'), 'utf8'),
) as SampleEntry[];

function detect(text: string, name?: string) {
  const src = readSource(text, name);
  if (!src.ok) throw new Error(src.error.message);
  return detectFormats(src.value);
}

describe('samples in public/samples', () => {
  it('every listed sample exists', () => {
    for (const s of index) expect(existsSync(path.join(samplesDir, s.file)), s.file).toBe(true);
  });

  for (const s of index) {
    it(`${s.file} (${s.format})`, () => {
      // No file name hint: detection must work on content alone.
      const found = detect(readFileSync(path.join(samplesDir, s.file), 'utf8'));
      if (MINE.includes(s.format)) expect(found[0]?.format).toBe(s.format);
      // A file of several requests is an archive (each request is then read as `s.format`).
      else if (s.requests !== undefined) expect(ARCHIVES).toContain(found[0]?.format);
      else expect(found.filter((c) => MINE.includes(c.format))).toEqual([]);
    });
  }
});

describe('case fixtures: no log, framework or archive parser claims them', () => {
  for (const c of CASE_FIXTURES)
    it(c.name, () => {
      const found = detectFormats({ kind: 'json', value: c.transcript });
      expect(found.filter((x) => MINE.includes(x.format))).toEqual([]);
    });
});

/** Small archive values of our own, one per format, shaped as docs/formats.md#archives describes. */
const ARCHIVE_FIXTURES: [FormatId, unknown][] = [
  [
    'inspect-log',
    {
      version: 2,
      eval: { model: 'openai/gpt-4o-mini' },
      samples: [
        {
          id: 1,
          messages: [
            { role: 'user', content: 'Convert 26.2 mi.' },
            {
              role: 'assistant',
              content: '',
              tool_calls: [{ id: 'c1', function: 'convert', arguments: {} }],
            },
            { role: 'tool', tool_call_id: 'c1', function: 'convert', content: '42.16' },
          ],
        },
      ],
    },
  ],
  [
    'swe-agent',
    {
      trajectory: [],
      info: {},
      history: [
        {
          role: 'system',
          content: 'You are a programmer.',
          agent: 'main',
          message_type: 'system_prompt',
        },
        {
          role: 'assistant',
          content: 'List files.',
          agent: 'main',
          message_type: 'action',
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'bash', arguments: '{}' } }],
        },
        {
          role: 'tool',
          content: 'a.py',
          agent: 'main',
          message_type: 'observation',
          tool_call_ids: ['c1'],
        },
      ],
    },
  ],
  [
    'chatgpt-export',
    [
      {
        title: 'Hi',
        current_node: 'b',
        mapping: {
          a: { id: 'a', parent: null, children: ['b'], message: null },
          b: {
            id: 'b',
            parent: 'a',
            children: [],
            message: { author: { role: 'user' }, content: { content_type: 'text', parts: ['Hi'] } },
          },
        },
      },
    ],
  ],
  [
    'claude-ai-export',
    [
      {
        uuid: 'c1',
        name: 'Hi',
        chat_messages: [
          { uuid: 'm1', sender: 'human', text: 'Hi', content: [{ type: 'text', text: 'Hi' }] },
          {
            uuid: 'm2',
            sender: 'assistant',
            text: 'Hello',
            content: [{ type: 'text', text: 'Hello' }],
          },
        ],
      },
    ],
  ],
];

describe('archive formats claim their own shape and nothing else claims it', () => {
  for (const [format, value] of ARCHIVE_FIXTURES) {
    it(format, () => {
      const found = detectFormats({ kind: 'json', value });
      expect(found.map((c) => c.format)).toEqual([format]);
    });
  }
});

describe('JSON Lines told from one JSON document', () => {
  const line = (o: unknown) => JSON.stringify(o);
  const user = (text: string) => ({ type: 'user', message: { role: 'user', content: text } });

  it('a pasted log whose first line is longer than the first-line lookup is still JSON Lines', () => {
    // 1.2 million characters on line 1: past the 1 MiB window readSource looks in first.
    const text = [line(user('x'.repeat(1_200_000))), line(user('next'))].join('\n');
    const src = readSource(text);
    expect(src.ok && src.value.kind).toBe('jsonl');
    expect(src.ok && src.value.kind === 'jsonl' && src.value.lines.map((l) => l.line)).toEqual([
      1, 2,
    ]);
  });

  it('a minified document with no newline is one JSON document', () => {
    const src = readSource(line({ messages: [{ role: 'user', content: 'hi' }] }));
    expect(src.ok && src.value.kind).toBe('json');
  });

  it('a pretty-printed document is one JSON document', () => {
    const src = readSource(
      JSON.stringify({ messages: [{ role: 'user', content: 'hi' }] }, null, 2),
    );
    expect(src.ok && src.value.kind).toBe('json');
  });
});
