/**
 * The built CLI (issue 20): `npm run build:cli` bundles src/cli/main.ts into dist-cli/cli.js,
 * which plain `node` runs with no TypeScript loader. Run as a whole process, it answers exactly
 * as the CLI run in-process over the same files (the harness every other CLI test uses).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli } from './testing/index.ts';

const root = path.resolve(import.meta.dirname, '../..');
const bundle = path.join(root, 'dist-cli', 'cli.js');
const sample = (name: string) => path.join(root, 'public', 'samples', name);

/** The built CLI as a process: exit code, stdout, stderr. */
function run(args: string[], input?: string): { code: number; out: string; err: string } {
  const r = spawnSync(process.execPath, [bundle, ...args], {
    cwd: root,
    encoding: 'utf8',
    ...(input !== undefined ? { input } : {}),
  });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}

beforeAll(() => {
  execFileSync(process.execPath, [path.join(root, 'scripts', 'buildCli.js')], { cwd: root });
}, 120_000);

// Whole processes on a shared machine: seconds each under load, not a measure of speed.
describe('the built CLI (dist-cli/cli.js)', { timeout: 60_000 }, () => {
  it('is an ES module plain node runs: no TypeScript loader, the tokenizer left outside', () => {
    const text = readFileSync(bundle, 'utf8');
    expect(text.startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(text).not.toMatch(/from ["']tsx/);
    // Loaded from node_modules only by the commands that count tokens (in cli.js or a chunk).
    const dir = path.dirname(bundle);
    const built = readdirSync(dir)
      .filter((f) => f.endsWith('.js'))
      .map((f) => readFileSync(path.join(dir, f), 'utf8'))
      .join('\n');
    expect(built).toMatch(/import\(["']gpt-tokenizer\/encoding\/o200k_base["']\)/);
    expect(built).not.toMatch(/from ["']gpt-tokenizer/);
  });

  it.each([
    ['check', 'broken-duplicate-id.json', ['--json']],
    ['check', 'claude-code-session.jsonl', []],
    ['repair', 'broken-orphan-after-trim.json', []],
    ['simulate', 'coding-agent.json', ['--policy', 'exchange', '--budget', '2000']],
  ])('%s %s answers as the CLI in-process', async (command, name, flags) => {
    const file = sample(name);
    const built = run([command, file, ...flags]);
    const inProcess = await cli([command, file, ...flags], { [file]: readFileSync(file, 'utf8') });
    expect(built).toEqual(inProcess);
  });

  it('reads stdin and finds the page samples a link names', async () => {
    const text = readFileSync(sample('invoice.json'), 'utf8');
    expect(run(['check', '-'], text)).toEqual(await cli(['check', '-'], { '-': text }));
    const link = run(['check', 'v=1&src=invoice']);
    expect(link.code).toBe(0);
    expect(link.out).toContain('VALID');
  });

  it('starts without zod: only `import()` of a link, `share` or another command loads it', () => {
    // What node reads to start: cli.js, the modules it imports (main.ts loads the command table
    // with `import()` once `check`'s FILE is being read), and the files those import statically,
    // transitively.
    const dir = path.dirname(bundle);
    const startup = new Set(['cli.js']);
    for (const m of readFileSync(bundle, 'utf8').matchAll(/\bimport\(["']\.\/([^"']+)["']\)/g))
      startup.add(m[1] as string);
    for (const f of startup)
      for (const m of readFileSync(path.join(dir, f), 'utf8').matchAll(
        /^(?:import|\})(?:[^'"\n]*? from)? ["']\.\/([^"']+)["'];$/gm,
      ))
        startup.add(m[1] as string);
    const text = [...startup].map((f) => readFileSync(path.join(dir, f), 'utf8')).join('\n');
    // esbuild names each bundled source in a comment: `// node_modules/zod/v4/...`.
    expect(text).toMatch(/\/\/ src\/model\/parse\//);
    expect(text).not.toMatch(/\/\/ node_modules\/zod\//);
    expect(text).not.toMatch(/\/\/ src\/model\/permalink\/(codec|schema)\.ts/);
    // …and the chunks that hold it ship beside cli.js: a link is read by the built CLI above.
    const all = readdirSync(dir).filter((f) => f.endsWith('.js'));
    expect(
      all.some((f) => /\/\/ node_modules\/zod\//.test(readFileSync(path.join(dir, f), 'utf8'))),
    ).toBe(true);
  });

  it('is not stale right after a build', () => {
    const out = execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "const m = await import('./scripts/buildCli.js'); console.log(await m.isStale());",
      ],
      { cwd: root, encoding: 'utf8' },
    );
    expect(out.trim()).toBe('false');
  });
});
