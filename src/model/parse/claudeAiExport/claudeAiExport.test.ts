/**
 * claude.ai data exports: our own small `conversations.json` values in the shape of formats.md
 * §9d (`chat_messages` with sender human/assistant, Messages-API content blocks), carrying shared
 * case 06 (orphan after a token trim, its expected verdict kept).
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../analyze.ts';
import { validateTranscript } from '../../validate/index.ts';
import { parsed } from '../../testing/index.ts';
import { claudeAiExportParser, listClaudeAiConversations } from './claudeAiExport.ts';

const human = (text: string, extra: Record<string, unknown> = {}) => ({
  uuid: `h-${text.length}`,
  sender: 'human',
  text,
  content: [{ type: 'text', text }],
  created_at: '2026-07-04T05:36:40Z',
  attachments: [],
  files: [],
  ...extra,
});
const assistant = (content: unknown[]) => ({
  uuid: 'a',
  sender: 'assistant',
  text: '',
  content,
  created_at: '2026-07-04T05:37:06Z',
  attachments: [],
  files: [],
});

/** A web fetch run by claude.ai inside the assistant turn, then a text answer (valid). */
const fetchConv = {
  uuid: 'c1',
  name: 'Seminar list',
  created_at: '2026-07-04T05:36:40Z',
  chat_messages: [
    human('Which seminars are listed?'),
    assistant([
      { type: 'text', text: "I'll check the page." },
      {
        type: 'tool_use',
        id: 'toolu_01F',
        name: 'web_fetch',
        input: { url: 'https://example.com' },
      },
      {
        type: 'tool_result',
        tool_use_id: 'toolu_01F',
        name: 'web_fetch',
        content: [{ type: 'text', text: '<html>…</html>' }],
        is_error: false,
      },
      { type: 'text', text: 'Three seminars are listed.' },
    ]),
  ],
};

describe('claude-ai-export', () => {
  it('is detected without a hint; tools run inside the assistant turn pair there', () => {
    const p = parsed([fetchConv]);
    expect(p.candidates[0]?.format).toBe('claude-ai-export');
    expect(p.ambiguous).toBe(false);
    const t = p.transcript;
    expect(t.format).toBe('claude-ai-export');
    expect(t.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(t.messages[1]?.blocks.map((b) => b.type)).toEqual([
      'text',
      'tool_use',
      'tool_result',
      'text',
    ]);
    expect(t.messages[0]?.meta?.timestamp).toBe('2026-07-04T05:36:40Z');
    expect(analyze(t).pairs.map((x) => x.status)).toEqual(['answered']);
    const v = validateTranscript(t);
    expect(v.provider).toBe('anthropic');
    expect(v.valid).toBe(true);
  });

  it('case 06 (orphan after a token trim): a tool_result with no tool_use before it is flagged', () => {
    // The trim kept a result whose call was cut off; in an export it sits in the assistant turn.
    const t = parsed({
      uuid: 'c6',
      name: 'Trimmed',
      chat_messages: [
        assistant([
          {
            type: 'tool_result',
            tool_use_id: 'toolu_01CKT',
            name: 'search',
            content: [{ type: 'text', text: '3 results' }],
          },
          { type: 'text', text: 'Found three.' },
        ]),
        human('Thanks, and the fourth?'),
      ],
    }).transcript;
    expect(analyze(t).pairs.map((x) => [x.status, x.id])).toEqual([['orphan', 'toolu_01CKT']]);
    const v = validateTranscript(t);
    expect(v.valid).toBe(false);
    expect(v.violations[0]).toMatchObject({ messageIndex: 0, ids: ['toolu_01CKT'] });
  });

  it('several conversations: one request each, requestIndex picks one', () => {
    const other = { uuid: 'c2', name: 'Hi', chat_messages: [human('Hi')] };
    expect(listClaudeAiConversations([fetchConv, other]).map((e) => e.label)).toEqual([
      '#1 · Seminar list · 2 messages',
      '#2 · Hi · 1 messages',
    ]);
    const p = parsed([fetchConv, other], 0);
    expect(p.requests).toHaveLength(2);
    expect(p.transcript.messages).toHaveLength(2);
    expect(parsed([fetchConv, other], 1).transcript.messages).toHaveLength(1);
  });

  it('falls back to text, reads attachments and thinking; bad items become other blocks', () => {
    const t = parsed({
      uuid: 'c3',
      name: 'Mixed',
      chat_messages: [
        human('See the file', {
          content: [],
          attachments: [
            {
              file_name: 'a.txt',
              file_type: 'text/plain',
              file_size: 5,
              extracted_content: 'hello',
            },
            { file_name: 'b.pdf', file_type: 'application/pdf', file_size: 900 },
          ],
          files: [{ file_name: 'c.png', file_kind: 'image' }],
        }),
        assistant([{ type: 'thinking', thinking: 'Read it.' }, { type: 'mystery' }, 7]),
        { sender: 'robot', text: 'x' },
        null,
      ],
    }).transcript;
    expect(t.messages[0]?.blocks).toEqual([
      { type: 'text', text: 'See the file' },
      { type: 'text', text: 'hello' },
      { type: 'document', mediaType: 'application/pdf', bytes: 900 },
      { type: 'image' },
    ]);
    expect(t.messages[1]?.blocks).toEqual([
      { type: 'thinking', thinking: 'Read it.' },
      { type: 'other', label: 'mystery', raw: { type: 'mystery' } },
      { type: 'other', label: 'number', raw: 7 },
    ]);
    expect(t.messages[2]?.blocks[0]).toMatchObject({ type: 'other', label: 'sender robot' });
    expect(t.messages[3]?.blocks[0]).toMatchObject({ type: 'other', label: 'not an object' });
  });

  it('tool blocks without ids (older exports) pair by position and name within the turn', () => {
    const t = parsed({
      uuid: 'c4',
      chat_messages: [
        human('Draw it'),
        assistant([
          { type: 'tool_use', name: 'artifacts', input: {} },
          { type: 'tool_result', name: 'artifacts', content: [{ type: 'text', text: 'OK' }] },
        ]),
      ],
    }).transcript;
    expect(t.warnings.join(' ')).toMatch(/2 tool block\(s\) carry no id/);
    expect(t.messages[1]?.blocks).toMatchObject([
      { type: 'tool_use', id: 'a#0' },
      { type: 'tool_result', toolUseId: 'a#0' },
    ]);
    expect(analyze(t).pairs.map((p) => p.status)).toEqual(['answered']);
    expect(validateTranscript(t).valid).toBe(true);
  });

  it('sniff: 0 for Anthropic bodies, ChatGPT exports and other JSON', () => {
    expect(claudeAiExportParser.sniff({ messages: [{ role: 'user', content: 'x' }] })).toBe(0);
    expect(claudeAiExportParser.sniff([{ mapping: {}, current_node: 'x' }])).toBe(0);
    expect(claudeAiExportParser.sniff({ chat_messages: [{ role: 'user' }] })).toBe(0);
    expect(claudeAiExportParser.sniff(7)).toBe(0);
    expect(claudeAiExportParser.parse({ kind: 'json', value: [] }).ok).toBe(false);
  });
});
