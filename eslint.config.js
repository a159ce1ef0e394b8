// Flat config: typed rules, React hooks, and the dependency direction
// ui → state → engine (src/engine) → model; cli, lib and io → model (docs/architecture.md).
// In flat config a later block *replaces* a rule's options, so each folder's block lists its
// full set of restrictions.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { builtinRules } from 'eslint/use-at-your-own-risk';

/** Production code never imports test support (the model's builders, the corpus finder). */
const NO_TESTING = {
  group: ['**/testing.ts', '**/testing/**'],
  message: 'Test support (model/testing.ts, src/testing/) is for tests only.',
};

const MODEL_RULE = {
  patterns: [
    {
      group: ['react', 'react-dom', 'react/*', 'zustand', 'zustand/*', 'd3-selection'],
      message: 'src/model is pure TypeScript: no React, zustand or DOM libraries.',
    },
    {
      group: ['**/state/**', '**/ui/**', '**/engine/**', '**/cli/**', 'node:*'],
      message: 'src/model imports only src/model (it runs in a worker, in Node and in tests).',
    },
    NO_TESTING,
  ],
};

const ENGINE_RULE = {
  patterns: [
    {
      group: ['**/state/**', '**/ui/**', '**/cli/**', 'react', 'react-dom', 'zustand'],
      message:
        'src/engine imports the model, never the state or the UI (ui → state → engine → model). Hand results to the AnswerSink (engine/sink.ts); state/engine.ts adopts them.',
    },
    NO_TESTING,
  ],
};

const LIB_RULE = {
  patterns: [
    {
      group: ['react', 'react-dom', 'react/*', 'zustand', 'zustand/*', 'd3-*', 'node:*'],
      message: 'src/lib is the published package: the model and web-standard APIs only.',
    },
    {
      group: ['**/state/**', '**/ui/**', '**/engine/**', '**/cli/**', '**/io/**'],
      message: 'src/lib imports only src/model (library → model).',
    },
    NO_TESTING,
  ],
};

/**
 * The CLI depends on the model only (plus Node's own modules, its own files and pure packages
 * such as fflate). Not src/io: that is the page's IO (a dropped Blob, samples fetched next to the
 * page); the CLI reads files with node:fs (src/cli/io.ts), and the decoding both share (gzip,
 * UTF-8, limits) already lives in the model (model/parse/bytes.ts). Not src/state either: what the
 * page and the CLI share, such as the permalink codec, belongs in the model (model/permalink).
 */
const CLI_RULE = {
  patterns: [
    {
      group: ['react', 'react-dom', 'react/*', 'zustand', 'zustand/*', 'd3-*'],
      message: 'src/cli is headless: no React, zustand or d3.',
    },
    {
      group: ['**/state/**', '**/ui/**', '**/engine/**', '**/io/**', '**/lib/**'],
      message:
        'src/cli imports only src/model, node:* and its own files: move what the page and the CLI share into src/model.',
    },
  ],
};

/**
 * A smoke alarm, not a design rule: a file is split when it holds two ideas, never to meet a count
 * (CONTRIBUTING.md). Files under 600 lines, functions under 100, counted plainly (blank lines and
 * comments too). A file or function that reads better whole says why in an
 * `eslint-disable… -- <why>` comment.
 */
const SIZE_LIMITS = { 'max-lines': ['error', 600], 'max-lines-per-function': ['error', 100] };

/**
 * In tests a `describe` callback is a group of tests, not a function: what it holds is bounded by
 * the file limit, and each test inside (`it`/`test` callbacks, helpers) still counts. So tests use
 * the core rule with `describe(…)`, `describe.each(…)(…)` and `test.describe(…)` callbacks left out.
 */
const coreFunctionLimit = builtinRules.get('max-lines-per-function');
const TEST_GROUP = /^(test\.)?describe\b/;
const testFunctionLimit = {
  meta: coreFunctionLimit.meta,
  create(context) {
    const isGroup = (node) =>
      node.parent?.type === 'CallExpression' &&
      node.parent.arguments.includes(node) &&
      TEST_GROUP.test(context.sourceCode.getText(node.parent.callee));
    const filtered = Object.create(context, {
      report: { value: (d) => (isGroup(d.node) ? undefined : context.report(d)) },
    });
    return coreFunctionLimit.create(filtered);
  },
};

export default tseslint.config(
  {
    ignores: [
      'dist',
      'dist-cli',
      'packages/*/dist',
      'node_modules',
      'test-results',
      'playwright-report',
      'bench-data',
      'public',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/**/*.tsx', 'src/ui/**/*.ts', 'src/state/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    files: ['src/model/**/*.ts'],
    ignores: ['src/model/**/*.test.ts', 'src/model/**/testing.ts', 'src/model/testing/**'],
    rules: {
      'no-restricted-imports': ['error', MODEL_RULE],
      'no-restricted-globals': [
        'error',
        'window',
        'document',
        'location',
        'history',
        'localStorage',
        'navigator',
      ],
    },
  },
  {
    files: ['src/lib/**/*.ts'],
    ignores: ['src/lib/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', LIB_RULE],
      'no-restricted-globals': [
        'error',
        'window',
        'document',
        'location',
        'history',
        'localStorage',
        'navigator',
      ],
    },
  },
  {
    files: ['src/engine/**/*.ts'],
    ignores: ['src/engine/**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', ENGINE_RULE] },
  },
  {
    files: ['src/cli/**/*.ts'],
    ignores: ['src/cli/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', CLI_RULE],
      'no-restricted-globals': [
        'error',
        'window',
        'document',
        'location',
        'history',
        'localStorage',
        'sessionStorage',
        'navigator',
      ],
    },
  },
  {
    files: ['src/state/**/*.ts'],
    ignores: ['src/state/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/ui/**', 'react-dom'],
              message: 'src/state does not import UI components (ui → state → engine → model).',
            },
            { group: ['**/cli/**'], message: 'src/state does not import the CLI.' },
            NO_TESTING,
          ],
        },
      ],
    },
  },
  {
    files: ['src/ui/**/*.ts', 'src/ui/**/*.tsx'],
    ignores: ['src/ui/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['d3-selection', 'd3-transition'],
              message: 'd3 computes, React owns the DOM: use d3-shape/d3-scale/d3-array only.',
            },
            { group: ['**/cli/**'], message: 'The UI does not import the CLI.' },
            {
              group: ['**/engine/**', '!**/engine/client.ts', '!**/engine/limits.ts'],
              message:
                'The UI reaches the engine through the state (state/engine.ts, the selectors); only engine/client.ts (the client API) and engine/limits.ts (size limits) are its door.',
            },
            NO_TESTING,
          ],
        },
      ],
    },
  },
  {
    files: ['src/io/**/*.ts'],
    ignores: ['src/io/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/state/**', '**/ui/**', '**/engine/**', '**/cli/**', 'react', 'zustand'],
              message: 'src/io reads files into the model: it imports the model only.',
            },
            NO_TESTING,
          ],
        },
      ],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'scripts/**/*.{ts,js}', 'e2e/**/*.ts'],
    rules: SIZE_LIMITS,
  },
  {
    files: ['src/**/*.test.ts', 'scripts/**/*.test.ts', 'e2e/**/*.spec.ts'],
    plugins: { limits: { rules: { 'max-lines-per-function': testFunctionLimit } } },
    rules: {
      'max-lines-per-function': 'off',
      'limits/max-lines-per-function': SIZE_LIMITS['max-lines-per-function'],
    },
  },
);
