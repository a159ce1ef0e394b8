/**
 * The layering lint (config/layers.js, wired in eslint.config.js) is itself under test: each file
 * below breaks one rule of docs/architecture.md and must be refused, and each allowed import must
 * pass. The files do not exist: ESLint lints the text as if it were at that path.
 */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

async function layerErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: file });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId?.startsWith('layers/'))
    .map((m) => `${m.ruleId}: ${m.message}`);
}

const REFUSED: [string, string, string][] = [
  ['model → lib', 'src/model/x.ts', "import { check } from '../lib/check.ts';\nvoid check;\n"],
  ['model → io', 'src/model/x.ts', "import { readFile } from '../io/files.ts';\nvoid readFile;\n"],
  ['state → lib', 'src/state/x.ts', "import { check } from '../lib/check.ts';\nvoid check;\n"],
  ['ui → lib', 'src/ui/x.ts', "import { check } from '../lib/check.ts';\nvoid check;\n"],
  ['engine → lib', 'src/engine/x.ts', "export { check } from '../lib/check.ts';\n"],
  ['cli → lib', 'src/cli/x.ts', "import { check } from '../lib/check.ts';\nvoid check;\n"],
  ['io → lib', 'src/io/x.ts', "import { check } from '../lib/check.ts';\nvoid check;\n"],
  [
    'model → lib, type only',
    'src/model/x.ts',
    "import type { CheckResult } from '../lib/check.ts';\nexport type R = CheckResult;\n",
  ],
  [
    "model → lib, as an import('…') type",
    'src/model/x.ts',
    "export type R = import('../lib/check.ts').CheckResult;\n",
  ],
  [
    'model → io, by require()',
    'src/model/x.ts',
    "declare const require: (s: string) => unknown;\nexport const io = require('../io/files.ts');\n",
  ],
  [
    'state → lib, dynamically',
    'src/state/x.ts',
    "export const m = () => import('../lib/check.ts');\n",
  ],
  ['engine → state', 'src/engine/x.ts', "export { useStore } from '../state/store.ts';\n"],
  [
    'model → ui, dynamically',
    'src/model/x.ts',
    "export const m = () => import('../ui/App.tsx');\n",
  ],
  ['a computed dynamic import', 'src/model/x.ts', 'export const m = (p: string) => import(p);\n'],
  [
    'model → node:fs',
    'src/model/x.ts',
    "import { readFileSync } from 'node:fs';\nvoid readFileSync;\n",
  ],
  ['lib → node:fs', 'src/lib/x.ts', "export const m = () => import('node:fs');\n"],
  ['model → react', 'src/model/x.ts', "import { useState } from 'react';\nvoid useState;\n"],
  ['ui → d3-selection', 'src/ui/x.ts', "import { select } from 'd3-selection';\nvoid select;\n"],
  ['ui → engine internals', 'src/ui/x.ts', "import { run } from '../engine/run.ts';\nvoid run;\n"],
  [
    'cli → model test support',
    'src/cli/x.ts',
    "import { parsed } from '../model/testing/index.ts';\nvoid parsed;\n",
  ],
  [
    'model → a testing/ folder',
    'src/model/x.ts',
    "import * as b from './testing/builders.ts';\nvoid b;\n",
  ],
  [
    'model → a reference oracle in testing/, from a subfolder',
    'src/model/evict/x.ts',
    "export { simulateReference } from '../testing/simulate.reference.ts';\n",
  ],
  [
    'cli → its own test support',
    'src/cli/scan/x.ts',
    "export const m = () => import('../testing/scan.ts');\n",
  ],
  [
    'a testing/ file → ui',
    'src/model/testing/index.ts',
    "import { App } from '../../ui/App.tsx';\nvoid App;\n",
  ],
  ['a testing.ts file outside testing/', 'src/model/testing.ts', 'export const v = 1;\n'],
  [
    'a testing.ts file importing what its layer may not',
    'src/model/testing.ts',
    "import { check } from '../lib/check.ts';\nvoid check;\n",
  ],
  [
    'a testing.ts file in a testing/ folder → lib',
    'src/model/testing/testing.ts',
    "import { check } from '../../lib/check.ts';\nvoid check;\n",
  ],
  [
    'cli → model test support, dynamically',
    'src/cli/x.ts',
    "export const m = () => import('../model/testing/index.ts');\n",
  ],
  ['a .tsx file in the CLI', 'src/cli/View.tsx', 'export const v = 1;\n'],
  ['a .tsx file in state', 'src/state/View.tsx', 'export const v = 1;\n'],
  ['a fixtures file outside testing/', 'src/model/redact/x.fixtures.ts', 'export const v = 1;\n'],
  [
    'a reference oracle outside testing/',
    'src/model/evict/x.reference.ts',
    'export const v = 1;\n',
  ],
  ['a .tsx file in model', 'src/model/View.tsx', 'export const v = 1;\n'],
  ['a .tsx file in engine', 'src/engine/View.tsx', 'export const v = 1;\n'],
  [
    'a file leaving src',
    'src/model/x.ts',
    "import { CSP } from '../../vite.config.ts';\nvoid CSP;\n",
  ],
  ['an unknown top folder', 'src/newlayer/x.ts', "import { a } from './a.ts';\nvoid a;\n"],
];

const ALLOWED: [string, string, string][] = [
  ['model → model', 'src/model/x.ts', "import { pair } from './pairing.ts';\nvoid pair;\n"],
  ['model → zod', 'src/model/x.ts', "import { z } from 'zod';\nvoid z;\n"],
  [
    'engine → model',
    'src/engine/x.ts',
    "import type { Transcript } from '../model/types.ts';\nexport type T = Transcript;\n",
  ],
  ['ui → engine/client.ts', 'src/ui/x.ts', "import { a } from '../engine/client.ts';\nvoid a;\n"],
  [
    'state → a worker URL',
    'src/state/x.ts',
    "import u from '../engine/inspect.worker.ts?worker&url';\nvoid u;\n",
  ],
  [
    'cli → node:fs',
    'src/cli/x.ts',
    "import { readFileSync } from 'node:fs';\nvoid readFileSync;\n",
  ],
  [
    'model test support → vitest',
    'src/model/testing/index.ts',
    "import { expect } from 'vitest';\nvoid expect;\n",
  ],
  [
    'test support → the model it supports',
    'src/model/testing/evict.ts',
    "import { simulate } from '../evict/simulate.ts';\nvoid simulate;\n",
  ],
  [
    'a test → test support',
    'src/model/evict/x.test.ts',
    "import { simulateReference } from '../testing/simulate.reference.ts';\nvoid simulateReference;\n",
  ],
  ['a test → anything', 'src/model/x.test.ts', "import { App } from '../ui/App.tsx';\nvoid App;\n"],
  ['a component in ui', 'src/ui/View.tsx', 'export const v = 1;\n'],
];

describe('the layering lint', () => {
  it.each(REFUSED)('refuses %s', async (_name, file, code) => {
    expect(await layerErrors(file, code)).not.toEqual([]);
  });

  it.each(ALLOWED)('allows %s', async (_name, file, code) => {
    expect(await layerErrors(file, code)).toEqual([]);
  });

  it('says what the layer may import', async () => {
    const [message] = await layerErrors('src/model/x.ts', "export * from '../lib/check.ts';\n");
    expect(message).toContain('src/lib');
    expect(message).toContain('may import src/model');
  });
});

/** The messages of `cache/no-module-cache` (issue 34) for `code` linted as if at `file`. */
async function cacheErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: file });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'cache/no-module-cache')
    .map((m) => m.message);
}

const CACHES: [string, string, string][] = [
  ['a module-level let in state', 'src/state/x.ts', 'export let last: string | null = null;\n'],
  [
    'a WeakMap cache in ui',
    'src/ui/x.ts',
    'const cache = new WeakMap<object, number>();\nexport const f = (o: object) => cache.get(o);\n',
  ],
  [
    'a Map in engine',
    'src/engine/x.ts',
    'const seen = new Map<string, number>();\nexport const f = (k: string) => seen.get(k);\n',
  ],
  [
    'a WeakSet typed readonly (a weak set is never a constant)',
    'src/ui/x.ts',
    'const s: ReadonlySet<object> = new WeakSet<object>() as never;\nexport { s };\n',
  ],
  [
    'a store made at module level',
    'src/state/x.ts',
    "import { createStore } from 'zustand';\nexport const s = createStore(() => ({ v: 1 }));\n",
  ],
  [
    'a closure over a cache (an IIFE)',
    'src/ui/x.ts',
    'export const f = (() => {\n  const m = new Map<string, number>();\n  return (k: string) => m.get(k);\n})();\n',
  ],
  ['an empty array filled later', 'src/ui/x.ts', 'export const seen: number[] = [];\n'],
  [
    'an empty object filled later',
    'src/engine/x.ts',
    'export const seen: Record<string, number> = {};\n',
  ],
  [
    'an object of slots filled later',
    'src/engine/x.ts',
    'export const memo = { last: null as string | null, n: 0 };\n',
  ],
  [
    'an instance of a class that keeps what it is given',
    'src/engine/x.ts',
    'class Memo {\n  last: string | null = null;\n}\nexport const memo = new Memo();\n',
  ],
  [
    'an object holding a container',
    'src/state/x.ts',
    'export const held = { byKey: new Map<string, number>() };\n',
  ],
];

const NOT_CACHES: [string, string, string][] = [
  [
    'a constant set typed ReadonlySet',
    'src/ui/x.ts',
    "export const KEYS: ReadonlySet<string> = new Set(['Home', 'End']);\n",
  ],
  ['an empty readonly array', 'src/ui/x.ts', 'export const NONE: readonly number[] = [];\n'],
  ['a regular expression', 'src/ui/x.ts', "export const WORD = new RegExp('\\\\w+', 'u');\n"],
  [
    'a constant table of values',
    'src/ui/x.ts',
    "export const GROUP = { pair: 0, message: 1, label: 'x' };\n",
  ],
  [
    'an object of empty slots as const',
    'src/ui/x.ts',
    'export const EMPTY = { list: [], none: null } as const;\n',
  ],
  [
    'a selector memoised in the session',
    'src/state/x.ts',
    "import { memoWeak } from './session/index.ts';\nexport const f = memoWeak((o: object) => Object.keys(o).length);\n",
  ],
  [
    'state inside the session',
    'src/state/session/x.ts',
    'const held = new WeakMap<object, number>();\nexport const f = (o: object) => held.get(o);\n',
  ],
  ['a test file', 'src/state/x.test.ts', 'let n = 0;\nn++;\nexport { n };\n'],
  [
    'the model (pure, no page state)',
    'src/model/x.ts',
    'export const T = new Map<string, number>();\n',
  ],
  [
    'a mutable variable inside a function',
    'src/ui/x.ts',
    'export function f(): number {\n  let n = 0;\n  n++;\n  return n;\n}\n',
  ],
];

describe('no module-level cache outside the session (cache/no-module-cache)', () => {
  it.each(CACHES)('refuses %s', async (_name, file, code) => {
    expect(await cacheErrors(file, code)).not.toEqual([]);
  });

  it.each(NOT_CACHES)('allows %s', async (_name, file, code) => {
    expect(await cacheErrors(file, code)).toEqual([]);
  });

  it('names the variable and the owner', async () => {
    const [message] = await cacheErrors('src/ui/x.ts', 'export let last = 0;\n');
    expect(message).toContain('(last)');
    expect(message).toContain('src/state/session/');
  });
});
