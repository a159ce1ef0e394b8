import { describe, expect, it } from 'vitest';
import type { ToolPair } from '../model/pairing.ts';
import type { Block } from '../model/types.ts';
import type { Violation } from '../model/validate/index.ts';
import type { BrokenPairs } from '../state/selectors.ts';
import {
  PAIR_ERROR,
  PAIR_FINE,
  PAIR_WARNING,
  type PairLevel,
  type PairSignals,
} from './arcs/pairSignals.ts';
import { blockWordsOf } from '../model/parse/registry.ts';
import { chipLabel, chipState } from './messageChips.ts';

const pair = (over: Partial<ToolPair> = {}): ToolPair => ({
  key: 'p0',
  id: 'toolu_01',
  name: 'get_weather',
  call: null,
  result: null,
  status: 'answered',
  partial: false,
  server: false,
  ...over,
});

/** Signals giving every pair one level; `named` is the violation naming each pair, if any. */
const signalsAt = (level: PairLevel, named?: Partial<Violation>): PairSignals => ({
  level: new Uint8Array([level]),
  errorArcs: 0,
  warningArcs: 0,
  broken: {
    providerLabel: 'AWS Bedrock Converse',
    violation: () => named as Violation | undefined,
  } as unknown as BrokenPairs,
  levelOf: () => level,
});

describe('chipLabel', () => {
  it('names a tool_use by tool and id, a tool_result by the id it answers (and its name, where given), text by an excerpt', () => {
    expect(chipLabel({ type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: {} })).toBe(
      'tool_use get_weather · toolu_01',
    );
    expect(chipLabel({ type: 'tool_result', toolUseId: null, content: [], isError: true })).toBe(
      'tool_result (error) · (no id)',
    );
    // Gemini's functionResponse names the function it answers: shown beside the id.
    expect(
      chipLabel({
        type: 'tool_result',
        toolUseId: null,
        content: [],
        isError: false,
        name: 'get_time',
      }),
    ).toBe('tool_result get_time · (no id)');
    expect(chipLabel({ type: 'text', text: '' })).toBe('(empty text)');
    expect(chipLabel({ type: 'text', text: '  ' })).toBe('(blank text: "  ")');
    expect(chipLabel({ type: 'text', text: '\n\n' })).toBe('(blank text: "\\n\\n")');
    expect(chipLabel({ type: 'thinking', thinking: '' })).toBe('thinking (empty)');
  });
});

describe("chipLabel in the format's words", () => {
  const call: Block = { type: 'tool_use', id: 'call_1', name: 'get_weather', input: {} };
  const result: Block = { type: 'tool_result', toolUseId: 'call_1', content: [], isError: false };
  it.each([
    ['openai-chat', 'tool_call get_weather · call_1', 'tool · call_1'],
    ['openai-responses', 'function_call get_weather · call_1', 'function_call_output · call_1'],
    ['gemini', 'functionCall get_weather · call_1', 'functionResponse · call_1'],
    ['bedrock-converse', 'toolUse get_weather · call_1', 'toolResult · call_1'],
    ['vercel-ai', 'tool-call get_weather · call_1', 'tool-result · call_1'],
    ['anthropic-messages', 'tool_use get_weather · call_1', 'tool_result · call_1'],
    ['claude-code-jsonl', 'tool_use get_weather · call_1', 'tool_result · call_1'],
  ] as const)('%s: a call and a result as the format names them', (format, c, r) => {
    const words = blockWordsOf(format);
    expect(chipLabel(call, words)).toBe(c);
    expect(chipLabel(result, words)).toBe(r);
  });
});

describe('chipState', () => {
  it('a block without pairs, or with fine ones, is plain', () => {
    expect(chipState(undefined, undefined, true)).toEqual({ level: null, note: null });
    expect(chipState([pair()], signalsAt(PAIR_FINE), true)).toEqual({ level: null, note: null });
  });

  it('without signals an unanswered pair is red; a partial answer says its sibling was answered', () => {
    expect(chipState([pair({ status: 'unanswered' })], undefined, false)).toEqual({
      level: 'error',
      note: 'no result',
    });
    expect(chipState([pair({ status: 'unanswered', partial: true })], undefined, false).note).toBe(
      'missing result (its sibling was answered)',
    );
  });

  it('an answered pair the verdict names is red with the provider rule', () => {
    const st = chipState(
      [pair()],
      signalsAt(PAIR_ERROR, { title: 'Results first', code: 'B2' }),
      false,
    );
    expect(st).toEqual({
      level: 'error',
      note: 'answered, but not as AWS Bedrock Converse requires: Results first (B2)',
    });
  });

  it('a warning is amber with the reason as its title', () => {
    const st = chipState([pair({ status: 'duplicate_id' })], signalsAt(PAIR_WARNING), true);
    expect(st.level).toBe('warning');
    expect(st.note).toBe('duplicate id (warning)');
    expect(st.why).toBe(
      'duplicate tool_use id — a warning: no AWS Bedrock Converse error names this pair, the request is accepted',
    );
  });
});
