/**
 * Writing the archive formats back (inspect-log, swe-agent, chatgpt-export, claude-ai-export):
 * an untouched transcript reads back with the same messages; a structure-only copy (every message
 * rebuilt from its blocks, the top level reduced by redact.ts) reads back in the same format with
 * the same roles, tool calls and pairing; a message removed by a cut stays removed. Our own small
 * fixtures, each with a call and its result (reported case 02 before its trim) plus a text reply.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../analyze.ts';
import { redactTranscript } from '../redact.ts';
import type { FormatId, Message, Transcript } from '../types.ts';
import { writeTranscript } from '../write.ts';
import { parseDocument, parseTranscript } from './index.ts';

const Q = 'How many kilometres is 26.2 miles?';
const ARGS = { value: 26.2, from: 'mi', to: 'km' };

const FIXTURES: [FormatId, unknown][] = [
  [
    'inspect-log',
    {
      version: 2,
      eval: { model: 'openai/gpt-4o-mini' },
      samples: [
        {
          id: 1,
          epoch: 1,
          messages: [
            { role: 'user', content: Q },
            {
              role: 'assistant',
              content: '',
              tool_calls: [{ id: 'call_cv01', function: 'convert_units', arguments: ARGS }],
            },
            {
              role: 'tool',
              tool_call_id: 'call_cv01',
              function: 'convert_units',
              content: '42.16',
            },
            { role: 'assistant', content: 'About 42.16 km.' },
          ],
        },
      ],
    },
  ],
  [
    'swe-agent',
    {
      trajectory: [],
      info: { exit_status: 'submitted' },
      history: [
        { role: 'user', content: Q, agent: 'main', message_type: 'observation' },
        {
          role: 'assistant',
          content: 'Convert it.',
          agent: 'main',
          message_type: 'action',
          tool_calls: [
            {
              id: 'call_cv01',
              type: 'function',
              function: { name: 'convert_units', arguments: JSON.stringify(ARGS) },
            },
          ],
        },
        {
          role: 'tool',
          content: '42.16',
          agent: 'main',
          message_type: 'observation',
          tool_call_ids: ['call_cv01'],
        },
        { role: 'assistant', content: 'About 42.16 km.', agent: 'main', message_type: 'action' },
      ],
    },
  ],
  [
    'chatgpt-export',
    [
      {
        title: 'Units',
        current_node: 'd',
        mapping: {
          r: { id: 'r', parent: null, children: ['a'], message: null },
          a: {
            id: 'a',
            parent: 'r',
            children: ['b'],
            message: { author: { role: 'user' }, content: { content_type: 'text', parts: [Q] } },
          },
          b: {
            id: 'b',
            parent: 'a',
            children: ['c'],
            message: {
              author: { role: 'assistant' },
              recipient: 'convert_units',
              content: { content_type: 'code', text: JSON.stringify(ARGS) },
            },
          },
          c: {
            id: 'c',
            parent: 'b',
            children: ['d'],
            message: {
              author: { role: 'tool', name: 'convert_units' },
              recipient: 'all',
              content: { content_type: 'text', parts: ['42.16'] },
            },
          },
          d: {
            id: 'd',
            parent: 'c',
            children: [],
            message: {
              author: { role: 'assistant' },
              recipient: 'all',
              content: { content_type: 'text', parts: ['About 42.16 km.'] },
            },
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
        name: 'Units',
        chat_messages: [
          { sender: 'human', text: Q, content: [{ type: 'text', text: Q }] },
          {
            sender: 'assistant',
            text: '',
            content: [
              { type: 'tool_use', id: 'toolu_01CV', name: 'convert_units', input: ARGS },
              {
                type: 'tool_result',
                tool_use_id: 'toolu_01CV',
                name: 'convert_units',
                content: [{ type: 'text', text: '42.16' }],
                is_error: false,
              },
              { type: 'text', text: 'About 42.16 km.' },
            ],
          },
        ],
      },
    ],
  ],
];

function read(value: unknown): Transcript {
  const r = parseDocument({ kind: 'json', value });
  if (!r.ok) throw new Error(r.error.message);
  return r.value.transcript;
}

function reread(text: string): Transcript {
  const r = parseTranscript(text);
  if (!r.ok) throw new Error(r.error.message);
  return r.value.transcript;
}

/** What a reader sees of a transcript: roles, tool calls (name, id, input) and pair statuses. */
function shape(t: Transcript) {
  return {
    roles: t.messages.map((m) => m.role),
    calls: t.messages.flatMap((m) =>
      m.blocks.flatMap((b) => (b.type === 'tool_use' ? [[b.name, b.input]] : [])),
    ),
    pairs: analyze(t).pairs.map((p) => p.status),
  };
}

describe('archive formats write back', () => {
  for (const [format, value] of FIXTURES) {
    describe(format, () => {
      const t = read(value);

      it('the fixture is read as this format with one answered call', () => {
        expect(t.format).toBe(format);
        expect(analyze(t).pairs.map((p) => p.status)).toEqual(['answered']);
      });

      it('untouched: the same messages read back', () => {
        const back = reread(writeTranscript(t));
        expect(back.format).toBe(format);
        expect(back.messages.map((m) => [m.role, m.blocks])).toEqual(
          t.messages.map((m) => [m.role, m.blocks]),
        );
      });

      it('every message rebuilt from its blocks: same roles, calls and pairing', () => {
        const rebuilt: Transcript = {
          ...t,
          messages: t.messages.map((m): Message => ({ ...m, raw: undefined })),
        };
        const back = reread(writeTranscript(rebuilt));
        expect(back.format).toBe(format);
        expect(shape(back)).toEqual(shape(t));
      });

      it('a structure-only copy reads back in this format with the same pairing', () => {
        const back = reread(writeTranscript(redactTranscript(t)));
        expect(back.format).toBe(format);
        expect(shape(back).pairs).toEqual(shape(t).pairs);
        expect(shape(back).roles).toEqual(shape(t).roles);
      });

      it('a cut (the tool result removed) stays cut and is flagged', () => {
        const cut: Transcript = {
          ...t,
          messages: t.messages
            .map((m) => ({
              ...m,
              blocks: m.blocks.filter((b) => b.type !== 'tool_result'),
              raw: m.blocks.some((b) => b.type === 'tool_result') ? undefined : m.raw,
            }))
            .filter((m) => m.blocks.length > 0)
            .map((m, i) => ({ ...m, index: i })),
        };
        const back = reread(writeTranscript(cut));
        expect(back.format).toBe(format);
        expect(analyze(back).pairs.map((p) => p.status)).toEqual(['unanswered']);
      });
    });
  }
});
