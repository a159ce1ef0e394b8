/**
 * What a request body's top-level `model` says about its format, for the sniffs of the request
 * formats that read a `messages` list (OpenAI Chat, Anthropic, Bedrock Converse). A body whose
 * messages fit several of them (`{"text": "hi"}` parts, plain string contents) is read as the API
 * its model is served by: a `gpt-…` body is OpenAI Chat's, a `claude-…` body Anthropic's. The
 * name only steers between shapes that fit; it never makes a body another format's.
 */

/**
 * The API family a model name belongs to:
 * - `openai`: OpenAI's own names (`gpt-4o`, `o3-mini`, `chatgpt-4o-latest`, `codex-mini`);
 * - `claude`: Anthropic's ids (`claude-sonnet-4-5`), as the Messages API takes them;
 * - `gemini`: Google's (`gemini-2.5-flash`, `models/gemini-…`); with `messages` that is Gemini's
 *   OpenAI-compatible Chat endpoint, not `generateContent` (whose body holds `contents`);
 * - `bedrock`: a Bedrock model id (`anthropic.claude-3-5-sonnet-20240620-v1:0`,
 *   `us.amazon.nova-pro-v1:0`, an ARN, LiteLLM's `bedrock/…`), as a logged Converse body may
 *   carry it beside its messages;
 * - null: any other name, or no string.
 */
export type ModelFamily = 'openai' | 'claude' | 'gemini' | 'bedrock' | null;

const OPENAI = /^(?:openai\/)?(?:gpt|o\d|chatgpt|codex)/;
const CLAUDE = /^claude-/;
const GEMINI = /^(?:models\/)?gemini-/;
/**
 * Bedrock's model ids: `<provider>.<model>` with an optional cross-region prefix (`us.`, `eu.`,
 * `apac.`, `global.`, …), inference profile and model ARNs, and LiteLLM's `bedrock/` prefix.
 * Providers as Bedrock names them (docs.aws.amazon.com/bedrock/latest/userguide/model-ids.html).
 */
const BEDROCK =
  /^(?:bedrock\/|arn:aws[\w-]*:bedrock:|(?:[a-z]{2,6}\.)?(?:anthropic|amazon|meta|mistral|cohere|ai21|deepseek|qwen|openai|writer|twelvelabs|stability|luma|moonshot|moonshotai|google|minimax|nvidia)\.[a-z0-9])/;

/**
 * @param model a body's `model` value (anything)
 * @returns its family, or null for a name of no known family or a value that is no string.
 *   Bedrock ids are tested first: `anthropic.claude-…` and `openai.gpt-oss-…` are Bedrock's.
 */
export function modelFamily(model: unknown): ModelFamily {
  if (typeof model !== 'string') return null;
  if (BEDROCK.test(model)) return 'bedrock';
  if (OPENAI.test(model)) return 'openai';
  if (CLAUDE.test(model)) return 'claude';
  if (GEMINI.test(model)) return 'gemini';
  return null;
}
