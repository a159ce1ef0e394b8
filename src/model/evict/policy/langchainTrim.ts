/**
 * `langchain-trim`: what LangChain's `trimMessages` does with its common settings
 * (`strategy: "last"`, `startOn: "human"`, `includeSystem: true`, `allowPartial: false`, a token
 * counter that sums the messages' counts): keep the longest run of newest messages that fits,
 * then drop from its start up to the first human message. When no human message fits, the
 * library returns no conversation at all — so, unlike our own policies, it may drop the newest
 * message too; and even when everything fits, what comes before the first human message goes. Checked against `@langchain/core`'s `trimMessages` in langchainTrim.test.ts.
 */
import { isPinned } from '../../exchanges.ts';
import type { Message } from '../../types.ts';
import type { EvictionPolicy } from '../types.ts';

/**
 * A LangChain `HumanMessage`: a user message not made of tool results only (those are
 * `ToolMessage`s; a user message with text beside its results is one HumanMessage whose content
 * carries the result blocks, as @langchain/anthropic reads it).
 */
export function isHuman(m: Message): boolean {
  return (
    m.role === 'user' && (m.blocks.length === 0 || m.blocks.some((b) => b.type !== 'tool_result'))
  );
}

function humanStarts(ctx: Parameters<EvictionPolicy['cuts']>[0]): number[] {
  const ms = ctx.cuts.t.messages;
  const out: number[] = [];
  for (const i of ctx.nonPinned) if (isHuman(ms[i] as Message)) out.push(i);
  return out;
}

export const langchainTrimPolicy: EvictionPolicy = {
  help: 'LangChain trimMessages (strategy last, startOn human, includeSystem): newest messages that fit, from a human message on',
  options: [],
  keepsTask: false,
  summarises: false,
  monotone: true,
  dropsNewest: true,
  startOn: isHuman,
  cuts: (ctx) => {
    const n = ctx.cuts.n;
    const starts = humanStarts(ctx);
    return {
      candidates: Int32Array.from([...starts, n]),
      floor: n,
      head: [],
      start: starts[0] ?? n,
    };
  },
  units: (messages) => {
    const units: number[][] = [];
    let cur: number[] = [];
    for (const m of messages) {
      if (isPinned(m)) continue;
      if (isHuman(m) && cur.length > 0) {
        units.push(cur);
        cur = [];
      }
      cur.push(m.index);
    }
    if (cur.length > 0) units.push(cur);
    return units;
  },
};
