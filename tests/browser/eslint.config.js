// The linter of the browser client and its tests (flat config). Run from the repository root, as
// check.sh does: tests/browser/node_modules/.bin/eslint --config tests/browser/eslint.config.js
// static/js tests/browser. ESLint's recommended rules plus a few that keep the plain-module
// style of static/js: no unused names, no var, strict equality.
import js from '@eslint/js';
import globals from 'globals';

export default [
  { ignores: ['**/node_modules/**', 'target/**'] },
  {
    files: ['static/js/**/*.js'],
    ...js.configs.recommended,
    languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: globals.browser },
  },
  {
    files: ['tests/browser/**/*.js'],
    ...js.configs.recommended,
    languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: { ...globals.node, ...globals.browser } },
  },
  {
    files: ['static/js/**/*.js', 'tests/browser/**/*.js'],
    rules: {
      'no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-var': 'error',
      'prefer-const': 'error',
      eqeqeq: ['error', 'always'],
    },
  },
];
