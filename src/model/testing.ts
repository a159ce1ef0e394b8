/**
 * Test-only builders and fast-check arbitraries for transcripts. Production code never imports
 * this file (it is excluded from the model's tsconfig and only tests use it).
 */
import fc from 'fast-check';
import { openContainer, unwrapText } from './parse/containers.ts';
import {
  parseDocument,
  parseTranscript,
  readSource,
  type ParseOptions,
  type ParsedTranscript,
} from './parse/index.ts';
import type { Block, FormatId, Message, Role, Transcript } from './types.ts';
import type { ToolPair } from './pairing.ts';
import type { TokenTable } from './tokens.ts';

/**
 * Parse a JSON value as the page parses a pasted document (format detection, containers, the
 * request picker), for tests of a parser through the public entry point.
 * @param requestIndex which request of a file holding several (an eval log's sample, an export's
 *   conversation); the parser's default when absent
 * @returns the parsed transcript with its candidates and request list
 * @throws Error with the ParseError's message when the value does not parse (the test fails)
 */
export function parsed(value: unknown, requestIndex?: number): ParsedTranscript {
  const r = parseDocument(
    { kind: 'json', value },
    requestIndex !== undefined ? { requestIndex } : {},
  );
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/**
 * Parse pasted or loaded text (JSON, JSON Lines, a container) as the page does.
 * @param opts a file name hint, a format or a request index, as `parseTranscript` takes them
 * @returns the parsed transcript with its candidates and request list
 * @throws Error with the ParseError's message when the text does not parse (the test fails)
 */
export function parsedText(text: string, opts: ParseOptions = {}): ParsedTranscript {
  const r = parseTranscript(text, opts);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** Build a message; index/rawIndex/path are fixed up by `transcript()`. */
export function msg(role: Role, blocks: Block[], raw?: unknown): Message {
  return { index: 0, rawIndex: 0, path: '', role, blocks, raw };
}

export const text = (t: string): Block => ({ type: 'text', text: t });
export const call = (id: string, name = 'tool', input: unknown = {}): Block => ({
  type: 'tool_use',
  id,
  name,
  input,
});
export const result = (id: string, content = 'ok', isError = false): Block => ({
  type: 'tool_result',
  toolUseId: id,
  isError,
  content: [{ type: 'text', text: content }],
});
export const thinking = (t = 'Let me think.', signature = 'sig'): Block => ({
  type: 'thinking',
  thinking: t,
  signature,
});

export const user = (...blocks: (Block | string)[]): Message =>
  msg(
    'user',
    blocks.map((b) => (typeof b === 'string' ? text(b) : b)),
  );
export const assistant = (...blocks: (Block | string)[]): Message =>
  msg(
    'assistant',
    blocks.map((b) => (typeof b === 'string' ? text(b) : b)),
  );
export const system = (t: string): Message => msg('system', [text(t)]);
/** An OpenAI-style `tool` message answering `id`. */
export const tool = (id: string, content = 'ok'): Message => msg('tool', [result(id, content)]);

/**
 * Assemble a transcript: numbers messages (index = rawIndex = position; path `messages.N`).
 * @param format the source format (decides the default provider)
 */
export function transcript(
  format: FormatId,
  messages: Message[],
  extra: Partial<Transcript> = {},
): Transcript {
  return {
    format,
    system: [],
    tools: null,
    settings: {},
    usage: [],
    warnings: [],
    listKey: 'messages',
    raw: undefined,
    ...extra,
    messages: messages.map((m, i) => ({ ...m, index: i, rawIndex: i, path: `messages.${i}` })),
  };
}

/** Renumber a message subset as if it had been pasted on its own. */
export function renumber(t: Transcript, messages: Message[]): Transcript {
  return transcript(t.format, messages, { system: t.system, tools: t.tools, settings: t.settings });
}

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
  opts: { maxExchanges?: number; withSystem?: boolean } = {},
): fc.Arbitrary<Transcript> {
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
          const ids = Array.from(
            { length: round.calls },
            () => `${format === 'openai-chat' ? 'call' : 'toolu'}_${seed}_${id++}`,
          );
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

/**
 * The `message:block` → pairs Map the timeline built before its typed tables (model/pairTables.ts):
 * the plain reference those tables are tested against. Keys `${message}:${block}` (our indices).
 */
export function pairsByBlockReference(pairs: readonly ToolPair[]): Map<string, ToolPair[]> {
  const out = new Map<string, ToolPair[]>();
  const add = (k: string, p: ToolPair) => {
    const list = out.get(k);
    if (list) list.push(p);
    else out.set(k, [p]);
  };
  for (const p of pairs) {
    if (p.call) add(`${p.call.message}:${p.call.block}`, p);
    if (p.result) add(`${p.result.message}:${p.result.block}`, p);
  }
  return out;
}

/**
 * A Gemini CLI session (our own fixture) whose stored functionResponse names another id (`ls-9`)
 * than its call (`ls-1`): turn g1 becomes two messages of ours (the call, the stored results).
 * @param opts.model the model of turn g1 (Gemini 3 adds the G4 rule); none by default
 * @param opts.thanks end with a user turn after the answer
 */
export function geminiCliWrongIdSession(opts: { model?: string; thanks?: boolean } = {}): unknown {
  return {
    sessionId: 's-wrong-id',
    projectHash: 'p',
    messages: [
      { id: 'u1', type: 'user', content: 'List the files.' },
      {
        id: 'g1',
        type: 'gemini',
        ...(opts.model ? { model: opts.model } : {}),
        content: 'Listing.',
        toolCalls: [
          {
            id: 'ls-1',
            name: 'list_directory',
            args: { path: '.' },
            status: 'success',
            result: [
              {
                functionResponse: {
                  id: 'ls-9',
                  name: 'list_directory',
                  response: { output: 'NOTES.md' },
                },
              },
            ],
          },
        ],
      },
      { id: 'g2', type: 'gemini', content: 'One file: NOTES.md.' },
      ...(opts.thanks ? [{ id: 'u2', type: 'user', content: 'Thanks.' }] : []),
    ],
  };
}

/**
 * One token per message: the `token_counter=len` budgets of the trims public reports describe
 * (LangChain `trim_messages`, AutoGen's history limiter), so a budget of N keeps N messages.
 */
export function perMessageTable(t: Transcript): TokenTable {
  const n = t.messages.length;
  const prefix = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) prefix[i + 1] = i + 1;
  return {
    perMessage: new Uint32Array(n).fill(1),
    prefix,
    system: 0,
    total: n,
    basis: { encoding: 'len', exact: true, label: '1 per message' },
  };
}

/** Index of a violation's message in the trimmed request (kept messages, as sent); -1 if none. */
export function trimmedIndex(t: Transcript, kept: readonly number[], rawIndex: number): number {
  return kept.findIndex((i) => t.messages[i]?.rawIndex === rawIndex);
}

/**
 * True when a text is taken for a container (a curl command, an SSE dump, a HAR, a LiteLLM log, a
 * batch file) rather than read as itself. Text that is not JSON at all is not a container either.
 */
export function takenForContainer(text: string, name?: string): boolean {
  if (unwrapText(text) !== null) return true;
  const src = readSource(text, name);
  return src.ok && openContainer(src.value) !== null;
}
