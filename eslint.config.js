// Lint rules, including the ones that keep the layers apart (shared -> nothing of ours, web -> never server).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const noOurLayers = (...layers) => ({
  'no-restricted-imports': [
    'error',
    {
      patterns: layers.map((layer) => ({
        group: [`**/${layer}/*`, `**/${layer}`, `../${layer}/*`],
        message: `This layer may not import from ${layer}/ (see docs/ARCHITECTURE.md).`,
      })),
    },
  ],
});

export default tseslint.config(
  {
    ignores: ['dist/**', 'node_modules/**', 'data/**', '.tmp/**', 'test-results/**', 'playwright-report/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.name='eval']", message: 'eval is never allowed.' },
        { selector: "NewExpression[callee.name='Function']", message: 'new Function is never allowed.' },
      ],
    },
  },
  {
    files: ['shared/**/*.ts'],
    rules: {
      ...noOurLayers('server', 'web', 'e2e', 'bench'),
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/server/*', '**/web/*', '**/e2e/*', '**/bench/*'],
              message: 'shared/ imports nothing of ours.',
            },
            { group: ['node:*'], message: 'shared/ is isomorphic: no node: imports.' },
          ],
        },
      ],
    },
  },
  {
    // Tests of the core run in Node and may read fixtures from disk; they still may not reach other layers.
    files: ['shared/**/*.test.ts'],
    rules: noOurLayers('server', 'web', 'e2e', 'bench'),
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...noOurLayers('server', 'e2e', 'bench'),
    },
  },
  {
    files: ['server/**/*.ts'],
    rules: noOurLayers('web', 'e2e', 'bench'),
  },
);
