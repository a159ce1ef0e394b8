/**
 * The format registry is the one list of formats: every format id has exactly one parser, and
 * the per-format facts other modules read (result style, JSON Lines, item ids, usage buckets,
 * request listing) come from its entries.
 */
import { describe, expect, it } from 'vitest';
import {
  FORMAT_IDS,
  FORMAT_REGISTRY,
  formatsOf,
  listArchiveRequests,
  PARSERS,
} from './registry.ts';

const ids = (pred: (p: (typeof PARSERS)[number]) => boolean) =>
  PARSERS.filter(pred)
    .map((p) => p.id)
    .sort();

describe('the format registry', () => {
  it('registers every format once, under its own id', () => {
    for (const [key, parser] of Object.entries(FORMAT_REGISTRY)) expect(parser.id).toBe(key);
    expect(FORMAT_IDS).toEqual(PARSERS.map((p) => p.id));
    expect(new Set(FORMAT_IDS).size).toBe(PARSERS.length);
  });

  it('every category is used, and the four cover every format', () => {
    const all = (['request', 'log', 'framework', 'archive'] as const).flatMap(formatsOf);
    expect(all.sort()).toEqual([...FORMAT_IDS].sort());
    for (const c of ['request', 'log', 'framework', 'archive'] as const)
      expect(formatsOf(c).length, c).toBeGreaterThan(0);
  });

  it('says which formats are JSON Lines, keep results in tool messages, carry item ids, count cache apart', () => {
    expect(ids((p) => p.jsonl === true)).toEqual([
      'claude-code-jsonl',
      'codex-jsonl',
      'fetch-record',
    ]);
    expect(ids((p) => p.resultStyle === 'tool')).toEqual([
      'chatgpt-export',
      'codex-jsonl',
      'gemini-interactions',
      'inspect-log',
      'langchain',
      'openai-chat',
      'openai-responses',
      'swe-agent',
      'vercel-ai',
    ]);
    expect(ids((p) => p.itemIds === true)).toEqual(['codex-jsonl', 'openai-responses']);
    expect(ids((p) => p.usageCacheApart === true)).toEqual([
      'anthropic-messages',
      'bedrock-converse',
      'claude-code-jsonl',
    ]);
  });

  it('the archives that hold several items list them; nothing else does', () => {
    expect(ids((p) => p.listRequests !== undefined)).toEqual([
      'chatgpt-export',
      'claude-ai-export',
      'fetch-record',
      'inspect-log',
    ]);
    expect(listArchiveRequests({ messages: [] })).toEqual([]);
    expect(listArchiveRequests(null)).toEqual([]);
  });
});
