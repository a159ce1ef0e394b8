/**
 * The catalogue's context-window rules, one fixture each (../../testing/catalogue.ts says what
 * is checked): each request carries enough text that its length alone does not clear it, and
 * the count the page or the CLI would pass.
 */
import { CONTEXT_WINDOW_RULES } from './contextWindow.ts';
import { body, expectFixtures, type Fixture } from '../../testing/catalogue.ts';

const text = 'lorem ipsum dolor sit amet '.repeat(4000); // 108,000 characters
const count = (tokens: number, exact: boolean) => ({
  inputTokens: { tokens, exact, label: exact ? 'exact o200k_base' : '≈ estimate' },
});

const FIXTURES: Record<string, Fixture> = {
  O14: {
    provider: 'openai-chat',
    t: () => body({ model: 'gpt-4o', messages: [{ role: 'user', content: text }] }),
    opts: count(128_001, true),
    params: { tokens: 128_001, limit: 128_000 },
    path: 'messages',
  },
  A21: {
    provider: 'anthropic',
    t: () =>
      body({
        model: 'claude-opus-4-5',
        max_tokens: 10,
        messages: [{ role: 'user', content: text }],
      }),
    opts: count(300_000, false),
    params: { tokens: 300_000, limit: 200_000 },
    path: null,
  },
  G12: {
    provider: 'gemini',
    t: () =>
      body({
        model: 'gemini-2.5-pro',
        contents: [{ role: 'user', parts: [{ text: text.repeat(4) }] }],
      }),
    opts: count(1_500_000, false),
    params: { tokens: 1_500_000, limit: 1_048_576 },
    path: null,
  },
  CW1: {
    provider: 'anthropic',
    t: () =>
      body({
        model: 'claude-opus-4-5',
        max_tokens: 10,
        messages: [{ role: 'user', content: text }],
      }),
    opts: count(210_000, false),
  },
};

expectFixtures('context window', CONTEXT_WINDOW_RULES, FIXTURES);
