/**
 * Rebuilding an OpenAI Chat stream (`chat.completion.chunk`s) into the `chat.completion` it
 * streamed: content, reasoning, refusal and tool-call arguments accumulated per choice and index.
 */
import { isObject, str, type Json } from '../util.ts';
import { finishJson, type RebuiltStream } from './sseRebuilt.ts';

interface ChatChoice {
  role: string;
  content: string | null;
  reasoning: string | null;
  refusal: string | null;
  calls: Map<number, { id?: string; type: string; name: string; args: string }>;
  legacy: { name: string; args: string } | null;
  finish: unknown;
}

function newChoice(): ChatChoice {
  return {
    role: 'assistant',
    content: null,
    reasoning: null,
    refusal: null,
    calls: new Map(),
    legacy: null,
    finish: null,
  };
}

/** The message of a finished choice; tool arguments that are not complete JSON get a note. */
function choiceMessage(c: ChatChoice, notes: string[]): Json {
  const message: Json = { role: c.role, content: c.content };
  if (c.reasoning !== null) message.reasoning_content = c.reasoning;
  if (c.refusal !== null) message.refusal = c.refusal;
  if (c.calls.size > 0)
    message.tool_calls = [...c.calls.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([, t]) => {
        finishJson(t.args, `${t.name || 'a tool'} (${t.id ?? '?'})`, notes);
        return {
          ...(t.id !== undefined ? { id: t.id } : {}),
          type: t.type,
          function: { name: t.name, arguments: t.args },
        };
      });
  if (c.legacy) message.function_call = { name: c.legacy.name, arguments: c.legacy.args };
  return message;
}

/**
 * Apply one chunk's choice to the accumulated choice: role, content, reasoning, refusal, the
 * legacy `function_call`, and tool calls by their index.
 */
function applyChoiceDelta(c: ChatChoice, raw: Json): void {
  if (raw.finish_reason !== undefined && raw.finish_reason !== null) c.finish = raw.finish_reason;
  const delta = isObject(raw.delta) ? raw.delta : {};
  if (typeof delta.role === 'string') c.role = delta.role;
  if (typeof delta.content === 'string') c.content = (c.content ?? '') + delta.content;
  const reasoning = str(delta.reasoning_content) ?? str(delta.reasoning);
  if (reasoning !== undefined) c.reasoning = (c.reasoning ?? '') + reasoning;
  if (typeof delta.refusal === 'string') c.refusal = (c.refusal ?? '') + delta.refusal;
  if (isObject(delta.function_call)) {
    c.legacy ??= { name: '', args: '' };
    c.legacy.name += str(delta.function_call.name) ?? '';
    c.legacy.args += str(delta.function_call.arguments) ?? '';
  }
  for (const [tpos, tc] of (Array.isArray(delta.tool_calls) ? delta.tool_calls : []).entries()) {
    if (!isObject(tc)) continue;
    const ti = typeof tc.index === 'number' ? tc.index : tpos;
    let t = c.calls.get(ti);
    if (!t) {
      t = { type: 'function', name: '', args: '' };
      c.calls.set(ti, t);
    }
    if (typeof tc.id === 'string' && tc.id !== '') t.id = tc.id;
    if (typeof tc.type === 'string') t.type = tc.type;
    const fn = isObject(tc.function) ? tc.function : {};
    const name = str(fn.name);
    // The name comes once; a provider that repeats it in every chunk must not double it.
    if (name !== undefined && name !== t.name) t.name += name;
    t.args += str(fn.arguments) ?? '';
  }
}

/** One `chat.completion` per completion id. */
export function rebuildOpenaiChat(events: Json[]): RebuiltStream[] {
  const out: RebuiltStream[] = [];
  let head: Json | null = null;
  let choices = new Map<number, ChatChoice>();
  let usage: unknown;
  const close = () => {
    if (!head) return;
    const notes: string[] = [];
    const list = [...choices.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([index, c]) => ({
        index,
        message: choiceMessage(c, notes),
        finish_reason: c.finish ?? null,
      }));
    if (list.every((c) => c.finish_reason === null))
      notes.push('No chunk carries a `finish_reason`: the response may be cut off.');
    out.push({
      family: 'openai-chat',
      value: {
        id: head.id,
        object: 'chat.completion',
        created: head.created,
        model: head.model,
        choices: list,
        ...(usage !== undefined && usage !== null ? { usage } : {}),
      },
      notes,
    });
    head = null;
  };
  for (const d of events) {
    if (head && d.id !== undefined && d.id !== head.id) close();
    if (!head) {
      head = d;
      choices = new Map();
      usage = undefined;
    }
    if (d.usage !== undefined && d.usage !== null) usage = d.usage;
    for (const [pos, raw] of (Array.isArray(d.choices) ? d.choices : []).entries()) {
      if (!isObject(raw)) continue;
      const index = typeof raw.index === 'number' ? raw.index : pos;
      let c = choices.get(index);
      if (!c) {
        c = newChoice();
        choices.set(index, c);
      }
      applyChoiceDelta(c, raw);
    }
  }
  close();
  return out;
}
