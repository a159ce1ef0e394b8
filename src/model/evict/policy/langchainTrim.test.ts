/**
 * `langchain-trim` against LangChain itself: `@langchain/core`'s `trimMessages` (strategy
 * "last", startOn "human", includeSystem, a token counter that sums our per-message counts) run
 * offline on the same transcripts as LangChain messages, at every budget of the policy's sweep,
 * on every project fixture. The messages our result keeps are the ones the library keeps; the
 * verdict at each budget is recorded.
 */
import {
  AIMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
  trimMessages,
  type BaseMessage,
} from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { isPinned } from '../../exchanges.ts';
import { projectFixtures, sweepBudgets, type LoadedFixture } from '../testing.ts';
import { simulatePolicy } from '../policies.ts';
import { isHuman } from './langchainTrim.ts';

/** The system and developer messages before the first other message (ours). */
function leadingSystem(f: LoadedFixture): number[] {
  const out: number[] = [];
  for (const m of f.t.messages) {
    if (!isPinned(m)) break;
    out.push(m.index);
  }
  return out;
}

/**
 * Our transcript as LangChain messages (the system prompt and the leading system/developer
 * messages as the one SystemMessage an agent starts with); each message's id names ours (`sys` for the prompt): a
 * user message of tool results only is one ToolMessage per result, any other user message one
 * HumanMessage (its result blocks in its content, as @langchain/anthropic takes them).
 */
function langchainMessages(f: LoadedFixture): BaseMessage[] {
  const out: BaseMessage[] = [];
  const lead = leadingSystem(f);
  if (f.t.system.length > 0 || lead.length > 0)
    out.push(new SystemMessage({ content: 's', id: 'sys' }));
  for (const m of f.t.messages) {
    const id = `m${m.index}`;
    if (lead.includes(m.index)) continue;
    if (isPinned(m)) out.push(new SystemMessage({ content: 's', id }));
    else if (m.role === 'assistant') out.push(new AIMessage({ content: 'a', id }));
    else if (m.role === 'tool') out.push(new ToolMessage({ content: 'r', tool_call_id: 'c', id }));
    else if (isHuman(m)) out.push(new HumanMessage({ content: 'h', id }));
    else
      m.blocks.forEach((_, j) =>
        out.push(new ToolMessage({ content: 'r', tool_call_id: `c${j}`, id: `${id}.${j}` })),
      );
  }
  return out;
}

/** Tokens of a LangChain message: our count, on the message's last piece (0 on the others). */
function counter(f: LoadedFixture) {
  const pieces = new Map<string, number>();
  for (const m of langchainMessages(f)) {
    const ours = (m.id ?? '').split('.')[0] as string;
    pieces.set(ours, (pieces.get(ours) ?? 0) + 1);
  }
  const seen = new Map<string, number>();
  const tokensOf = new Map<string, number>();
  for (const m of langchainMessages(f)) {
    const id = m.id ?? '';
    const ours = id.split('.')[0] as string;
    const k = (seen.get(ours) ?? 0) + 1;
    seen.set(ours, k);
    const last = k === pieces.get(ours);
    let tokens = 0;
    if (ours === 'sys') {
      tokens = f.table.system;
      for (const i of leadingSystem(f)) tokens += f.table.perMessage[i] ?? 0;
    } else tokens = f.table.perMessage[Number(ours.slice(1))] ?? 0;
    tokensOf.set(id, last ? tokens : 0);
  }
  return (msgs: BaseMessage[]) => msgs.reduce((s, m) => s + (tokensOf.get(m.id ?? '') ?? 0), 0);
}

/** Our message indices the library keeps (a piece kept keeps its message). */
async function libraryKeeps(f: LoadedFixture, budget: number): Promise<number[]> {
  const out = await trimMessages(langchainMessages(f), {
    maxTokens: budget,
    strategy: 'last',
    startOn: 'human',
    includeSystem: true,
    tokenCounter: counter(f),
  });
  const kept = new Set<number>();
  // With no human message in reach the library returns `[undefined]`: no conversation.
  for (const m of out) if (m?.id && m.id !== 'sys') kept.add(Number(m.id.split('.')[0]?.slice(1)));
  return [...kept].sort((a, b) => a - b);
}

describe('langchain-trim equals LangChain trimMessages', () => {
  const fixtures = projectFixtures();
  it.each(fixtures.map((f) => [f.name, f] as const))(
    '%s: same messages kept at every budget of the sweep; verdict recorded',
    async (_name, f) => {
      const verdicts: string[] = [];
      for (const budget of sweepBudgets(f.ctx, 'langchain-trim')) {
        if (budget < f.table.system) continue; // the library fails below its own system prompt
        const r = simulatePolicy(f.ctx, 'langchain-trim', budget);
        const ours = r.kept.filter(
          (i) => !isPinned(f.t.messages[i] as (typeof f.t.messages)[number]),
        );
        const theirs = (await libraryKeeps(f, budget)).filter(
          (i) => !isPinned(f.t.messages[i] as (typeof f.t.messages)[number]),
        );
        expect(ours, `budget ${budget}`).toEqual(theirs);
        verdicts.push(`${budget}: ${r.firstError ? `400 ${r.firstError.code}` : 'valid'}`);
      }
      expect(verdicts).toMatchSnapshot();
    },
  );
});
