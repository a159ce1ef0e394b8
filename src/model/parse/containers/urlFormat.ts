/**
 * Which transcript format an LLM API URL implies: the URL paths a HAR entry is picked by and a curl
 * command's URL hints (docs/formats.md#containers).
 */
import type { FormatId } from '../../types.ts';

/** The URL's path (no query, no fragment), or the text itself when it is not an absolute URL. */
function pathOf(url: string): string {
  const m = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*([^?#]*)/i.exec(url.trim());
  const p = m ? (m[1] ?? '') : (url.split(/[?#]/)[0] ?? '');
  return p.replace(/\/+$/, '');
}

/**
 * The format a request to this URL is written in.
 * @param url an absolute URL or a path (`/v1/chat/completions`)
 * @returns `anthropic-messages` for `/v1/messages` (and `/count_tokens`), `openai-chat` for
 *   `…/chat/completions` (OpenAI, Azure deployments, OpenRouter), `openai-responses` for
 *   `…/responses`, `gemini` for `:generateContent` / `:streamGenerateContent`,
 *   `bedrock-converse` for `/converse` and `/converse-stream`; undefined otherwise (Bedrock
 *   `/invoke` and Ollama `/api/chat` carry several formats, so the body decides).
 */
export function formatOfUrl(url: string): FormatId | undefined {
  const p = pathOf(url);
  if (/\/messages(\/count_tokens)?$/.test(p)) return 'anthropic-messages';
  if (/\/chat\/completions$/.test(p)) return 'openai-chat';
  if (/\/responses$/.test(p)) return 'openai-responses';
  if (/:(stream)?generateContent$/i.test(p)) return 'gemini';
  if (/\/converse(-stream)?$/.test(p)) return 'bedrock-converse';
  return undefined;
}

/**
 * True when the URL looks like a call to an LLM API (the HAR entry filter, docs/formats.md#har):
 * every path `formatOfUrl` knows, plus Bedrock `/invoke(-with-response-stream)` and Ollama
 * `/api/chat`.
 */
export function isLlmUrl(url: string): boolean {
  if (formatOfUrl(url) !== undefined) return true;
  const p = pathOf(url);
  return /\/model\/[^/]+\/invoke(-with-response-stream)?$/.test(p) || /\/api\/chat$/.test(p);
}

/**
 * A URL safe to show: without user info and query string (Gemini passes the API key as
 * `?key=…`; credentials are never displayed).
 * @param url any URL text
 * @returns the URL cut before `?` / `#`, with `user:password@` removed
 */
export function displayUrl(url: string): string {
  return (url.split(/[?#]/)[0] ?? '').replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, '$1');
}
