import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
const ci = readFileSync(path.join(root, '.ci/run'), 'utf8');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
};

describe('README and CI agree', () => {
  it('.ci/run runs exactly the README test command', () => {
    const blocks = [...readme.matchAll(/```sh\n([^`]+)```/g)].map((m) => (m[1] as string).trim());
    const testCmd = blocks.find((b) => b.includes('test'));
    expect(testCmd).toBe('npm ci && npm run test:all');
    const lastCommand = ci
      .trim()
      .split('\n')
      .filter((l) => l.trim() && !l.trim().startsWith('#'))
      .at(-1);
    expect(lastCommand).toBe('npm run test:all');
    expect(ci).toContain('npm ci');
  });

  it('the start command exists and every script the README names exists', () => {
    expect(readme).toContain('npm ci && npm start');
    for (const m of readme.matchAll(/npm run (?:--silent )?([\w:]+)/g))
      expect(Object.keys(pkg.scripts)).toContain(m[1]);
  });
});
