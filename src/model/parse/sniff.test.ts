/**
 * Detection across formats: the log, framework and archive parsers (claude-code-jsonl, codex-jsonl,
 * langchain, vercel-ai, inspect-log, swe-agent, chatgpt-export, claude-ai-export) claim their own samples unaided and none of the other formats' samples
 * or the shared cases.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FormatId } from '../types.ts';
import { detectFormats, readSource } from './index.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const samplesDir = path.join(repoRoot, 'public/samples');
const casesDir = path.join(path.resolve(repoRoot, '../shared'), 'cases');
/** Archive formats (Inspect logs, SWE-agent trajectories, ChatGPT and claude.ai exports). */
const ARCHIVES: FormatId[] = ['inspect-log', 'swe-agent', 'chatgpt-export', 'claude-ai-export'];
const MINE: FormatId[] = [
  'claude-code-jsonl',
  'codex-jsonl',
  'langchain',
  'vercel-ai',
  ...ARCHIVES,
];

interface SampleEntry {
  file: string;
  format: FormatId;
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
      else expect(found.filter((c) => MINE.includes(c.format))).toEqual([]);
    });
  }
});

describe.skipIf(!existsSync(casesDir))(
  'shared cases (skipped when ../shared/cases is absent)',
  () => {
    const files = existsSync(casesDir)
      ? readdirSync(casesDir).filter((f) => f.endsWith('.json'))
      : [];
    it('there are cases to check', () => expect(files.length).toBeGreaterThan(0));
    for (const f of files) {
      it(`${f}: no log or framework parser claims it`, () => {
        const c = JSON.parse(readFileSync(path.join(casesDir, f), 'utf8')) as Record<
          string,
          unknown
        >;
        for (const key of ['transcript', 'before_trim', 'source_transcript']) {
          if (c[key] === undefined) continue;
          const found = detectFormats({ kind: 'json', value: c[key] });
          expect(
            found.filter((x) => MINE.includes(x.format)),
            `${f} ${key}`,
          ).toEqual([]);
        }
      });
    }
  },
);

/** Small archive values of our own, one per format, shaped like formats.md §9d and SOURCES.md §6. */
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

const realDir = path.join(path.resolve(repoRoot, '../shared'), 'real');
const realFiles = existsSync(realDir)
  ? readdirSync(realDir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .flatMap((d) => readdirSync(path.join(realDir, d.name)).map((f) => path.join(d.name, f)))
  : [];
if (realFiles.length === 0)
  console.warn(`skipped: ${realDir} not found (real files vs archive sniffers)`);

describe.skipIf(realFiles.length === 0)(
  'real files: archive parsers claim only their own (skipped when ../shared/real is absent)',
  () => {
    const own: Record<string, FormatId> = {
      'inspect-log': 'inspect-log',
      'swe-agent': 'swe-agent',
    };
    for (const f of realFiles) {
      it(f, () => {
        const found = detect(readFileSync(path.join(realDir, f), 'utf8'));
        const dir = f.split(path.sep)[0] ?? '';
        const archive = found.filter((c) => ARCHIVES.includes(c.format)).map((c) => c.format);
        expect(archive).toEqual(own[dir] ? [own[dir]] : []);
        if (own[dir]) expect(found[0]?.format).toBe(own[dir]);
      });
    }
  },
);

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
