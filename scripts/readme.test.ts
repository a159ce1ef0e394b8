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

describe('README and the lockfile agree on Node 20', () => {
  /** Packages the README names as warning on Node 20 (EBADENGINE), and why. */
  const SAID = [
    'ai',
    '@ai-sdk/anthropic',
    '@ai-sdk/openai',
    '@ai-sdk/gateway',
    '@ai-sdk/provider',
    '@ai-sdk/provider-utils',
  ];

  it('the packages whose engines exclude Node 20 are exactly those the README names', () => {
    const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { engines?: { node?: string }; optional?: boolean }>;
    };
    const excluding = new Set<string>();
    for (const [where, p] of Object.entries(lock.packages)) {
      const range = p.engines?.node;
      if (!range || p.optional) continue;
      // A range admits Node 20 when one of its alternatives is open below 21 or names 20.
      const admits20 = range
        .split('||')
        .map((r) => r.trim())
        .some((r) => /^(\^?20|>=\s*(1\d|20)(\.|$)|20(\.|\s|$)|\*|>=\s*[0-9](\.|$))/.test(r));
      if (!admits20) excluding.add(where.replace(/^.*node_modules\//, ''));
    }
    expect([...excluding].sort()).toEqual([...SAID].sort());
    for (const name of SAID) expect(readme).toContain(`\`${name}\``);
  });
});
