// Flat config: typed rules, React hooks, and the dependency direction ui → state → model.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const MODEL_RULE = {
  patterns: [
    {
      group: ['react', 'react-dom', 'react/*', 'zustand', 'zustand/*', 'd3-selection'],
      message: 'src/model is pure TypeScript: no React, zustand or DOM libraries.',
    },
    {
      group: ['**/state/**', '**/ui/**', '**/workers/**', '**/cli/**', 'node:*'],
      message: 'src/model imports only src/model (it runs in a worker, in Node and in tests).',
    },
  ],
};

const LIB_RULE = {
  patterns: [
    {
      group: ['react', 'react-dom', 'react/*', 'zustand', 'zustand/*', 'd3-*', 'node:*'],
      message: 'src/lib is the published package: the model and web-standard APIs only.',
    },
    {
      group: ['**/state/**', '**/ui/**', '**/workers/**', '**/cli/**', '**/io/**'],
      message: 'src/lib imports only src/model (library → model).',
    },
  ],
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
    ignores: ['src/model/**/*.test.ts', 'src/model/testing.ts'],
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
    files: ['src/state/**/*.ts'],
    ignores: ['src/state/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/ui/**', 'react-dom'],
              message: 'src/state does not import UI components (ui → state → model).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/ui/**/*.ts', 'src/ui/**/*.tsx'],
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
          ],
        },
      ],
    },
  },
);
