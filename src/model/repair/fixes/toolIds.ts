/**
 * A tool id the provider's schema refuses (A18, B10, M4, O10, R8): renamed, in the call and in
 * every result that names it, to one that fits (rules/toolIds.ts `fittingId`), so the pair stays.
 */
import type { Block } from '../../types.ts';
import { ID_SHAPES, fittingId } from '../../validate/rules/toolIds.ts';
import { ENDPOINTS, type Violation } from '../../validate/index.ts';
import type { Work } from '../work.ts';

/** Every tool id in the working messages (calls and results), to keep a new id unique. */
function idsInUse(w: Work): Set<string> {
  const out = new Set<string>();
  for (const m of w.msgs)
    for (const b of m.blocks)
      if (b.type === 'tool_use' && b.id !== null) out.add(b.id);
      else if (b.type === 'tool_result' && b.toolUseId !== null) out.add(b.toolUseId);
  return out;
}

/** The block with `from` renamed to `to` (a call's id or a result's tool_use_id), or itself. */
function renamed(b: Block, from: string, to: string): Block {
  if (b.type === 'tool_use' && b.server !== true && b.id === from) return { ...b, id: to };
  if (b.type === 'tool_result' && b.server === undefined && b.toolUseId === from)
    return { ...b, toolUseId: to };
  return b;
}

/** Rename the refused id of `v` wherever it stands. */
export function fixToolId(w: Work, v: Violation): boolean {
  const from = v.ids[0];
  // A dialect reports its base endpoint's id rule (A18 through Bedrock InvokeModel, O10 on Azure).
  const base = ENDPOINTS[w.provider].base;
  const shape = ID_SHAPES[w.provider] ?? (base !== undefined ? ID_SHAPES[base] : undefined);
  if (from === undefined || !shape) return false;
  const inUse = idsInUse(w);
  const to = fittingId(shape, from, (x) => inUse.has(x));
  if (to === from) return false;
  let changed = false;
  for (let i = 0; i < w.msgs.length; i++) {
    const m = w.msgs[i];
    if (!m) continue;
    const blocks = m.blocks.map((b) => renamed(b, from, to));
    if (blocks.every((b, k) => b === m.blocks[k])) continue;
    const call = m.blocks.some((b) => b.type === 'tool_use' && b.id === from);
    const n = w.setBlocks(i, blocks);
    w.note(
      'tool_id_renamed',
      m,
      n,
      [from, to],
      call
        ? `Renamed tool id ${from} to ${to} in the call (${v.code} refuses it); its results follow.`
        : `The result of ${from} names it ${to}, as its call now does.`,
    );
    changed = true;
  }
  return changed;
}
