import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import prettier from 'eslint-config-prettier';
import globals from 'globals';

// shared/ is laid out by what it costs to load:
//   shared/core/      no dependencies: types, rules, format, lookup, errors, config
//   shared/calendar/  Temporal (time zones) and planEntry, which owns every rule of a new entry
//   shared/supabase/  supabase-js: the client and the owner's data calls
// The Redirecting.. page (/go) and `namecard status` must start fast, so they, everything they
// load, and the core itself may import only core. This rule enforces it.
const LIGHT_FILES = [
  'shared/core/**',
  'site/src/go/**',
  'site/src/site-config.ts',
  'cli/index.ts',
  'cli/commands/status.ts',
  'cli/transport.ts',
  'cli/light-fetch.ts',
  'cli/output.ts',
  'cli/settings.ts',
  'cli/store-file.ts',
  'cli/errors.ts',
  'cli/display.ts',
  'cli/terminal-safe.ts',
  'cli/version.ts',
];

export const LIGHT_TIER_RULE = [
  'error',
  {
    patterns: [
      {
        group: ['**/shared/calendar/*', '**/shared/supabase/*'],
        message:
          'This file is on the path of /go or `namecard status`: import only shared/core/ (calendar and supabase tiers are too heavy to load there).',
      },
      {
        group: ['@supabase/*', 'temporal-polyfill', '@inquirer/*', 'conf'],
        message:
          'This file is on the path of /go or `namecard status`: it must not load supabase-js, Temporal, prompts or conf.',
      },
    ],
  },
];

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', '.namecard/', 'tests/e2e/screenshots/', 'bench/results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['site/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    files: LIGHT_FILES,
    rules: { 'no-restricted-imports': LIGHT_TIER_RULE },
  },
  prettier,
);
