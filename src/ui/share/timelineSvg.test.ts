import { describe, expect, it } from 'vitest';
import { analyze } from '../../model/analyze.ts';
import { assistant, call, result, text, transcript, user } from '../../model/testing/index.ts';
import { CHARS_PER_4 } from '../../model/tokens.ts';
import { buildTimelineSvg, xmlEscape } from './timelineSvg.ts';

describe('buildTimelineSvg', () => {
  const t = transcript('anthropic-messages', [
    user('Run <script>alert(1)</script> & tell me'),
    assistant(call('toolu_a', 'bash', { cmd: 'ls' }), call('toolu_b', 'bash', { cmd: 'pwd' })),
    user(result('toolu_a', 'ok')),
    assistant(text('done')),
  ]);
  const a = analyze(t);

  it('draws every message and one path per tool pair, broken ones red', () => {
    const svg = buildTimelineSvg(a, { title: 'case' });
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.match(/data-message-index=/g)).toHaveLength(4);
    expect(svg.match(/data-arc-id=/g)).toHaveLength(a.pairs.length);
    const broken = a.pairs.find((p) => p.status !== 'answered');
    expect(broken).toBeDefined();
    expect(svg).toMatch(new RegExp(`stroke="#d92d20"[^>]*data-arc-id="${broken?.key ?? ''}"`));
  });

  it('writes content as text, never markup', () => {
    const svg = buildTimelineSvg(a);
    expect(svg).not.toContain('<script>');
    expect(svg).toContain('&#60;script&#62;');
    expect(xmlEscape('a\u0000b"c')).toBe('ab&#34;c');
  });

  it('greys out evicted messages', () => {
    const svg = buildTimelineSvg(a, { evicted: new Set([0]) });
    expect(svg).toMatch(/text-decoration="line-through" data-message-index="0"/);
  });

  it('draws a pair the eviction cuts (one end dropped) red and dashed, as the page does', () => {
    const kept = a.pairs.find((p) => p.status === 'answered');
    expect(kept?.call?.message).toBe(1);
    // Evicting the call's message (and the first) keeps its result: that pair is cut.
    const svg = buildTimelineSvg(a, { evicted: new Set([0, 1]) });
    expect(svg).toMatch(
      new RegExp(
        `stroke="#d92d20"[^>]*stroke-dasharray="4 3" data-cut="true" data-arc-id="${kept?.key ?? ''}"`,
      ),
    );
    // Both ends gone, or none: not cut.
    expect(buildTimelineSvg(a, { evicted: new Set([0, 1, 2]) })).not.toContain('data-cut');
    expect(buildTimelineSvg(a)).not.toContain('data-cut');
    expect(svg).toContain('Exchange 1 · 4 messages');
  });

  it('structure-only: the rows of the structure-only copy, with no text of the transcript', () => {
    const secret = transcript('anthropic-messages', [
      user('Read /home/alice/payroll.csv'),
      assistant(text('Reading it now'), call('toolu_a', 'read_file', { path: '/home/alice' })),
      user(result('toolu_a', 'alice,120000')),
    ]);
    const sa = analyze(secret);
    const full = buildTimelineSvg(sa);
    expect(full).toContain('/home/alice/payroll.csv');
    const svg = buildTimelineSvg(sa, { structureOnly: { counter: CHARS_PER_4 } });
    for (const s of ['alice', 'payroll', 'Reading']) expect(svg).not.toContain(s);
    // Same rows and arcs; roles, block types and tool names stay, texts are placeholders.
    expect(svg.match(/data-message-index=/g)).toHaveLength(3);
    expect(svg.match(/data-arc-id=/g)).toHaveLength(sa.pairs.length);
    expect(svg).toMatch(/data-message-index="0">#0 user · x+( x+)*</);
    expect(svg).toMatch(/data-message-index="1">#1 assistant · x+( x+)* · tool_use read_file</);
    expect(svg).toMatch(/data-message-index="2">#2 user · tool_result</);
  });

  it('structure-only with tool names hidden: the names are renamed as the structure-only link renames them', () => {
    const secret = transcript('anthropic-messages', [
      user('Look her up'),
      assistant(call('toolu_a', 'lookup_payroll', { who: 'maria' })),
      user(result('toolu_a', '120000')),
    ]);
    const svg = buildTimelineSvg(analyze(secret), {
      structureOnly: { counter: CHARS_PER_4, toolNames: 'hide' },
    });
    expect(svg).not.toContain('lookup_payroll');
    expect(svg).toMatch(/data-message-index="1">#1 assistant · tool_use A0*</);
  });

  it('numbers rows as the page does: by source position (#N)', () => {
    // A log whose messages sit at source lines 4, 5 and 7 (other lines in between).
    const log = {
      ...t,
      messages: t.messages.slice(0, 3).map((m, i) => ({ ...m, rawIndex: [4, 5, 7][i] as number })),
    };
    const svg = buildTimelineSvg(analyze(log));
    expect(svg).toMatch(/data-message-index="0">#4 user/);
    expect(svg).toMatch(/data-message-index="1">#5 assistant/);
    expect(svg).toMatch(/data-message-index="2">#7 user/);
  });
});

describe('buildTimelineSvg in the format’s words', () => {
  it('says a Chat Completions call and its result as the format names them, as the page’s chips do', () => {
    const chat = transcript('openai-chat', [
      user('List files'),
      assistant(call('call_a', 'bash', { cmd: 'ls' })),
      user(result('call_a', 'ok')),
    ]);
    const svg = buildTimelineSvg(analyze(chat));
    expect(svg).toMatch(/data-message-index="1">#1 assistant · tool_call bash</);
    expect(svg).toMatch(/data-message-index="2">#2 user · tool</);
    expect(svg).not.toContain('tool_use');
  });
});
