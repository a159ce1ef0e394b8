/**
 * Claude on Bedrock InvokeModel (`bedrock-runtime.{region}.amazonaws.com/model/{id}/invoke`): the
 * Anthropic body (`anthropic_version: "bedrock-2023-05-31"`); Anthropic's texts come back after
 * `The model returned the following errors: ` in Bedrock's ValidationException body.
 */
import { anthropicValidator } from '../anthropic.ts';
import { CLAUDE_PREFIX } from '../bedrock.ts';
import { bedrockEnvelope } from '../catalogue/index.ts';
import type { Violation } from '../types.ts';
import { dialectValidator } from './dialect.ts';
import type { Dialect, Endpoint } from './types.ts';
import { BEDROCK_CLAUDE_WINDOWS } from './windows.ts';

/** An Anthropic violation as Bedrock InvokeModel answers it. */
function viaBedrock(v: Violation): Violation {
  if (v.error === null) return v;
  const message = CLAUDE_PREFIX + v.message;
  return { ...v, message, error: bedrockEnvelope(message) };
}

const DIALECT: Dialect = { rewrite: viaBedrock, adds: [], rewords: [] };

export const anthropicBedrock: Endpoint = {
  id: 'anthropic-bedrock',
  label: 'Claude on Bedrock (InvokeModel)',
  api: 'anthropic-messages',
  base: 'anthropic',
  validator: dialectValidator(
    'anthropic-bedrock',
    'Claude on Bedrock (InvokeModel)',
    anthropicValidator,
    DIALECT,
  ),
  dialect: DIALECT,
  hosts: [/^bedrock-runtime(-fips)?\.[\w-]+\.amazonaws\.com$/],
  paths: [/\/model\/([^/]+)\/invoke(?:-with-response-stream)?$/],
  body: (v) => 'anthropic_version' in v,
  // Bedrock model ids and inference profiles: `anthropic.claude-…`, `us.anthropic.claude-…`, ARNs.
  modelIds: /(^|[.:/])anthropic\.claude-/,
  // Request URLs as documented (docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_InvokeModel.html).
  urls: [
    'https://bedrock-runtime.us-east-1.amazonaws.com/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke',
    'https://bedrock-runtime.us-west-2.amazonaws.com/model/anthropic.claude-3-5-haiku-20241022-v1%3A0/invoke-with-response-stream',
  ],
  pathStyle: 'messages.N.content.M after `The model returned the following errors: `',
  evidenced: 'all',
  evidence:
    'n8n-io/n8n#16987 (A2 with the prefix); pydantic/pydantic-ai#2453, langchain-ai/langchain-aws#505 (older docs link in 2025 captures); anomalyco/opencode#25005 (T6)',
  asOf: '2025-09',
  tokenizer: 'claude',
  windows: BEDROCK_CLAUDE_WINDOWS,
};
