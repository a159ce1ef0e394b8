import { readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
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

describe('every installed package runs on the Node versions engines names', () => {
  const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { engines?: { node?: string } }>;
  };
  const ours = (pkg as unknown as { engines: { node: string } }).engines.node;
  /** The lowest version of each alternative of our range (`^20.19.0 || >=22.13.0` → 20.19.0, 22.13.0). */
  const floors = new semver.Range(ours).set.map((alt) =>
    String(semver.minVersion(alt.map((c) => c.value).join(' '))),
  );

  it('engines names at least one floor, and the README says the same floors', () => {
    expect(floors.length).toBeGreaterThan(0);
    for (const f of floors) expect(readme).toContain(f.replace(/\.0$/, ''));
  });

  it('no package in the lockfile (dev, optional or not) has an engines.node that excludes one of them: npm ci prints no EBADENGINE', () => {
    const excluding: string[] = [];
    for (const [where, p] of Object.entries(lock.packages)) {
      const range = p.engines?.node;
      if (!where || range === undefined) continue;
      for (const floor of floors)
        if (!semver.satisfies(floor, range))
          excluding.push(`${where} (${range}) excludes ${floor}`);
    }
    expect(excluding).toEqual([]);
  });
});
