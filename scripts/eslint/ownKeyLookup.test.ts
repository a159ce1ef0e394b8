/**
 * The lint rule `own/no-proto-lookup` (issue 37) fed breaking and clean files through ESLint's
 * Linter with the project's TypeScript parser: it flags string-keyed object-literal tables, cast
 * lookups and `in` on object-literal tables, and leaves Maps, prototype-free tables and tables of a
 * closed key union alone.
 */
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { noProtoLookup } from './ownKeyLookup.js';

const linter = new Linter({ configType: 'flat' });

/** The rule's messages for `code` (a TypeScript file). */
function lint(code: string): string[] {
  return linter
    .verify(
      code,
      [
        {
          files: ['**/*.ts'],
          languageOptions: { parser: tseslint.parser },
          plugins: { own: { rules: { 'no-proto-lookup': noProtoLookup } } },
          rules: { 'own/no-proto-lookup': 'error' },
        },
      ],
      'table.ts',
    )
    .map((m) => `${m.line}: ${m.message}`);
}

describe('own/no-proto-lookup', () => {
  it('flags a string-keyed object-literal table (the roles table of issue 37)', () => {
    const found = lint(`
const ROLES: Record<string, string> = { user: 'user', assistant: 'assistant' };
export const KINDS: Readonly<Partial<Record<string, number>>> = { a: 1 } as const;
const OPEN: { [name: string]: number } = { a: 1 };
export function roleOf(input: string) { return ROLES[input] ?? KINDS[input] ?? OPEN[input]; }
`);
    expect(found).toHaveLength(3);
    expect(found[0]).toMatch(/^2: 'ROLES' is an object literal with string keys/);
    expect(found[1]).toMatch(/^3: 'KINDS'/);
    expect(found[2]).toMatch(/^4: 'OPEN'/);
  });

  it('flags a cast lookup and `in` on an object-literal table', () => {
    const found = lint(`
const PHASE = { read: 'Reading', analyze: 'Analysing' } as const;
export const a = (x: string) => PHASE[x as keyof typeof PHASE];
export const b = (x: string) => x in PHASE;
export const c = () => 'read' in PHASE;
`);
    expect(found).toHaveLength(2);
    expect(found[0]).toMatch(/^3: 'PHASE\[… as …\]'/);
    expect(found[1]).toMatch(/^4: '… in PHASE'/);
  });

  it('leaves Maps, prototype-free tables, closed key unions and writes alone', () => {
    expect(
      lint(`
type Kind = 'a' | 'b';
const LABEL: Record<Kind, string> = { a: 'A', b: 'B' };
const ROLES = new Map([['user', 'user']]);
const FREE: Record<string, number> = Object.create(null);
const u: { x?: number } = {};
export function f(k: Kind, s: string) {
  u[s as 'x'] = 1;
  FREE[s] = 1;
  return [LABEL[k], ROLES.get(s), FREE[s], LABEL['a']];
}
`),
    ).toEqual([]);
  });

  it('is on for src/ in eslint.config.js', async () => {
    const path: string = '../../eslint.config.js';
    const config = ((await import(/* @vite-ignore */ path)) as { default: Linter.Config[] })
      .default;
    const on = config.some(
      (c) =>
        c.rules?.['own/no-proto-lookup'] === 'error' &&
        c.files?.some((f) => String(f).startsWith('src/')),
    );
    expect(on).toBe(true);
  });
});
