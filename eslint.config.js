// Flat config: typed rules, React hooks, and the dependency direction
// ui → state → engine (src/engine) → model; cli, lib and io → model (docs/architecture.md),
// checked as an allow-list per layer (config/layers.js: each folder names what it may import).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { builtinRules } from 'eslint/use-at-your-own-risk';
import { layersPlugin } from './config/layers.js';
import { noModuleCache } from './scripts/eslint/noModuleCache.js';
import { noProtoLookup } from './scripts/eslint/ownKeyLookup.js';

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
    ignores: ['src/model/**/*.test.ts'],
    rules: {
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
    files: ['src/cli/**/*.ts'],
    ignores: ['src/cli/**/*.test.ts'],
    rules: {
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
    files: ['src/**/*.{ts,tsx}'],
    plugins: { layers: layersPlugin },
    rules: { 'layers/imports': 'error', 'layers/file-kind': 'error' },
  },
  {
    // A lookup indexed by input has no prototype (issue 37; scripts/eslint/ownKeyLookup.js).
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/**/*.test.ts'],
    plugins: { own: { rules: { 'no-proto-lookup': noProtoLookup } } },
    rules: { 'own/no-proto-lookup': 'error' },
  },
  {
    // One owner for the page's data (issue 34; scripts/eslint/noModuleCache.js): no module-level
    // cache or mutable state in the page's layers outside the session (src/state/session/).
    files: ['src/{state,ui,engine}/**/*.{ts,tsx}'],
    ignores: ['src/**/*.test.ts', 'src/**/testing/**', 'src/**/testing.ts', 'src/state/session/**'],
    plugins: { cache: { rules: { 'no-module-cache': noModuleCache } } },
    rules: {
      'cache/no-module-cache': [
        'error',
        {
          allowCalls: [
            // The store of what the user chose (and the permalink): inputs, not a cache.
            'createAppStore',
            // The page's notices (what a link could not apply): messages, not data loaded.
            'createNoticeStore',
            // The tab's Back/Forward memory, kept in sessionStorage across reloads.
            'createTabMemory',
            // A worker handle started on first use (diff, share copy): it holds no answer.
            'jobWorker',
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
