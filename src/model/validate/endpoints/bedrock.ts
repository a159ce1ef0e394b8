/** AWS Bedrock Converse (`bedrock-runtime.{region}.amazonaws.com/model/{id}/converse`). */
import { bedrockValidator } from '../bedrock.ts';
import type { Endpoint } from './types.ts';
import { BEDROCK_CONVERSE_WINDOWS } from './windows.ts';

export const bedrock: Endpoint = {
  id: 'bedrock',
  label: 'AWS Bedrock Converse',
  api: 'bedrock-converse',
  validator: bedrockValidator,
  hosts: [/^bedrock-runtime(-fips)?\.[\w-]+\.amazonaws\.com$/],
  paths: [/\/model\/([^/]+)\/converse(?:-stream)?$/],
  // The API's paths at any other host too: gateways and proxies keep them.
  anyHost: true,
  // Request URLs as documented (docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html).
  urls: [
    'https://bedrock-runtime.eu-west-1.amazonaws.com/model/amazon.nova-pro-v1%3A0/converse',
    'https://bedrock-runtime.us-east-1.amazonaws.com/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse-stream',
  ],
  pathStyle: 'messages.N.content',
  evidenced: 'all',
  evidence: 'the Bedrock rules of the catalogue (B*)',
  asOf: '2026-09',
  tokenizer: 'claude',
  windows: BEDROCK_CONVERSE_WINDOWS,
};
