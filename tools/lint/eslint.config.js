/**
 * ESLint for the web app (npm run lint:web, run by npm test): typescript-eslint's type-checked recommended rules,
 * React's rules of hooks (eslint-plugin-react-hooks, recommended: rules-of-hooks, exhaustive-deps and the React
 * Compiler's checks) and accessibility (eslint-plugin-jsx-a11y, recommended). Warnings fail the run too
 * (--max-warnings 0): a rule worth having is worth obeying. A disable comment names its reason.
 *
 * Loaded through the root eslint.config.js (so editors find it and file patterns are the repo's); it lives here
 * because typescript-eslint must resolve `typescript` to TypeScript 6 (see package.json), which it does only from
 * this workspace.
 */
// First: `typescript` is TypeScript 6 for what loads after (ts-api-utils, hoisted to the root, would find 7 there),
// so ESLint works the same from npm run lint:web, npx eslint or an editor.
import './typescript6.mjs';
import js from '@eslint/js';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { fileURLToPath } from 'node:url';
import tseslint from 'typescript-eslint';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**'] },
  {
    files: ['web/**/*.{ts,tsx}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked, reactHooks.configs.flat.recommended, jsxA11y.flatConfigs.recommended],
    languageOptions: {
      ecmaVersion: 2023,
      globals: { ...globals.browser },
      parserOptions: { projectService: true, tsconfigRootDir: repoRoot },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // A label's text may sit deeper than two elements (a checkbox's name and its help line, each in a span).
      'jsx-a11y/label-has-associated-control': ['error', { depth: 3 }],
      // A scrolling table's box is a named region that takes focus, so the keyboard can scroll it (WCAG 2.1.1).
      'jsx-a11y/no-noninteractive-tabindex': ['error', { tags: [], roles: ['tabpanel', 'region'], allowExpressionValues: true }],
    },
  },
  {
    // The server side (SSR entry, Vite's config) and the component tests' set-up also run in Node.
    files: ['web/src/entry-server.tsx', 'web/vite.config.ts', 'web/test/**/*.{ts,tsx}', 'web/src/**/*.test.{ts,tsx}'],
    languageOptions: { globals: { ...globals.node } },
  },
);
