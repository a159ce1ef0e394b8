/**
 * The vocabulary of Responses input items (openai-node `ResponseInputItem`): which item types are
 * client calls and their outputs, server-side tool items, message roles and content parts. Read
 * by the parser (openaiResponses.ts) and its sniff.
 */
import type { Role } from '../../types.ts';
import { nameTable } from '../../own.ts';

export const MESSAGE_ROLES: ReadonlyMap<string, Role> = nameTable({
  user: 'user',
  assistant: 'assistant',
  system: 'system',
  developer: 'developer',
});

/** Item types that are a client tool call answered by a `<type>_output` item with the same call_id. */
export const CALL_TYPES = new Set([
  'function_call',
  'custom_tool_call',
  'computer_call',
  'local_shell_call',
  'shell_call',
  'apply_patch_call',
  'tool_search_call',
]);
export const OUTPUT_TYPES = new Set([
  'function_call_output',
  'custom_tool_call_output',
  'computer_call_output',
  'local_shell_call_output',
  'shell_call_output',
  'apply_patch_call_output',
  'tool_search_output',
]);
/** Server-side tool items: call and result live in one item (no separate output). */
export const SERVER_ITEMS = new Set([
  'web_search_call',
  'file_search_call',
  'code_interpreter_call',
  'image_generation_call',
  'mcp_call',
  'mcp_list_tools',
  'mcp_approval_request',
]);
/** Every item type we recognise, for the sniff. */
export const KNOWN_TYPES = new Set([
  ...CALL_TYPES,
  ...OUTPUT_TYPES,
  ...SERVER_ITEMS,
  'message',
  'reasoning',
  'item_reference',
  'compaction',
  'mcp_approval_response',
]);
/** Types that only the Responses API uses (a strong signal in a bare array). */
export const STRONG_TYPES = new Set([
  ...CALL_TYPES,
  ...OUTPUT_TYPES,
  ...SERVER_ITEMS,
  'reasoning',
  'item_reference',
  'compaction',
]);
export const PART_TYPES = new Set([
  'input_text',
  'output_text',
  'input_image',
  'input_file',
  'input_audio',
  'refusal',
  'summary_text',
  'reasoning_text',
]);
