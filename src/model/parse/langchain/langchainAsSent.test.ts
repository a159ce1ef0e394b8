/**
 * Cuts made by LangChain `trimMessages`, serialised as LangChain writes them, get the verdict of
 * the request ChatAnthropic / ChatOpenAI send for them: LangChain sends the list one to one (see
 * langchain.ts), so the verdict is the parsed list's.
 */
import { describe, expect, it } from 'vitest';
import { parsed } from '../../testing/index.ts';
import { validateTranscript } from '../../validate/index.ts';

const human = (content: string) => ({ type: 'human', content });
const ai = (content: string, calls: string[] = []) => ({
  type: 'ai',
  content,
  tool_calls: calls.map((id) => ({ id, name: 'f', args: {} })),
});
const toolMsg = (id: string) => ({ type: 'tool', content: 'ok', tool_call_id: id });

describe('LangChain lists as ChatOpenAI / ChatAnthropic send them', () => {
  it('a trim that kept a ToolMessage first (strategy "last" without start_on): O1 / A1', () => {
    const t = parsed([toolMsg('c1'), ai('done'), human('next')]).transcript;
    expect(t.format).toBe('langchain');
    expect(validateTranscript(t, 'openai-chat').violations[0]).toMatchObject({
      code: 'O1',
      providerPath: 'messages.[0].role',
    });
    expect(validateTranscript(t, 'anthropic').violations[0]).toMatchObject({
      code: 'A1',
      providerPath: 'messages.0.content.0',
    });
  });

  it('an AIMessage emptied by a trim is sent as content "": A10 for Anthropic', () => {
    const t = parsed([human('q'), ai(''), human('next')]).transcript;
    expect(validateTranscript(t, 'anthropic').violations.map((v) => v.code)).toEqual(['A10']);
  });

  it('parallel results split by a human message (a summary inserted mid-run): O2 and A3', () => {
    const t = parsed([
      human('q'),
      ai('', ['a', 'b']),
      toolMsg('a'),
      human('x'),
      toolMsg('b'),
    ]).transcript;
    expect(validateTranscript(t, 'openai-chat').violations[0]).toMatchObject({
      code: 'O2',
      ids: ['b'],
      providerPath: 'messages.[3].role',
    });
    // Anthropic merges tool(a), human(x), tool(b) into one user turn: text before b's result (A3).
    expect(validateTranscript(t, 'anthropic').violations[0]).toMatchObject({
      code: 'A3',
      ids: ['b'],
    });
  });

  it('a trim that kept nothing ([]): O8 and A14', () => {
    const t = parsed([]).transcript;
    expect(validateTranscript(t, 'openai-chat').violations[0]?.code).toBe('O8');
    expect(validateTranscript(t, 'anthropic').violations[0]?.code).toBe('A14');
  });
});
