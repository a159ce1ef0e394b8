/**
 * Test support for the library-backed policies: our transcripts as the AI SDK's and LangChain's
 * messages, what the libraries themselves keep (run offline), and what our policies keep, in the
 * same keys. Used by the unit tests on the project's fixtures and by the corpus suite on the real
 * logs. Tests only.
 */
import { pruneMessages, type ModelMessage } from 'ai';
import {
  AIMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
  trimMessages,
  type BaseMessage,
} from '@langchain/core/messages';
import { isPinned } from '../exchanges.ts';
import { simulatePolicy } from '../evict/policies.ts';
import type { LoadedFixture } from './evict.ts';
import { sdkView, type SdkMessage, type SdkPart } from '../evict/policy/aiSdkPrune.ts';
import { isHuman } from '../evict/policy/langchainTrim.ts';

/** Our view as the SDK's own messages; every part carries where it comes from. */
function modelMessages(view: readonly SdkMessage[]): ModelMessage[] {
  const names = new Map<string, string>();
  for (const s of view)
    for (const p of s.parts ?? []) if (p.type === 'tool-call') names.set(p.id ?? '', p.name ?? '');
  const from = (p: SdkPart) => ({ ti: { m: p.m, b: p.b } });
  const part = (p: SdkPart) => {
    switch (p.type) {
      case 'reasoning':
        return { type: 'reasoning' as const, text: 'r', providerOptions: from(p) };
      case 'tool-call':
        return {
          type: 'tool-call' as const,
          toolCallId: p.id ?? '',
          toolName: p.name ?? '',
          input: {},
          providerOptions: from(p),
        };
      case 'tool-result':
        return {
          type: 'tool-result' as const,
          toolCallId: p.id ?? '',
          toolName: names.get(p.id ?? '') ?? p.name ?? '',
          output: { type: 'text' as const, value: 'x' },
          providerOptions: from(p),
        };
      case 'file':
        return {
          type: 'file' as const,
          data: 'AA==',
          mediaType: 'image/png',
          providerOptions: from(p),
        };
      default:
        return { type: 'text' as const, text: 't', providerOptions: from(p) };
    }
  };
  return view.map((s) => {
    if (s.role === 'system')
      return {
        role: 'system',
        content: s.text ?? '',
        providerOptions: { ti: { m: s.ours, b: -1 } },
      };
    return { role: s.role, content: (s.parts ?? []).map(part) } as ModelMessage;
  });
}

/** What the library keeps: "m:b" for each part, "m:-1" for a system message. */
export function aiSdkLibraryKeeps(f: LoadedFixture, budget: number): string[] {
  const messages = modelMessages(sdkView(f.t.messages));
  const out =
    f.table.total > budget
      ? pruneMessages({
          messages,
          reasoning: 'before-last-message',
          toolCalls: 'before-last-2-messages',
          emptyMessages: 'remove',
        })
      : messages;
  const keys: string[] = [];
  for (const m of out) {
    if (typeof m.content === 'string') {
      const ti = (m.providerOptions as { ti: { m: number } }).ti;
      keys.push(`${ti.m}:-1`);
      continue;
    }
    for (const p of m.content) {
      const from = ('providerOptions' in p ? p.providerOptions : undefined) as unknown as {
        ti: { m: number; b: number };
      };
      keys.push(`${from.ti.m}:${from.ti.b}`);
    }
  }
  return keys.sort();
}

/** What our result keeps, in the same keys. */
export function aiSdkPolicyKeeps(f: LoadedFixture, budget: number) {
  const r = simulatePolicy(f.ctx, 'ai-sdk-prune', budget);
  const removed = new Set((r.edits ?? []).map((e) => `${e.index}:${e.block}`));
  const keys: string[] = [];
  for (const i of r.kept) {
    const m = f.t.messages[i];
    if (!m) continue;
    if (m.role === 'system' || m.role === 'developer') keys.push(`${i}:-1`);
    else m.blocks.forEach((_, b) => removed.has(`${i}:${b}`) || keys.push(`${i}:${b}`));
  }
  return { r, keys: keys.sort() };
}

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
export async function langchainLibraryKeeps(f: LoadedFixture, budget: number): Promise<number[]> {
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

/** Our kept non-pinned messages at a budget, and the library's (langchain-trim). */
export async function langchainBoth(
  f: LoadedFixture,
  budget: number,
): Promise<{ ours: number[]; theirs: number[]; r: ReturnType<typeof simulatePolicy> }> {
  const r = simulatePolicy(f.ctx, 'langchain-trim', budget);
  const notPinned = (i: number) => {
    const m = f.t.messages[i];
    return m !== undefined && !isPinned(m);
  };
  const ours = r.kept.filter(notPinned);
  const theirs = (await langchainLibraryKeeps(f, budget)).filter(notPinned);
  return { ours, theirs, r };
}
