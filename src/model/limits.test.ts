/**
 * Issue 14: what the model accepts at most, and that everything below the limits goes through
 * the whole pipeline without overflowing the stack (parse, analyse, tokens, hashing, writers,
 * redaction, repair, a structured clone as postMessage makes).
 */
import { describe, expect, it } from 'vitest';
import { analyze } from './analyze.ts';
import { canonicalJson, findLostMeaning } from './lostMeaning.ts';
import { clip, idsText, MAX_JSON_DEPTH, MAX_MESSAGE_CHARS, QUOTE_CHARS } from './limits.ts';
import { CONTAINER_BYTES, MAX_STRUCTURE_BYTES, quoteIds, VALUE_BYTES } from './limits.ts';
import { MAX_STRING_CHARS, MAX_UNPACKED_BYTES, windowAround } from './limits.ts';
import { parseTranscript } from './parse/index.ts';
import { mayNestDeeper, parseJsonBounded, parseJsonlText, scanJson } from './parse/json.ts';
import { tooDeepAt, tooDeepLine } from './parse/json.ts';
import fc from 'fast-check';
import { redactTranscript } from './redact.ts';
import { repairTranscript } from './repair.ts';
import { countTokens } from './tokens.ts';
import type { Transcript } from './types.ts';
import { writeTranscript } from './write.ts';

const nest = (depth: number, inner = '1') => '['.repeat(depth) + inner + ']'.repeat(depth);

/** An Anthropic body whose tool_use input holds `inner` (JSON text) at its deepest. */
function anthropicWithInput(inner: string, argsAsString = false): string {
  const input = argsAsString ? JSON.stringify(inner) : inner;
  return `{"model":"claude-sonnet-4-5","messages":[{"role":"user","content":"go"},{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"t","input":{"a":${input}}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"ok"}]}]}`;
}

/** Every stage that walks values, as the page, the worker and the CLI run them. */
function wholePipeline(t: Transcript): void {
  const a = analyze(t);
  countTokens(t, a.provider);
  writeTranscript(t);
  redactTranscript(t);
  const r = repairTranscript(t, a.provider);
  writeTranscript(r.transcript);
  for (const m of t.messages)
    for (const b of m.blocks) if (b.type === 'tool_use') canonicalJson(b.input);
  findLostMeaning(t, [0], [1, 2]);
  structuredClone({ a, raw: t.raw, messages: t.messages.map((m) => m.raw) });
}

describe('depth limit', () => {
  it('tooDeepAt finds the bracket that opens level MAX + 1, skipping strings and escapes', () => {
    expect(tooDeepAt(nest(MAX_JSON_DEPTH))).toBe(-1);
    expect(tooDeepAt(nest(MAX_JSON_DEPTH + 1))).toBe(MAX_JSON_DEPTH);
    expect(tooDeepAt(`["${'['.repeat(1000)}"]`)).toBe(-1);
    expect(tooDeepAt(`["\\"${'['.repeat(1000)}"]`)).toBe(-1);
    expect(tooDeepAt(`["\\\\", ${nest(300)}]`, 256)).toBeGreaterThan(0);
    expect(tooDeepAt('{"a":"unterminated')).toBe(-1);
    expect(tooDeepAt(']]]]')).toBe(-1);
  });

  it('tooDeepLine skips the scan only for lines that cannot nest too deep (issue 38)', () => {
    // The bound: more than `max` opening brackets anywhere, strings included.
    expect(mayNestDeeper(nest(3), 3)).toBe(false);
    expect(mayNestDeeper(`{"a":[${nest(2)}]}`, 3)).toBe(true);
    expect(mayNestDeeper(`["${'{'.repeat(4)}"]`, 3)).toBe(true);
    // A line just past the limit is refused, at the same place as the whole scan says.
    const deep = `{"a":${nest(MAX_JSON_DEPTH)}}`;
    expect(tooDeepLine(deep, 7)?.location.column).toBe(tooDeepAt(deep) + 1);
    expect(tooDeepLine(`{"a":${nest(MAX_JSON_DEPTH - 1)}}`, 7)).toBeNull();
    // Brackets quoted in strings: bound passed, scan says not deep.
    expect(tooDeepLine(`["${'['.repeat(1000)}"]`, 1)).toBeNull();
    // Any text: refused exactly when the scan finds it too deep.
    const piece = fc.constantFrom('[', ']', '{', '}', '"', '\\', ',', '1', '"[[{"', ':');
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 700 }),
        fc.integer({ min: 0, max: 320 }),
        (ps, d) => {
          const text = nest(d, ps.join(''));
          expect(tooDeepLine(text, 1) !== null).toBe(tooDeepAt(text) >= 0);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a body at the limit goes through every stage, one level more is refused saying where', () => {
    // Body, messages, message, content, block, input: 6 levels above `a`.
    const at = parseTranscript(anthropicWithInput(nest(MAX_JSON_DEPTH - 6)));
    expect(at.ok).toBe(true);
    if (at.ok) wholePipeline(at.value.transcript);
    const deep = parseTranscript(anthropicWithInput(nest(50_000)));
    expect(deep.ok).toBe(false);
    if (deep.ok) return;
    expect(deep.error.kind).toBe('limit');
    expect(deep.error.message).toMatch(/deeper than 256 levels .* at line 1, column \d+/);
    expect(deep.error.location?.lineText.length).toBeLessThanOrEqual(QUOTE_CHARS + 2);
  });

  it('deep invalid JSON is refused for its depth (the error locator never recurses on it)', () => {
    const r = parseTranscript(`{"messages":${'['.repeat(50_000)}`);
    expect(!r.ok && r.error.kind).toBe('limit');
  });

  it('a JSON Lines log with one deep line is refused naming that line', () => {
    const line = (i: number) =>
      JSON.stringify({ type: 'user', uuid: `u${i}`, message: { role: 'user', content: 'hi' } });
    const text = [line(1), line(2), `{"type":"user","x":${nest(1000)}}`, line(4)].join('\n');
    const r = parseTranscript(text, { name: 'log.jsonl' });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.kind).toBe('limit');
    expect(r.error.message).toContain('line 3, column');
    expect(r.error.location?.line).toBe(3);
  });

  it('JSON inside strings (tool arguments) deeper than the limit stays text; the pipeline completes', () => {
    expect(() => parseJsonBounded(nest(MAX_JSON_DEPTH + 1))).toThrow(/deeper than 256/);
    const body = JSON.stringify({
      model: 'gpt-4o',
      messages: [
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'c1', type: 'function', function: { name: 't', arguments: nest(50_000) } },
          ],
        },
        { role: 'tool', tool_call_id: 'c1', content: 'ok' },
      ],
    });
    const r = parseTranscript(body);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const call = r.value.transcript.messages[1]?.blocks[0];
    expect(call?.type === 'tool_use' && typeof call.input).toBe('string');
    wholePipeline(r.value.transcript);
  });

  it('nested JSON at the limit in every string layer still clones and stringifies', () => {
    // A logged body (a string) holding arguments (a string) each at the limit: the deepest value
    // the model can build, well under what structured clone survives (≈ 2,000 in Node).
    const args = nest(MAX_JSON_DEPTH - 1);
    const inner = JSON.stringify({
      model: 'gpt-4o',
      messages: [
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 't', arguments: args } }],
        },
        { role: 'tool', tool_call_id: 'c1', content: 'ok' },
      ],
    });
    const r = parseTranscript(JSON.stringify({ requests: [{ body: inner }, { body: inner }] }));
    expect(r.ok).toBe(true);
    if (r.ok) wholePipeline(r.value.transcript);
  });
});

describe('quoting input', () => {
  it('windowAround keeps the caret on the column, cuts with …', () => {
    const line = 'a'.repeat(1000) + 'X' + 'b'.repeat(1000);
    const w = windowAround(line, 1001, 40);
    expect(w.text.length).toBeLessThanOrEqual(42);
    expect(w.text[w.caret]).toBe('X');
    expect(w.text.startsWith('…') && w.text.endsWith('…')).toBe(true);
    expect(windowAround('short', 3)).toEqual({ text: 'short', from: 1, caret: 2 });
    const end = windowAround(line, line.length, 40);
    expect(end.text[end.caret]).toBe('b');
    expect(end.text.endsWith('…')).toBe(false);
  });

  it('a 6.7 MB one-line file with an error at its end: a bounded location and message', () => {
    const text = `{"messages":[{"role":"user","content":"${'x'.repeat(6_700_000)}"}], oops}`;
    const r = parseTranscript(text);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.message.length).toBeLessThan(200);
    const loc = r.error.location;
    expect(loc?.column).toBe(text.indexOf('oops') + 1);
    expect(loc?.lineText.length).toBeLessThanOrEqual(QUOTE_CHARS + 2);
    expect(loc?.lineText[loc.caret ?? -1]).toBe('o');
  });

  it('clip keeps both ends of a long message', () => {
    const s = clip('start' + 'x'.repeat(5000) + 'end', 100);
    expect(s.length).toBe(100);
    expect(s.startsWith('start') && s.endsWith('end') && s.includes('…')).toBe(true);
  });

  it('quoteIds cuts a huge quoted id to its ends and leaves short ones (and their message) alone', () => {
    const id = 'toolu_' + 'x'.repeat(10_000_000) + '_end';
    const m = quoteIds(`unexpected \`tool_use_id\` found: ${id}; see ${id}`, [id]);
    expect(m.length).toBeLessThan(2 * QUOTE_CHARS + 60);
    expect(m).toContain('toolu_xxx');
    expect(m.split('_end;').length).toBe(2);
    const short = `unexpected id toolu_01`;
    expect(quoteIds(short, ['toolu_01'])).toBe(short);
    expect(quoteIds('y'.repeat(10_000), [])).toHaveLength(MAX_MESSAGE_CHARS);
    expect(idsText([id, 'b']).length).toBeLessThan(QUOTE_CHARS + 10);
  });

  it('a validator quoting a 10 MB id: message and error body bounded, the id itself kept', () => {
    const id = 'call_' + 'y'.repeat(10_000_000);
    const bodies = [
      // Anthropic: an orphan tool_result (A1); OpenAI Chat: a call left unanswered (O2).
      `{"model":"claude-sonnet-4-5","messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"${id}","content":"ok"}]}]}`,
      `{"model":"gpt-4o","messages":[{"role":"user","content":"go"},{"role":"assistant","content":null,"tool_calls":[{"id":"${id}","type":"function","function":{"name":"t","arguments":"{}"}}]},{"role":"user","content":"next"}]}`,
    ];
    for (const [text, code] of [
      [bodies[0] as string, 'A1'],
      [bodies[1] as string, 'O2'],
    ] as const) {
      const r = parseTranscript(text);
      if (!r.ok) throw new Error(r.error.message);
      const found = analyze(r.value.transcript).validation.violations;
      // OpenAI also refuses the id's length (O10), in a message that states the length only.
      if (code === 'O2') expect(found[0]).toMatchObject({ code: 'O10', ids: [id] });
      const v = found.find((x) => x.code === code);
      expect(v).toBeDefined();
      if (!v) continue;
      expect(v.message.length).toBeLessThanOrEqual(MAX_MESSAGE_CHARS);
      expect(v.message).toContain(id.slice(0, 40));
      expect(JSON.stringify(v.error).length).toBeLessThan(MAX_MESSAGE_CHARS + 500);
      expect(v.ids).toContain(id);
    }
  });
});

describe('structure limit (values a parse would build)', () => {
  it('scanJson counts objects and arrays, strings and commas, skipping what strings hold', () => {
    const scan = scanJson('{"a":[1,2],"b":"x,[{"}');
    expect(scan.structure).toBe(2 * CONTAINER_BYTES + 5 * VALUE_BYTES);
    expect(scan).toMatchObject({ deepAt: -1, heavyAt: -1 });
    expect(scanJson('[0,0,0,0]', MAX_JSON_DEPTH, 10).heavyAt).toBe(9);
  });

  it('JSON of millions of tiny values is refused before parsing, saying where and why', () => {
    const n = Math.ceil(MAX_STRUCTURE_BYTES / (CONTAINER_BYTES + VALUE_BYTES)) + 70_000;
    const text = '[' + '{},'.repeat(n) + '{}]';
    const r = parseTranscript(text);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.kind).toBe('limit');
    expect(r.error.message).toMatch(/too many values/);
    expect(r.error.location?.line).toBe(1);
    expect(r.error.location?.column).toBeLessThan(text.length);
  });

  it('the lines of a log share one budget: refused at the line that passes it', () => {
    const line = '{"type":"user","message":{"role":"user","content":"hi"}}';
    const text = (line + '\n').repeat(50);
    const one = scanJson(line).structure + CONTAINER_BYTES;
    const r = parseJsonlText(text, one * 20.5);
    expect(r.lines).toHaveLength(20);
    expect(r.deep?.location.line).toBe(21);
    expect(r.deep?.message).toMatch(/too many values/);
    expect(parseJsonlText(text, one * 50).deep).toBeUndefined();
  });
});

describe('the unpacked-bytes limit (issue 38)', () => {
  it('takes a 500 MB log, and its whole text still fits in one V8 string', () => {
    expect(MAX_UNPACKED_BYTES).toBeGreaterThanOrEqual(500_044_679);
    expect(MAX_UNPACKED_BYTES).toBeLessThan(MAX_STRING_CHARS);
  });
});
