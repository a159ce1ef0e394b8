import { describe, expect, it } from 'vitest';
import {
  BEDROCK_IMAGE,
  CHAT_ASSISTANT_IMAGE,
  GEMINI_INLINE_IMAGE,
  RESPONSES_IMAGE,
} from '../testing/shapes.ts';
import { MEDIA_BODIES } from '../testing/shareCopy.fixtures.ts';
import { parsedText } from '../testing/index.ts';
import { CHARS_PER_4 } from '../tokens.ts';
import { validateTranscript } from '../validate/index.ts';
import { checkedStructureCopy } from './shareCopy.ts';

const anthropic = (messages: unknown[]) =>
  parsedText(JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 100, messages })).transcript;

describe('checkedStructureCopy: the structure-only copy and where it breaks the contract', () => {
  it('keeps the whitespace around a text, and with it a final assistant text’s verdict (A12)', () => {
    const t = anthropic([
      { role: 'user', content: 'Describe the function.' },
      { role: 'assistant', content: 'It returns one. ' },
    ]);
    const codes = (x: typeof t) => validateTranscript(x, 'anthropic').violations.map((v) => v.code);
    expect(codes(t)).toEqual(['A12']);
    const copy = checkedStructureCopy(t, CHARS_PER_4);
    expect(copy.problems).toEqual([]);
    const back = parsedText(copy.text).transcript;
    expect(codes(back)).toEqual(['A12']);
    const last = back.messages.at(-1)?.blocks[0];
    expect(last?.type === 'text' && last.text.endsWith(' ')).toBe(true);
  });

  it('a document by URL or file id, and a base64 one, keep their token counts (no URL kept)', () => {
    const t = anthropic([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Summarise these.' },
          { type: 'document', source: { type: 'url', url: 'https://secret.example.com/Q3.pdf' } },
          { type: 'document', source: { type: 'file', file_id: 'file_011CSecretIdentifier' } },
          {
            type: 'document',
            source: {
              type: 'base64',
              media_type: 'application/pdf',
              data: 'JVBERi0xLjQK'.repeat(40),
            },
          },
        ],
      },
      { role: 'assistant', content: 'Done.' },
      { role: 'user', content: 'Thanks.' },
    ]);
    const copy = checkedStructureCopy(t, CHARS_PER_4);
    expect(copy.problems).toEqual([]);
    expect(copy.text).not.toContain('secret.example.com');
    expect(copy.text).not.toContain('file_011CSecretIdentifier');
    const back = parsedText(copy.text).transcript.messages[0]?.blocks;
    expect(back?.map((b) => (b.type === 'document' ? [b.source, b.bytes] : b.type))).toEqual([
      'text',
      ['url', undefined],
      ['file', undefined],
      [undefined, 360],
    ]);
  });

  it('names what a copy would change: a Chat assistant image its writer cannot send back', () => {
    const t = parsedText(JSON.stringify(CHAT_ASSISTANT_IMAGE)).transcript;
    expect(t.format).toBe('openai-chat');
    const copy = checkedStructureCopy(t, CHARS_PER_4);
    expect(copy.problems).toEqual([
      'messages[1]: assistant:text,image in the original, assistant:text in the copy',
      'tokens: 6,1606,5 in the original, 6,6,5 in the copy',
    ]);
  });

  it('keeps a Codex rollout user image: the copy reads back the same, with none of its payload', () => {
    const line = (type: string, payload: unknown) =>
      JSON.stringify({ timestamp: '2026-11-28T14:08:00.000Z', type, payload });
    const image = {
      type: 'input_image',
      image_url: 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB',
    };
    const text = [
      line('session_meta', { id: 'sess-1', cwd: '/home/alice/secret', originator: 'codex_cli_rs' }),
      line('response_item', {
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: 'Fix the bug shown here' }, image],
      }),
      line('response_item', {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Done.' }],
      }),
    ].join('\n');
    const t = parsedText(text).transcript;
    expect(t.format).toBe('codex-jsonl');
    const copy = checkedStructureCopy(t, CHARS_PER_4);
    expect(copy.problems).toEqual([]);
    expect(copy.text).not.toMatch(/iVBORw0KGgo|secret/);
  });

  for (const [name, body, format] of MEDIA_BODIES)
    it(`keeps ${name}: the copy reads back the same, with none of its payload`, () => {
      const t = parsedText(JSON.stringify(body)).transcript;
      expect(t.format).toBe(format);
      const copy = checkedStructureCopy(t, CHARS_PER_4);
      expect(copy.problems).toEqual([]);
      expect(copy.text).not.toContain('iVBORw0KGgo');
      expect(copy.text).not.toMatch(/secret|Quarterly|print\(/);
    });

  for (const [name, body, format] of [
    ['Gemini', GEMINI_INLINE_IMAGE, 'gemini'],
    ['Bedrock', BEDROCK_IMAGE, 'bedrock-converse'],
    ['Responses', RESPONSES_IMAGE, 'openai-responses'],
  ] as const)
    it(`a ${name} image is written back as a payload of its size: the copy keeps it`, () => {
      const t = parsedText(JSON.stringify(body)).transcript;
      expect(t.format).toBe(format);
      const copy = checkedStructureCopy(t, CHARS_PER_4);
      expect(copy.problems).toEqual([]);
      expect(copy.text).not.toContain('iVBORw0KGgo');
      const back = parsedText(copy.text).transcript.messages[0]?.blocks[1];
      expect(back).toEqual(t.messages[0]?.blocks[1]);
      expect(back).toMatchObject({ type: 'image', mediaType: 'image/png', bytes: 24 });
    });
});
