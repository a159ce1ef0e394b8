import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsedText } from '../testing/index.ts';
import { CHARS_PER_4 } from '../tokens.ts';
import { leakedStrings } from './contract.ts';
import { publicModel } from './renames.ts';
import { checkedStructureCopy } from './shareCopy.ts';

/** Public ids: a copy keeps them as they are (each is what its API accepts). */
const PUBLIC = [
  // Bedrock base models and cross-region inference profiles.
  'anthropic.claude-3-5-sonnet-20240620-v1:0',
  'us.anthropic.claude-sonnet-4-5-20250929-v1:0',
  'eu.anthropic.claude-3-7-sonnet-20250219-v1:0',
  'global.anthropic.claude-sonnet-4-5-20250929-v1:0',
  'apac.amazon.nova-pro-v1:0',
  'anthropic.claude-3-haiku-20240307-v1:0:200k',
  'meta.llama3-1-70b-instruct-v1:0',
  'mistral.mistral-large-2407-v1:0',
  'cohere.command-r-plus-v1:0',
  'amazon.titan-text-express-v1',
  // A foundation model's ARN names no account.
  'arn:aws:bedrock:us-east-1::foundation-model/anthropic.claude-3-5-sonnet-20240620-v1:0',
  // Other providers.
  'claude-sonnet-4-5-20250929',
  'gpt-4o-2024-08-06',
  'gpt-5',
  'o3-mini',
  'gpt-oss-120b',
  'gemini-2.5-flash',
  'models/gemini-2.0-flash',
  'claude-3-5-sonnet-v2@20241022',
  'anthropic/claude-sonnet-4.5',
  'llama3.1:8b',
  'deepseek-r1:free',
  '<synthetic>',
];

/** Fine-tuned or custom names: a copy names their public base instead. */
const CUSTOM: [string, string][] = [
  ['ft:gpt-4o-mini-2024-07-18:acme:triage:9x', 'gpt-4o-mini-2024-07-18'],
  ['ft:claude-sonnet-4-5:acme-corp:triage:7f3k', 'claude-sonnet-4-5'],
  [
    'arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-3-5-sonnet-20240620-v1:0',
    'us.anthropic.claude-3-5-sonnet-20240620-v1:0',
  ],
  [
    'arn:aws:bedrock:us-east-1:123456789012:custom-model/anthropic.claude-3-haiku-20240307-v1:0:200k/a1b2c3d4e5f6',
    'anthropic.claude-3-haiku-20240307-v1:0:200k',
  ],
  ['arn:aws:bedrock:us-east-1:123456789012:provisioned-model/a1b2c3d4e5f6', 'custom-model'],
  [
    'arn:aws:bedrock:us-west-2:123456789012:application-inference-profile/x9y8z7w6v5u4',
    'custom-model',
  ],
  [
    'projects/acme-prod/locations/us-central1/publishers/google/models/gemini-2.0-flash-001',
    'gemini-2.0-flash-001',
  ],
  ['acme-gpt-4o-prod', 'gpt-4o'],
  ['payroll-bot-v7', 'custom-model'],
];

describe('publicModel: public ids kept, custom names to their public base', () => {
  it.each(PUBLIC)('keeps %s', (name) => expect(publicModel(name)).toBe(name));

  it.each(CUSTOM)('replaces %s', (name, base) => expect(publicModel(name)).toBe(base));

  it('is idempotent: what it gives is a public id', () => {
    const piece = fc.constantFrom(
      ...PUBLIC,
      ...CUSTOM.map(([n]) => n),
      'acme',
      ':',
      '/',
      '-',
      '.',
      '@',
      'v1',
      '0',
      'arn:aws:bedrock:us-east-1:123:',
      'custom-model/',
    );
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 5 }), (ps) => {
        const once = publicModel(ps.join(''));
        expect(publicModel(once)).toBe(once);
      }),
      { numRuns: 500 },
    );
  });
});

describe('structure-only copy of a Bedrock Converse body: its modelId', () => {
  const body = (modelId: string) =>
    JSON.stringify({ modelId, messages: [{ role: 'user', content: [{ text: 'Hello there' }] }] });
  const copied = (modelId: string) => {
    const copy = checkedStructureCopy(parsedText(body(modelId)).transcript, CHARS_PER_4);
    expect(copy.problems).toEqual([]);
    return (JSON.parse(copy.text) as { modelId: string }).modelId;
  };

  it('keeps a public Bedrock id and an inference profile id as they are', () => {
    for (const id of [
      'anthropic.claude-3-5-sonnet-20240620-v1:0',
      'us.anthropic.claude-sonnet-4-5-20250929-v1:0',
    ])
      expect(copied(id)).toBe(id);
  });

  it('replaces a provisioned model ARN (it names the account); the contract would flag it kept', () => {
    const arn = 'arn:aws:bedrock:us-east-1:123456789012:provisioned-model/a1b2c3d4e5f6';
    expect(copied(arn)).toBe('custom-model');
    const kept = body(arn).replace('Hello there', 'xxxxx xxxxx');
    expect(leakedStrings(parsedText(body(arn)).transcript, kept, new Set())).toEqual([arn]);
    const profile =
      'arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-3-5-sonnet-20240620-v1:0';
    expect(copied(profile)).toBe('us.anthropic.claude-3-5-sonnet-20240620-v1:0');
  });
});
