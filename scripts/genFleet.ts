/**
 * Tests only: a generated fleet of session logs and request bodies for `scan` (issue 40) — the
 * page's samples, generated sessions (scripts/gen.ts) of three formats, some gzipped, some
 * mutated to break their pairings (a tool result's line or message dropped), some compacted (a
 * Claude Code compaction summary appended), one archive of several requests, and a few
 * unreadable files (binary, a truncated .gz, bad JSON, empty).
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { generate, GEN_FORMATS } from './gen.ts';

const root = path.resolve(import.meta.dirname, '..');

/** What `makeFleet` wrote. */
export interface Fleet {
  dir: string;
  files: number;
  unreadable: number;
}

/** Drop the `k`-th line holding a tool result (JSON Lines): its call goes unanswered. */
export function dropResultLine(text: string, k: number): string {
  const lines = text.split('\n');
  const hits = lines.flatMap((l, i) => (l.includes('"tool_result"') ? [i] : []));
  if (hits.length === 0) return text;
  lines.splice(hits[k % hits.length] as number, 1);
  return lines.join('\n');
}

/** Drop the `k`-th message holding a tool result from a request body (Anthropic or Chat). */
function dropResultMessage(text: string, k: number): string {
  const body = JSON.parse(text) as { messages: unknown[] };
  const hits = body.messages.flatMap((m, i) => {
    const s = JSON.stringify(m);
    return s.includes('"tool_result"') || s.includes('"role":"tool"') ? [i] : [];
  });
  if (hits.length === 0) return text;
  body.messages.splice(hits[k % hits.length] as number, 1);
  return JSON.stringify(body);
}

/**
 * A Claude Code log compacted at its end, as `/compact` writes it: a `compact_boundary` line, the
 * summary (`isCompactSummary`), and the reply of the call that follows (the one it is seen by).
 */
function compacted(text: string): string {
  const lines = text.trimEnd().split('\n');
  const last = JSON.parse(lines[lines.length - 1] as string) as {
    uuid?: string;
    sessionId?: string;
  };
  const env = { isSidechain: false, sessionId: last.sessionId, timestamp: '2026-01-01T00:00:00Z' };
  lines.push(
    JSON.stringify({
      type: 'system',
      subtype: 'compact_boundary',
      uuid: 'compact-0',
      parentUuid: null,
      logicalParentUuid: last.uuid ?? null,
      ...env,
      content: 'Conversation compacted',
      compactMetadata: { trigger: 'manual', preTokens: 9000, postTokens: 900 },
    }),
    JSON.stringify({
      type: 'user',
      uuid: 'compact-1',
      parentUuid: 'compact-0',
      ...env,
      isCompactSummary: true,
      message: {
        role: 'user',
        content: 'This session is being continued from a previous conversation. Summary: …',
      },
    }),
    JSON.stringify({
      type: 'assistant',
      uuid: 'compact-2',
      parentUuid: 'compact-1',
      ...env,
      message: {
        id: 'msg_compact_2',
        role: 'assistant',
        model: 'claude-opus-4-7',
        content: [{ type: 'text', text: 'Going on from the summary.' }],
      },
    }),
  );
  return lines.join('\n') + '\n';
}

/**
 * Write a fleet of `n` generated files (plus the samples and the bad ones) under `dir`.
 * Deterministic: the same `n` gives the same bytes.
 */
export function makeFleet(dir: string, n: number, messages = 24): Fleet {
  mkdirSync(dir, { recursive: true });
  let files = 0;
  const samples = path.join(root, 'public', 'samples');
  mkdirSync(path.join(dir, 'samples'), { recursive: true });
  for (const f of readdirSync(samples)) {
    if (f === 'index.json' || !/\.jsonl?$/.test(f)) continue;
    writeFileSync(path.join(dir, 'samples', f), readFileSync(path.join(samples, f)));
    files++;
  }
  for (let i = 0; i < n; i++) {
    const format = GEN_FORMATS[i % GEN_FORMATS.length] as (typeof GEN_FORMATS)[number];
    const jsonl = format === 'claude-code-jsonl';
    let text = generate({ messages: messages + (i % 5) * 4, format, seed: i + 1, broken: 0 });
    if (i % 7 === 3) text = jsonl ? dropResultLine(text, i) : dropResultMessage(text, i);
    if (jsonl && i % 11 === 5) text = compacted(text);
    const sub = path.join(dir, `team-${i % 4}`, `day-${i % 9}`);
    mkdirSync(sub, { recursive: true });
    const name = `s${String(i).padStart(5, '0')}.${jsonl ? 'jsonl' : 'json'}`;
    if (i % 13 === 6) writeFileSync(path.join(sub, `${name}.gz`), gzipSync(text));
    else writeFileSync(path.join(sub, name), text);
    files++;
  }
  // One archive of three requests: a JSON list of bodies.
  const bodies = [0, 1, 2].map((k) =>
    JSON.parse(
      generate({
        messages: 10 + k,
        format: 'anthropic-messages',
        seed: 900 + k,
        broken: k === 1 ? 1 : 0,
      }),
    ),
  );
  writeFileSync(path.join(dir, 'archive.json'), JSON.stringify({ requests: bodies }));
  files++;
  // Unreadable: binary, a truncated .gz, bad JSON, empty.
  const bad = path.join(dir, 'bad');
  mkdirSync(bad, { recursive: true });
  writeFileSync(path.join(bad, 'binary.json'), Buffer.from([0, 1, 2, 3, 0xff, 0]));
  const gz = gzipSync(generate({ messages: 200, format: 'claude-code-jsonl', seed: 77 }));
  writeFileSync(path.join(bad, 'cut.jsonl.gz'), gz.subarray(0, Math.floor(gz.length / 2)));
  writeFileSync(path.join(bad, 'broken.json'), '{"messages": [{"role": "user", "content": "hi"}');
  writeFileSync(path.join(bad, 'empty.json'), '');
  return { dir, files: files + 4, unreadable: 4 };
}
