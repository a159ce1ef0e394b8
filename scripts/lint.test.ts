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
