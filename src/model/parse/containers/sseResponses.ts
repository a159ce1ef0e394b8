/**
 * Rebuilding an OpenAI Responses stream (`response.*` events) into the `response` it streamed:
 * the final `response.completed` when there is one, else the output items from their deltas.
 */
import { isObject, str, type Json } from '../util.ts';
import { finishJson, type RebuiltStream } from './sseRebuilt.ts';

/**
 * An output_text delta (appended) or done event (the whole text) applied to its message item's
 * content part.
 */
function applyOutputText(item: Json, d: Json, done: boolean): void {
  const ci = typeof d.content_index === 'number' ? d.content_index : 0;
  const content: Json[] = Array.isArray(item.content) ? [...(item.content as Json[])] : [];
  const part: Json = isObject(content[ci]) ? { ...content[ci] } : { type: 'output_text', text: '' };
  part.text = done ? (str(d.text) ?? '') : (str(part.text) ?? '') + (str(d.delta) ?? '');
  content[ci] = part;
  item.content = content;
}

/** A note for each function call whose rebuilt arguments are not complete JSON. */
function noteIncompleteArguments(items: Json[], notes: string[]): void {
  for (const it of items)
    if (it && it.type === 'function_call' && typeof it.arguments === 'string')
      finishJson(it.arguments, `${str(it.name) ?? 'a tool'} (${str(it.call_id) ?? '?'})`, notes);
}

/** One `response` per `response.created`. */
export function rebuildResponses(events: Json[]): RebuiltStream[] {
  const out: RebuiltStream[] = [];
  let base: Json | null = null;
  let items: Json[] = [];
  let final: Json | null = null;
  let notes: string[] = [];
  const close = () => {
    if (!base && !final) return;
    if (final && Array.isArray(final.output)) {
      out.push({ family: 'openai-responses', value: { object: 'response', ...final }, notes });
    } else {
      notes.push(
        'The stream has no `response.completed`: the output was rebuilt from its deltas and may be cut off.',
      );
      noteIncompleteArguments(items, notes);
      out.push({
        family: 'openai-responses',
        value: {
          ...(base ?? {}),
          object: 'response',
          output: items.filter((x) => x !== undefined),
        },
        notes,
      });
    }
    base = null;
    final = null;
    items = [];
    notes = [];
  };
  for (const d of events) {
    const type = str(d.type) ?? '';
    const oi = typeof d.output_index === 'number' ? d.output_index : -1;
    if (type === 'response.created') {
      close();
      base = isObject(d.response) ? { ...d.response } : {};
      continue;
    }
    base ??= {};
    if (
      (type === 'response.completed' ||
        type === 'response.incomplete' ||
        type === 'response.failed') &&
      isObject(d.response)
    ) {
      final = d.response;
      const err = isObject(d.response.error) ? d.response.error : null;
      if (err)
        notes.push(`The response failed: ${str(err.code) ?? ''} ${str(err.message) ?? ''}`.trim());
      if (type === 'response.incomplete') notes.push('The response is marked incomplete.');
      continue;
    }
    if (type === 'error') {
      notes.push(
        `The stream ended with an error: ${str(d.code) ?? ''} ${str(d.message) ?? ''}`.trim(),
      );
      continue;
    }
    if (
      (type === 'response.output_item.added' || type === 'response.output_item.done') &&
      oi >= 0
    ) {
      if (isObject(d.item)) items[oi] = { ...d.item };
      continue;
    }
    const item = oi >= 0 ? items[oi] : undefined;
    if (!item) continue;
    if (type === 'response.function_call_arguments.delta')
      item.arguments = (str(item.arguments) ?? '') + (str(d.delta) ?? '');
    else if (type === 'response.function_call_arguments.done' && typeof d.arguments === 'string')
      item.arguments = d.arguments;
    else if (type === 'response.output_text.delta' || type === 'response.output_text.done')
      applyOutputText(item, d, type === 'response.output_text.done');
  }
  close();
  return out;
}
