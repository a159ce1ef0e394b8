/**
 * The published package, as a consumer gets it: build packages/transcript-inspector, check what
 * `npm pack` would ship, import it by name from the built output in a fresh Node process, and
 * type-check a consumer (NodeNext resolution) that hands the checked fetch to the SDKs.
 */
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildLib, PACKAGE_DIR } from '../../scripts/buildLib.ts';
import { cli } from '../cli/testing/index.ts';

const root = path.resolve(import.meta.dirname, '../..');
// Inside the repo's node_modules, so the consumer also resolves the SDKs the repo installs.
const consumer = path.join(root, 'node_modules', '.tmp', 'lib-consumer');
const pkg = JSON.parse(readFileSync(path.join(PACKAGE_DIR, 'package.json'), 'utf8')) as {
  name: string;
  exports: Record<string, string | Record<string, string>>;
  dependencies: Record<string, string>;
  files: string[];
};

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(path.join(dir, e.name)) : [path.join(dir, e.name)],
  );
}

beforeAll(() => {
  buildLib();
  rmSync(consumer, { recursive: true, force: true });
  mkdirSync(path.join(consumer, 'node_modules'), { recursive: true });
  symlinkSync(PACKAGE_DIR, path.join(consumer, 'node_modules', pkg.name), 'dir');
}, 120_000);

describe('the transcript-inspector package', () => {
  it('ships the built library only: dist, README, package.json', () => {
    const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: PACKAGE_DIR,
      encoding: 'utf8',
    });
    const listed = (JSON.parse(out) as { files: { path: string }[] }[])[0]?.files ?? [];
    const names = listed.map((f) => f.path);
    expect(names).toContain('dist/lib/index.js');
    expect(names).toContain('dist/lib/index.d.ts');
    expect(names).toContain('README.md');
    for (const n of names)
      expect(n).toMatch(/^(dist\/(lib|model)\/.+\.(js|d\.ts)|README\.md|package\.json)$/);
    for (const n of names) expect(n).not.toMatch(/\.test\.|\/ui\/|\/state\/|\/engine\/|\/cli\//);
  }, 60_000);

  it("the README's size figures are within 10 % of what npm pack ships", () => {
    const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: PACKAGE_DIR,
      encoding: 'utf8',
    });
    const packed = (
      JSON.parse(out) as { size: number; unpackedSize: number; entryCount: number }[]
    )[0];
    const readme = readFileSync(path.join(root, 'README.md'), 'utf8').replace(/\s+/g, ' ');
    const m = /Size: about ([\d,]+) kB packed, ([\d,]+) kB unpacked \(about ([\d,]+) files/.exec(
      readme,
    );
    expect(m, 'README: "Size: about N kB packed, N kB unpacked (about N files"').not.toBeNull();
    const [kbPacked, kbUnpacked, fileCount] = (m as RegExpExecArray)
      .slice(1)
      .map((x) => Number(x.replace(/,/g, '')));
    const actual = `${Math.round((packed?.size ?? 0) / 1000)} kB packed, ${Math.round((packed?.unpackedSize ?? 0) / 1000)} kB unpacked, ${packed?.entryCount} files`;
    const near = (said: number | undefined, real: number) =>
      Math.abs((said ?? 0) - real) <= real * 0.1;
    expect(near(kbPacked, (packed?.size ?? 0) / 1000), actual).toBe(true);
    expect(near(kbUnpacked, (packed?.unpackedSize ?? 0) / 1000), actual).toBe(true);
    expect(near(fileCount, packed?.entryCount ?? 0), actual).toBe(true);
  }, 60_000);

  it('the packed package.json runs no script from outside the package (no prepack to ../..)', () => {
    const shipped = JSON.parse(readFileSync(path.join(PACKAGE_DIR, 'package.json'), 'utf8')) as {
      scripts?: Record<string, string>;
    };
    for (const [name, cmd] of Object.entries(shipped.scripts ?? {}))
      expect(cmd, `script ${name}`).not.toMatch(/\.\.\/|--prefix/);
    expect(shipped.scripts?.prepack).toBeUndefined();
  });

  it('its exports map points at built files, and every import it makes is a dependency', () => {
    for (const target of Object.values(pkg.exports).flatMap((t) =>
      typeof t === 'string' ? [t] : Object.values(t),
    ))
      expect(existsSync(path.join(PACKAGE_DIR, target)), target).toBe(true);
    const bare = new Set<string>();
    for (const f of files(path.join(PACKAGE_DIR, 'dist')).filter((x) => x.endsWith('.js'))) {
      // Code lines only: the docstrings' examples import the SDKs.
      const text = readFileSync(f, 'utf8')
        .split('\n')
        .filter((l) => !/^\s*(\*|\/\*|\/\/)/.test(l))
        .join('\n');
      for (const m of text.matchAll(/(?:from\s+|import\()\s*['"]([^'"]+)['"]/g)) {
        const spec = m[1] as string;
        if (spec.startsWith('.')) expect(spec, f).toMatch(/\.js$/);
        else
          bare.add(
            spec.startsWith('@')
              ? spec.split('/').slice(0, 2).join('/')
              : (spec.split('/')[0] as string),
          );
      }
    }
    expect([...bare].sort()).toEqual(Object.keys(pkg.dependencies).sort());
    const rootPkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    // The package allows the versions the app is built and tested with.
    for (const [name, range] of Object.entries(pkg.dependencies))
      expect(range, name).toBe(`^${rootPkg.dependencies[name]}`);
  });

  it('imports by name from the built output in a fresh Node process', () => {
    const script = `
      import { check, createCheckedFetch, evict, repair, groupExchanges, turnPairs, transcriptCheckMiddleware, diff } from 'transcript-inspector';
      const orphan = { model: 'claude-opus-4-6', max_tokens: 10, tools: [{ name: 'f', input_schema: { type: 'object' } }], messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok' }] }] };
      const unanswered = { model: 'claude-opus-4-6', max_tokens: 10, tools: [{ name: 'f', input_schema: { type: 'object' } }], messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_2', name: 'f', input: {} }] }, { role: 'user', content: 'go on' }] };
      let sent = 0;
      const f = createCheckedFetch({ mode: 'throw', fetch: async () => { sent++; return new Response('{}'); } });
      const err = await f('https://api.anthropic.com/v1/messages', { method: 'POST', body: JSON.stringify(orphan) }).catch((e) => e);
      const good = await evict({ messages: [{ role: 'user', content: 'hi' }] }, { policy: 'exchange', budget: 100 });
      console.log(JSON.stringify({
        name: err.name, text: err.providerError.error.message, sent,
        valid: check({ model: 'gpt-4.1', messages: [{ role: 'user', content: 'hi' }] }).valid,
        evicted: good.valid, repaired: repair(unanswered).valid,
        diffed: diff(unanswered, { ...unanswered, messages: unanswered.messages.slice(1) }).rows.map((r) => r.change),
        fns: [groupExchanges, turnPairs, transcriptCheckMiddleware].map((x) => typeof x),
      }));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: consumer,
      encoding: 'utf8',
    });
    expect(JSON.parse(out)).toEqual({
      name: 'MalformedTranscriptError',
      text: 'messages.0.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_1. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
      sent: 0,
      valid: true,
      evicted: true,
      repaired: true,
      diffed: ['dropped', 'kept', 'kept'],
      fns: ['function', 'function', 'function'],
    });
  }, 60_000);

  it('a Node program using @anthropic-ai/sdk and openai with `record` writes a file check --request N opens', async () => {
    const file = path.join(consumer, 'calls.jsonl');
    rmSync(file, { force: true });
    const script = `
      import Anthropic from '@anthropic-ai/sdk';
      import OpenAI from 'openai';
      import { createCheckedFetch } from 'transcript-inspector';
      const reply = (v, status = 200) => new Response(JSON.stringify(v), { status, headers: { 'content-type': 'application/json' } });
      const network = async (url, init) => {
        if (String(init.body).includes('TOO LONG')) return reply({ type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long' } }, 400);
        return String(url).endsWith('/v1/messages')
          ? reply({ id: 'm', type: 'message', role: 'assistant', model: 'claude-opus-4-6', content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } })
          : reply({ id: 'c', object: 'chat.completion', created: 0, model: 'gpt-4.1', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }] });
      };
      const fetch = createCheckedFetch({ mode: 'warn', fetch: network, record: ${JSON.stringify(file)}, onViolation: () => {} });
      const anthropic = new Anthropic({ apiKey: 'sk-ant-SECRET', fetch, maxRetries: 0 });
      const openai = new OpenAI({ apiKey: 'sk-SECRET', fetch, maxRetries: 0 });
      await anthropic.messages.create({ model: 'claude-opus-4-6', max_tokens: 9, messages: [{ role: 'user', content: 'hi' }] });
      await anthropic.messages.create({ model: 'claude-opus-4-6', max_tokens: 9, messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'x' }] }] }).catch(() => {});
      await anthropic.messages.create({ model: 'claude-opus-4-6', max_tokens: 9, messages: [{ role: 'user', content: 'TOO LONG' }] }).catch(() => {});
      await openai.chat.completions.create({ model: 'gpt-4.1', messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'w', arguments: '{}' } }] }, { role: 'user', content: 'well?' }] });
      await fetch.flush();`;
    execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: consumer,
      encoding: 'utf8',
    });
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('SECRET');
    const files = { 'calls.jsonl': text };
    const runs = await Promise.all(
      [1, 2, 3, 4].map((n) =>
        cli(['check', 'calls.jsonl', '--request', String(n), '--json'], { ...files }),
      ),
    );
    expect(
      runs.map((r) => {
        const j = JSON.parse(r.out) as { format: string; valid: boolean; warnings: string[] };
        return [r.code, j.format, j.valid];
      }),
    ).toEqual([
      [0, 'anthropic-messages', true],
      [1, 'anthropic-messages', false],
      [0, 'anthropic-messages', true],
      [1, 'openai-chat', false],
    ]);
    const third = await cli(['check', 'calls.jsonl', '--request', '3'], { ...files });
    expect(third.out).toContain('The provider answered HTTP 400');
    expect(third.out).toContain('prompt is too long');
  }, 60_000);

  it('type-checks for a consumer (NodeNext, strict): the fetch fits the SDKs, the middleware fits the AI SDK', () => {
    writeFileSync(
      path.join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          lib: ['es2023', 'dom'],
          types: [],
          strict: true,
          noEmit: true,
          skipLibCheck: true,
        },
        files: ['consumer.ts'],
      }),
    );
    writeFileSync(path.join(consumer, 'package.json'), '{"type":"module"}');
    writeFileSync(
      path.join(consumer, 'consumer.ts'),
      `import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { wrapLanguageModel } from 'ai';
import { createAnthropic } from '@ai-sdk/anthropic';
import { check, createCheckedFetch, transcriptCheckMiddleware, type CheckResult } from 'transcript-inspector';

const fetch = createCheckedFetch({ mode: 'respond' });
new Anthropic({ fetch });
new OpenAI({ fetch });
createAnthropic({ fetch });
wrapLanguageModel({ model: createAnthropic()('claude-opus-4-6'), middleware: transcriptCheckMiddleware({ mode: 'throw' }) });
const r: CheckResult = check({ messages: [] });
export const ok: boolean = r.valid;
// The declarations resolved (were they \`any\`, this line would not be an error).
// @ts-expect-error valid is a boolean
export const wrong: string = r.valid;
`,
    );
    execFileSync(
      process.execPath,
      [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', consumer],
      {
        encoding: 'utf8',
      },
    );
  }, 120_000);
});
