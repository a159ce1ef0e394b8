/**
 * Compaction inputs (provider-rules.md §9): Anthropic's `compaction` block (server compaction,
 * `compact_20260112`) and context editing (`context_management.edits`: cleared tool results and
 * thinking), OpenAI Responses' `compaction` item (`context_management` compaction,
 * `POST /responses/compact`). Bodies carrying them are valid; these checks are warnings (no
 * public capture gives a 400 text for them): where a compaction block or item sits, whether it
 * was emptied, and what the provider ignores before it. Rule codes AC1–AC4 (Anthropic) and RC1–RC2 (Responses)
 * (catalogue/compaction.ts).
 */
import type { Block, Message, Transcript } from '../types.ts';
import type { Push } from './rules/common.ts';

/** True for a compaction block (Anthropic) or item (Responses), as our parsers keep them. */
export function isCompaction(b: Block | undefined): boolean {
  return b?.type === 'other' && b.label === 'compaction';
}

/** The `context_management` edit types a request body asks for (`[]` when none). */
export function contextEdits(t: Transcript): string[] {
  const raw = t.raw;
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return [];
  const cm = (raw as Record<string, unknown>).context_management;
  const list = Array.isArray(cm)
    ? cm
    : cm !== null && typeof cm === 'object'
      ? (cm as Record<string, unknown>).edits
      : undefined;
  if (!Array.isArray(list)) return [];
  const out: string[] = [];
  for (const e of list)
    if (e !== null && typeof e === 'object' && typeof (e as { type?: unknown }).type === 'string')
      out.push((e as { type: string }).type);
  return out;
}

/** The compaction block's own text or payload, '' when emptied. */
function payload(b: Block): string {
  if (b.type !== 'other' || b.raw === null || typeof b.raw !== 'object') return '';
  const r = b.raw as Record<string, unknown>;
  const v = r.content ?? r.encrypted_content;
  return typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v);
}

/**
 * Anthropic: AC1 a compaction block after other blocks of its message (moved: the API drops the
 * blocks before it), AC2 a compaction block in a user message, AC3 an emptied one, AC4 a request
 * that asks for compaction and starts with an assistant message without one (the block dropped
 * with what it replaced). Each finding reads one message, so a cut finds it as the whole does.
 */
export function checkAnthropicCompaction(
  t: Transcript,
  source: readonly Message[],
  push: Push,
): void {
  checkCompactionHead(t, source, push);
  // A plain loop: this runs on every validation, once per message (no closure per message).
  for (const m of source) checkCompactionBlocks(m, push);
}

/** AC4: a request that asks for compaction and starts with an assistant message without one. */
export function checkCompactionHead(t: Transcript, source: readonly Message[], push: Push): void {
  const first = source[0];
  if (
    first?.role === 'assistant' &&
    !isCompaction(first.blocks[0]) &&
    contextEdits(t).includes('compact_20260112')
  )
    push({
      rule: 'compaction_dropped',
      code: 'AC4',
      severity: 'warning',
      messageIndex: first.rawIndex,
      index: first.index,
      blockIndex: null,
      ids: [],
      providerPath: null,
      message:
        'The request asks for compaction and starts with an assistant message that has no compaction block: the block that summarised what was dropped is gone.',
      title: 'Compaction block dropped',
      why: 'After a compaction the next requests must send the compaction block back; the history before it may go, the block may not.',
      confidence: 'I',
    });
}

/**
 * AC1–AC3 of one message (each finding reads its message alone, so a chain of requests that
 * append messages keeps a message's findings: `anthropicChain`).
 */
export function checkCompactionBlocks(m: Message, push: Push): void {
  const blocks = m.blocks;
  for (let bi = 0; bi < blocks.length; bi++) {
    const b = blocks[bi] as Block;
    if (b.type !== 'other' || !isCompaction(b)) continue;
    const at = {
      messageIndex: m.rawIndex,
      index: m.index,
      blockIndex: bi,
      ids: [],
      providerPath: null,
    };
    if (m.role !== 'assistant')
      push({
        ...at,
        rule: 'compaction_moved',
        code: 'AC2',
        severity: 'warning',
        message:
          'A compaction block in a user message: the API returns it at the start of an assistant response.',
        title: 'Compaction block in a user message',
        why: 'A compaction block is sent back where the response put it, in the assistant message; moved elsewhere nothing says the API reads it as the summary.',
        confidence: 'I',
      });
    else if (bi > 0)
      push({
        ...at,
        rule: 'compaction_moved',
        code: 'AC1',
        severity: 'warning',
        message: `A compaction block after ${bi} other block${bi === 1 ? '' : 's'} of its message: the API drops every block before it.`,
        title: 'Compaction block moved',
        why: 'The API drops all message blocks prior to the compaction block, so what this message says before it is not read.',
        confidence: 'V-doc',
      });
    if (payload(b) === '')
      push({
        ...at,
        rule: 'compaction_edited',
        code: 'AC3',
        severity: 'warning',
        message: 'A compaction block with no content: the summary it carried was removed.',
        title: 'Compaction block emptied',
        why: 'The block stands for everything before it; emptied, the conversation continues from nothing.',
        confidence: 'I',
      });
  }
}

/**
 * Responses: RC1 items before the latest compaction item (the API's own advice: they may be
 * dropped, the compaction item carries their context), RC2 a compaction item without its
 * encrypted content (edited: only the server can read it).
 */
export function checkResponsesCompaction(source: readonly Message[], push: Push): void {
  let latest = -1;
  for (let i = 0; i < source.length; i++) {
    const blocks = (source[i] as Message).blocks;
    for (let bi = 0; bi < blocks.length; bi++) {
      const b = blocks[bi] as Block;
      if (b.type !== 'other' || !isCompaction(b)) continue;
      const m = source[i] as Message;
      latest = i;
      if (payload(b) === '')
        push({
          rule: 'compaction_edited',
          code: 'RC2',
          severity: 'warning',
          messageIndex: m.rawIndex,
          index: m.index,
          blockIndex: bi,
          ids: [],
          providerPath: null,
          message:
            'A compaction item without its encrypted_content: it was edited, and it carries nothing.',
          title: 'Compaction item emptied',
          why: 'A compaction item is opaque: it is sent back unchanged, as the server returned it.',
          confidence: 'I',
        });
    }
  }
  if (latest > 0) {
    const m = source[latest] as Message;
    push({
      rule: 'compaction_dropped',
      code: 'RC1',
      severity: 'warning',
      messageIndex: m.rawIndex,
      index: m.index,
      blockIndex: 0,
      ids: [],
      providerPath: null,
      message: `${latest} item${latest === 1 ? '' : 's'} before the latest compaction item: they may be dropped, it carries their context.`,
      title: 'Items before the latest compaction item',
      why: 'The latest compaction item carries what came before it; the items before it only add tokens (unless the request chains with previous_response_id, where nothing is pruned by hand).',
      confidence: 'V-doc',
    });
  }
}
