/**
 * The kinds of change a repair makes: one entry per `RepairChange.kind` (one per fix, some fixes
 * make two). `RepairKind` is derived from this registry; a fix that makes a new kind of change adds
 * its entry here.
 */

/** What the registry says of a kind of change. */
export interface RepairKindDef {
  /** The change in a few plain words, shown where the id would be. */
  words: string;
}

export const REPAIR_KIND_REGISTRY = {
  error_result_added: { words: 'error result added' },
  result_reattached: { words: 'result moved to its call' },
  results_merged: { words: 'results merged' },
  text_moved: { words: 'text moved' },
  orphan_removed: { words: 'orphaned result removed' },
  exchange_removed: { words: 'exchange removed' },
  duplicate_result_removed: { words: 'second result removed' },
  replayed_turn_removed: { words: 'replayed turn removed' },
  duplicate_call_removed: { words: 'repeated call removed' },
  empty_removed: { words: 'empty message removed' },
  empty_calls_dropped: { words: 'empty tool_calls left out' },
  null_content_emptied: { words: 'null content sent as empty text' },
  whitespace_trimmed: { words: 'whitespace trimmed' },
  error_result_filled: { words: 'empty error result filled' },
  item_id_dropped: { words: 'item id dropped' },
  reasoning_removed: { words: 'reasoning removed' },
  tool_id_renamed: { words: 'tool id renamed' },
  reasoning_emptied: { words: 'reasoning emptied' },
} as const satisfies Readonly<Record<string, RepairKindDef>>;

/** The kinds of change a repair makes: the keys of `REPAIR_KIND_REGISTRY`. */
export type RepairKind = keyof typeof REPAIR_KIND_REGISTRY;

/** Every repair kind, in the registry's order. */
export const REPAIR_KINDS = Object.keys(REPAIR_KIND_REGISTRY) as readonly RepairKind[];
