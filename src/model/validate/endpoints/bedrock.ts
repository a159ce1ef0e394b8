/** AWS Bedrock Converse (`bedrock-runtime.{region}.amazonaws.com/model/{id}/converse`). */
import { bedrockValidator } from '../bedrock.ts';
import type { Endpoint } from './types.ts';
import { BEDROCK_CONVERSE_WINDOWS } from './windows.ts';

export const bedrock: Endpoint = {
  id: 'bedrock',
  label: 'AWS Bedrock Converse',
  api: 'bedrock-converse',
  validator: bedrockValidator,
  hosts: [],
  paths: [/\/model\/([^/]+)\/converse(?:-stream)?$/],
  pathStyle: 'messages.N.content',
  evidenced: 'all',
  evidence: 'the Bedrock rules of the catalogue (B*)',
  asOf: '2026-09',
  tokenizer: 'claude',
  windows: BEDROCK_CONVERSE_WINDOWS,
};
