/**
 * Test support for the model, in one import: the builders (builders.ts) and fast-check
 * arbitraries (arbitraries.ts) for transcripts, and the small helpers below. Production
 * code never imports these files (they are excluded from the model's tsconfig and lint refuses
 * the import).
 */
import { openContainer, unwrapText } from '../parse/containers.ts';
import { readSource } from '../parse/index.ts';
import type { Transcript } from '../types.ts';
import type { ToolPair } from '../pairing.ts';
import type { TokenTable } from '../tokens.ts';

export * from './builders.ts';
export * from './arbitraries.ts';

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
