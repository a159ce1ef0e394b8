/**
 * Test-only fast-check arbitraries for transcripts: valid ones, broken ones (mutations), and any
 * shape at all.
 */
import fc from 'fast-check';
import type { Block, Message, Role, Transcript } from '../types.ts';
import {
  msg,
  text,
  call,
  result,
  user,
  assistant,
  system,
  tool,
  transcript,
  renumber,
} from './builders.ts';

/** Shape of one generated exchange: rounds of parallel calls, then a final answer. */
interface ExchangeShape {
  rounds: { calls: number; textBefore: boolean; errorAt: number }[];
  finalText: boolean;
}

const arbExchangeShape: fc.Arbitrary<ExchangeShape> = fc.record({
  rounds: fc.array(
    fc.record({
      calls: fc.integer({ min: 1, max: 3 }),
      textBefore: fc.boolean(),
      errorAt: fc.integer({ min: -1, max: 2 }),
    }),
    { maxLength: 3 },
  ),
  finalText: fc.boolean(),
});

/**
 * Valid transcripts for a format: exchanges of user → (assistant calling 1–3 tools in parallel
 * → their results)* → optional final assistant text. Anthropic puts results in one user message;
 * OpenAI Chat uses one `tool` message per result, in any order.
 */
export function arbValidTranscript(
  format: 'anthropic-messages' | 'openai-chat',
  opts: { maxExchanges?: number; withSystem?: boolean; ids?: 'provider' | 'nine' } = {},
): fc.Arbitrary<Transcript> {
  // Ids as the format's provider makes them, or nine letters and digits (what Mistral takes, M4).
  const idOf = (seed: number, n: number) =>
    opts.ids === 'nine'
      ? `m${(seed * 1000 + n).toString(36).padStart(8, '0')}`
      : `${format === 'openai-chat' ? 'call' : 'toolu'}_${seed}_${n}`;
  return fc
    .record({
      shapes: fc.array(arbExchangeShape, { minLength: 1, maxLength: opts.maxExchanges ?? 5 }),
      system: fc.boolean(),
      seed: fc.integer({ min: 0, max: 1_000_000 }),
    })
    .map(({ shapes, system: sys, seed }) => {
      const out: Message[] = [];
      if (format === 'openai-chat' && (opts.withSystem ?? sys))
        out.push(system('You are a helpful agent.'));
      let id = 0;
      shapes.forEach((shape, x) => {
        out.push(user(`Question ${x} (${seed}).`));
        for (const round of shape.rounds) {
          const ids = Array.from({ length: round.calls }, () => idOf(seed, id++));
          out.push(
            assistant(
              ...(round.textBefore ? [text('Let me check.')] : []),
              ...ids.map((i, k) => call(i, `tool_${k}`, { q: x })),
            ),
          );
          const order = seed % 2 === 0 ? ids : [...ids].reverse();
          if (format === 'anthropic-messages')
            out.push(user(...order.map((i, k) => result(i, `result ${i}`, k === round.errorAt))));
          else for (const i of order) out.push(tool(i, `result ${i}`));
        }
        if (shape.finalText || shape.rounds.length === 0 || x < shapes.length - 1)
          out.push(assistant(`Answer ${x}.`));
      });
      return transcript(format, out);
    });
}

/**
 * Valid Gemini `generateContent` transcripts (format `gemini`): the shapes of
 * `arbValidTranscript`, each functionResponse naming its call, with the ids dropped (Gemini
 * before 3: pairing by count and position) or kept (Gemini 3), as `ids` says.
 */
export function arbValidGeminiTranscript(ids: boolean): fc.Arbitrary<Transcript> {
  return arbValidTranscript('anthropic-messages').map((t) => {
    const names = new Map<string, string>();
    for (const m of t.messages)
      for (const b of m.blocks) if (b.type === 'tool_use' && b.id) names.set(b.id, b.name);
    const gemini = (b: Block): Block =>
      b.type === 'tool_use'
        ? { ...b, id: ids ? b.id : null }
        : b.type === 'tool_result'
          ? { ...b, toolUseId: ids ? b.toolUseId : null, name: names.get(b.toolUseId ?? '') ?? '' }
          : b;
    return transcript(
      'gemini',
      t.messages.map((m) => ({ ...m, blocks: m.blocks.map(gemini) })),
      { listKey: 'contents' },
    );
  });
}

/** A random edit that may break pairing: the faults a trim or a crashed loop produces. */
export type Mutation =
  | { kind: 'delete'; at: number }
  | { kind: 'duplicate'; at: number }
  | { kind: 'swap'; at: number }
  | { kind: 'textFirst'; at: number }
  | { kind: 'dropBlock'; at: number; block: number }
  | { kind: 'truncate'; keep: number };

export const arbMutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(60) }),
  fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat(60) }),
  fc.record({ kind: fc.constant('swap' as const), at: fc.nat(60) }),
  fc.record({ kind: fc.constant('textFirst' as const), at: fc.nat(60) }),
  fc.record({ kind: fc.constant('dropBlock' as const), at: fc.nat(60), block: fc.nat(4) }),
  fc.record({ kind: fc.constant('truncate' as const), keep: fc.nat(60) }),
);

/** Apply mutations to a transcript (indices wrap around the message count). */
export function mutate(t: Transcript, mutations: Mutation[]): Transcript {
  let ms = [...t.messages];
  for (const m of mutations) {
    if (ms.length === 0) break;
    const at = 'at' in m ? m.at % ms.length : 0;
    const target = ms[at] as Message;
    switch (m.kind) {
      case 'delete':
        ms.splice(at, 1);
        break;
      case 'duplicate':
        ms.splice(at, 0, { ...target });
        break;
      case 'swap':
        if (at + 1 < ms.length) [ms[at], ms[at + 1]] = [ms[at + 1] as Message, target];
        break;
      case 'textFirst':
        ms[at] = { ...target, blocks: [text('By the way:'), ...target.blocks] };
        break;
      case 'dropBlock':
        if (target.blocks.length > 1)
          ms[at] = {
            ...target,
            blocks: target.blocks.filter((_, i) => i !== m.block % target.blocks.length),
          };
        break;
      case 'truncate':
        ms = ms.slice(0, Math.max(1, m.keep % (ms.length + 1)));
        break;
    }
  }
  return renumber(t, ms);
}

/** Arbitrary transcripts that are often broken: a valid one with 0–4 mutations. */
export function arbTranscript(
  format: 'anthropic-messages' | 'openai-chat',
): fc.Arbitrary<Transcript> {
  return fc
    .tuple(arbValidTranscript(format), fc.array(arbMutation, { maxLength: 4 }))
    .map(([t, ms]) => mutate(t, ms));
}

const ID_POOL = ['t1', 't2', 't3', 't4', 't5'];

/** A random block: text (sometimes empty or blank), calls and results from a small id pool, thinking, server tools. */
export const arbBlock: fc.Arbitrary<Block> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .constantFrom('hi', 'Let me check.', 'done', '', '  ')
      .map((s): Block => ({ type: 'text', text: s })),
  },
  {
    weight: 4,
    arbitrary: fc.tuple(fc.constantFrom(...ID_POOL), fc.boolean()).map(
      ([id, named]): Block => ({
        type: 'tool_use',
        id: named || id !== 't5' ? id : null,
        name: 'tool',
        input: {},
      }),
    ),
  },
  {
    weight: 4,
    arbitrary: fc.tuple(fc.constantFrom(...ID_POOL), fc.boolean(), fc.boolean()).map(
      ([id, err, nullId]): Block => ({
        type: 'tool_result',
        toolUseId: nullId && id === 't5' ? null : id,
        isError: err,
        content: [{ type: 'text', text: 'r' }],
      }),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constant<Block>({ type: 'thinking', thinking: 'hmm', signature: 's' }),
  },
  { weight: 1, arbitrary: fc.constant<Block>({ type: 'redacted_thinking', bytes: 10 }) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('s1', 's2')
      .map((id): Block => ({ type: 'tool_use', id, name: 'web_search', input: {}, server: true })),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom('s1', 's2').map(
      (id): Block => ({
        type: 'tool_result',
        toolUseId: id,
        isError: false,
        content: [],
        server: 'web_search_tool_result',
      }),
    ),
  },
);

/**
 * Arbitrary transcripts with random roles (system/developer anywhere), random blocks (empty
 * messages, blank text, duplicate ids, null ids, server tools, thinking) and random settings
 * (thinking on/off/unknown, forced tools, `tools: []`), for testing code that must agree with
 * the validators on any input.
 */
export function arbAnyTranscript(
  format: 'anthropic-messages' | 'openai-chat',
  maxMessages = 14,
): fc.Arbitrary<Transcript> {
  const arbMessage = fc
    .tuple(
      fc.constantFrom<Role>(
        'user',
        'user',
        'assistant',
        'assistant',
        'tool',
        'system',
        'developer',
      ),
      fc.array(arbBlock, { maxLength: 3 }),
    )
    .map(([role, blocks]) => msg(role, blocks));
  return fc
    .record({
      messages: fc.array(arbMessage, { maxLength: maxMessages }),
      thinking: fc.constantFrom<boolean | undefined>(true, false, undefined),
      forced: fc.boolean(),
      model: fc.constantFrom<string | undefined>(undefined, 'claude-sonnet-4', 'claude-opus-4-6'),
      tools: fc.constantFrom<Transcript['tools']>(null, [], [{ name: 'tool' }]),
    })
    .map(({ messages, thinking, forced, model, tools }) =>
      transcript(format, messages, {
        tools,
        settings: {
          ...(thinking !== undefined ? { thinking } : {}),
          ...(forced ? { toolChoiceForced: true } : {}),
          ...(model ? { model } : {}),
        },
      }),
    );
}
