/**
 * ChatGPT data exports: our own small `conversations.json` values in the shape of docs/formats.md#chatgpt-export
 * (`mapping` nodes with `parent`/`children`, `current_node`), carrying reported case 01 (orphan
 * after a trim, its expected verdict kept) and a regenerated branch.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../analyze.ts';
import { validateTranscript } from '../../validate/index.ts';
import { parsed } from '../../testing/index.ts';
import { chatgptExportParser, listChatgptConversations } from './chatgptExport.ts';

type Node = { id: string; parent: string | null; message: unknown };

const msg = (
  role: string,
  content: unknown,
  extra: Record<string, unknown> = {},
  name?: string,
) => ({
  author: { role, ...(name ? { name } : {}) },
  content,
  create_time: 1700000000,
  recipient: 'all',
  metadata: {},
  ...extra,
});
const text = (...parts: unknown[]) => ({ content_type: 'text', parts });

/** A conversation from a list of nodes (each parented to the previous unless given). */
function conversation(title: string, nodes: Node[], current = nodes[nodes.length - 1]?.id) {
  const mapping: Record<string, unknown> = {};
  for (const n of nodes)
    mapping[n.id] = {
      ...n,
      children: nodes.filter((c) => c.parent === n.id).map((c) => c.id),
    };
  return { title, create_time: 1700000000, mapping, current_node: current };
}

const chain = (...messages: unknown[]): Node[] => [
  { id: 'root', parent: null, message: null },
  ...messages.map((message, i) => ({
    id: `n${i}`,
    parent: i === 0 ? 'root' : `n${i - 1}`,
    message,
  })),
];

/** A browsing call and its result, then a text reply (valid, ids absent as in real exports). */
const weather = conversation(
  'Weather',
  chain(
    msg('system', text('')),
    msg('user', text('What is the weather in Springfield?')),
    msg(
      'assistant',
      { content_type: 'code', language: 'json', text: '{"city": "Springfield"}' },
      { recipient: 'get_weather', metadata: { model_slug: 'gpt-4o' } },
    ),
    msg('tool', text('{"temp_c": 18, "sky": "cloudy"}'), {}, 'get_weather'),
    msg('assistant', text('It is 18 °C and cloudy.'), { metadata: { model_slug: 'gpt-4o' } }),
  ),
);

describe('chatgpt-export', () => {
  it('is detected without a hint; a tool-addressed message is a call, a tool message its result', () => {
    const p = parsed([weather]);
    expect(p.candidates[0]?.format).toBe('chatgpt-export');
    expect(p.ambiguous).toBe(false);
    const t = p.transcript;
    expect(t.format).toBe('chatgpt-export');
    expect(t.messages.map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);
    expect(t.messages[2]?.blocks).toEqual([
      { type: 'tool_use', id: 'n2', name: 'get_weather', input: { city: 'Springfield' } },
    ]);
    // No ids in the export: the call is named by its node id, the result right after takes it.
    expect(t.messages[3]?.blocks[0]).toMatchObject({
      type: 'tool_result',
      toolUseId: 'n2',
      name: 'get_weather',
    });
    expect(t.messages[2]?.path).toBe('mapping.n2.message');
    expect(t.messages[2]?.meta?.timestamp).toBe('2023-11-14T22:13:20.000Z');
    expect(t.settings.model).toBe('gpt-4o');
    expect(analyze(t).pairs.map((x) => x.status)).toEqual(['answered']);
    expect(t.warnings.join(' ')).toMatch(/no tool-call ids/);
    expect(validateTranscript(t).provider).toBe('openai-chat');
    expect(validateTranscript(t).valid).toBe(true);
  });

  it('case 01 (orphan after a trim) keeps its orphan in an export', () => {
    const t = parsed(
      conversation(
        'Trimmed',
        chain(
          msg('tool', text('{"temp_c": 18}'), {}, 'get_weather'),
          msg('assistant', text('It is 18 °C and cloudy in Springfield right now.')),
          msg('user', text('And tomorrow morning?')),
        ),
      ),
    ).transcript;
    expect(analyze(t).pairs.map((x) => [x.status, x.result?.message])).toEqual([['orphan', 0]]);
    const v = validateTranscript(t);
    expect(v.valid).toBe(false);
    expect(v.violations.map((x) => x.messageIndex)).toContain(0);
  });

  it('pairs by position and name: parallel calls, a result for another tool, a late result', () => {
    const t = parsed(
      conversation(
        'Pairs',
        chain(
          msg('user', text('Weather and time?')),
          msg('assistant', { content_type: 'code', text: '{}' }, { recipient: 'get_weather' }),
          msg('assistant', { content_type: 'code', text: '{}' }, { recipient: 'get_time' }),
          msg('tool', text('12:00'), {}, 'get_time'),
          msg('tool', text('18 °C'), {}, 'get_weather'),
          msg('assistant', { content_type: 'code', text: '{}' }, { recipient: 'get_news' }),
          msg('user', text('Never mind.')),
          msg('tool', text('headlines'), {}, 'get_news'),
        ),
      ),
    ).transcript;
    const results = t.messages.flatMap((m) =>
      m.blocks.flatMap((b) => (b.type === 'tool_result' ? [b.toolUseId] : [])),
    );
    // get_time answers n2, get_weather n1; the news result after a user turn answers nothing.
    expect(results).toEqual(['n2', 'n1', null]);
    expect(analyze(t).pairs.map((p) => [p.name, p.status])).toEqual([
      ['get_weather', 'answered'],
      ['get_time', 'answered'],
      ['get_news', 'unanswered'],
      ['get_news', 'orphan'],
    ]);
  });

  it('follows parent from current_node: a regenerated reply on another branch is left out', () => {
    const nodes = chain(msg('user', text('Hi')), msg('assistant', text('first answer')));
    nodes.push({ id: 'regen', parent: 'n0', message: msg('assistant', text('second answer')) });
    const t = parsed(conversation('Branches', nodes, 'regen')).transcript;
    expect(t.messages.map((m) => m.blocks)).toEqual([
      [{ type: 'text', text: 'Hi' }],
      [{ type: 'text', text: 'second answer' }],
    ]);
    expect(t.warnings.join(' ')).toMatch(/3 of 4 nodes/);
  });

  it('several conversations: one request each, requestIndex picks one', () => {
    const other = conversation('Hello', chain(msg('user', text('Hello'))));
    expect(listChatgptConversations([weather, other]).map((e) => e.label)).toEqual([
      '#1 · Weather · 6 nodes',
      '#2 · Hello · 2 nodes',
    ]);
    const p = parsed([weather, other], 0);
    expect(p.requests).toHaveLength(2);
    expect(p.transcript.format).toBe('chatgpt-export');
    expect(p.transcript.messages).toHaveLength(5);
    expect(parsed([weather, other], 1).transcript.messages).toHaveLength(1);
  });

  it('content types: images, thoughts, execution output, errors; unknown ones kept as other', () => {
    const t = parsed(
      conversation(
        'Mixed',
        chain(
          msg('user', {
            content_type: 'multimodal_text',
            parts: [{ content_type: 'image_asset_pointer', size_bytes: 2048 }, 'What is this?'],
          }),
          msg('assistant', {
            content_type: 'thoughts',
            thoughts: [{ summary: 's', content: 'hmm' }],
          }),
          msg('assistant', { content_type: 'code', text: 'print(1)' }, { recipient: 'python' }),
          msg('tool', { content_type: 'system_error', text: 'Timeout' }, {}, 'python'),
          msg('assistant', { content_type: 'brand_new', x: 1 }),
        ),
      ),
    ).transcript;
    expect(t.messages[0]?.blocks).toEqual([
      { type: 'image', bytes: 2048 },
      { type: 'text', text: 'What is this?' },
    ]);
    expect(t.messages[1]?.blocks).toEqual([{ type: 'thinking', thinking: 'hmm' }]);
    expect(t.messages[2]?.blocks).toEqual([
      { type: 'tool_use', id: 'n2', name: 'python', input: 'print(1)' },
    ]);
    expect(t.messages[3]?.blocks[0]).toMatchObject({ type: 'tool_result', isError: true });
    expect(t.messages[4]?.blocks[0]).toMatchObject({ type: 'other', label: 'brand_new' });
  });

  it('a broken parent chain or a cycle gives a warning, not a throw', () => {
    const cyc = {
      mapping: {
        a: { id: 'a', parent: 'b', message: msg('user', text('a')) },
        b: { id: 'b', parent: 'a', message: msg('user', text('b')) },
      },
      current_node: 'a',
    };
    const t = parsed(cyc).transcript;
    expect(t.messages).toHaveLength(2);
    expect(t.warnings.join(' ')).toMatch(/cycle/);
    const missing = parsed({ mapping: {}, current_node: 'gone' }).transcript;
    expect(missing.messages).toEqual([]);
    expect(missing.warnings.join(' ')).toMatch(/not in `mapping`/);
  });

  it('sniff: 0 for message arrays and other JSON', () => {
    expect(chatgptExportParser.sniff([{ role: 'user', content: 'x' }])).toBe(0);
    expect(chatgptExportParser.sniff({ mapping: {} })).toBe(0);
    expect(chatgptExportParser.sniff([])).toBe(0);
    expect(chatgptExportParser.parse({ kind: 'json', value: [1] }).ok).toBe(false);
  });
});
