/**
 * Compaction inputs (provider-rules.md §9): Anthropic's `compaction` block and context editing,
 * OpenAI Responses' `compaction` item. A body carrying them is valid; no public capture gives a
 * 400 text for a misplaced or emptied one, so these are warnings (checks in
 * ../compaction.ts).
 */
import type { RuleSpec } from './types.ts';

const ANTHROPIC_COMPACTION_DOCS =
  'platform.claude.com/docs/en/build-with-claude/compaction ("the API automatically drops all message blocks prior to the compaction block")';
const RESPONSES_COMPACTION_DOCS =
  'developers.openai.com/api/docs/guides/compaction ("you can drop items that came before the most recent compaction item"; the item "is opaque")';

export const COMPACTION_RULES: readonly RuleSpec[] = [
  {
    code: 'AC1',
    rules: ['compaction_moved'],
    providers: ['anthropic'],
    severity: 'warning',
    confidence: 'V-doc',
    condition:
      'A `compaction` block after other blocks of its assistant message (moved there): the API drops every block before it, so those blocks are not read.',
    text: null,
    path: '',
    index: 'The compaction block.',
    source: ANTHROPIC_COMPACTION_DOCS,
    note: 'The response puts the block first; the docs say what precedes it is dropped, not that the request is refused.',
  },
  {
    code: 'AC2',
    rules: ['compaction_moved'],
    providers: ['anthropic'],
    severity: 'warning',
    confidence: 'I',
    condition: 'A `compaction` block in a user message.',
    text: null,
    path: '',
    index: 'The compaction block.',
    source: ANTHROPIC_COMPACTION_DOCS,
    note: 'The docs show it only at the start of an assistant response; no capture says what the API does with it elsewhere.',
  },
  {
    code: 'AC3',
    rules: ['compaction_edited'],
    providers: ['anthropic'],
    severity: 'warning',
    confidence: 'I',
    condition: 'A `compaction` block with no content (its summary removed).',
    text: null,
    path: '',
    index: 'The compaction block.',
    source: ANTHROPIC_COMPACTION_DOCS,
    note: 'The block stands for everything before it; an emptied one leaves the conversation without its past.',
  },
  {
    code: 'AC4',
    rules: ['compaction_dropped'],
    providers: ['anthropic'],
    severity: 'warning',
    confidence: 'I',
    condition:
      'The request asks for compaction (`context_management.edits` holds `compact_20260112`) and starts with an assistant message that has no `compaction` block: the history before the block was dropped and the block with it.',
    text: null,
    path: '',
    index: 'The first message.',
    source: `${ANTHROPIC_COMPACTION_DOCS}; "you must pass the compaction block back" (same page)`,
    note: 'Accepted (an assistant message may open a request), but the summary is lost.',
  },
  {
    code: 'RC1',
    rules: ['compaction_dropped'],
    providers: ['openai-responses'],
    severity: 'warning',
    confidence: 'V-doc',
    condition:
      'Items before the latest `compaction` item in `input`: they may be dropped, the compaction item carries their context (not so with `previous_response_id` chaining, where nothing is pruned by hand).',
    text: null,
    path: '',
    index: 'The latest compaction item.',
    source: RESPONSES_COMPACTION_DOCS,
  },
  {
    code: 'RC2',
    rules: ['compaction_edited'],
    providers: ['openai-responses'],
    severity: 'warning',
    confidence: 'I',
    condition: 'A `compaction` item without its `encrypted_content` (edited or stripped).',
    text: null,
    path: '',
    index: 'The compaction item.',
    source: RESPONSES_COMPACTION_DOCS,
    note: 'The item is opaque and sent back as returned; emptied, it carries nothing. No capture of the API\u2019s answer.',
  },
];
