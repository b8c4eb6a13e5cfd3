import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';

// shared/ is laid out by what it costs to load:
//   shared/core/      no other tier, no framework: types, rules, the timeline, words, formats,
//                     the reads /go and `status` make (fetch), errors, config. Its only
//                     packages are two small parsers with no dependencies of their own
//                     (parse-duration, fastest-levenshtein, in entry-rules.ts), and env-file.ts,
//                     for Node only (CLI, npm start, site build), reads files with node:fs
//   shared/calendar/  Temporal (time zones) and planEntry, which owns every rule of a new entry
//   shared/supabase/  supabase-js: the client and the owner's data calls
// The Redirecting.. page (/go) must start fast, so it, and the core itself, may import only
// core: the rules below enforce it by folder. The CLI's light path (all cli/index.ts loads
// before the program) is checked from its import graph by scripts/check-light-path.ts.
export const LIGHT_PATH = [
  'shared/core/**',
  // /go and the build settings it reads.
  'site/src/go/**',
  'site/src/site-config.ts',
];

const LIGHT_PATH_MESSAGE = 'This file is on the path of /go or `namecard status`';

/** import-x/no-restricted-paths on the light path: folders it may not import from. */
export const LIGHT_ZONES_RULE = [
  'error',
  {
    basePath: fileURLToPath(new URL('.', import.meta.url)),
    zones: [
      {
        target: LIGHT_PATH,
        from: ['shared/calendar', 'shared/supabase'],
        message: `${LIGHT_PATH_MESSAGE}: import only shared/core/ (calendar and supabase tiers are too heavy to load there).`,
      },
    ],
  },
];

/** no-restricted-imports on the light path: the packages it may not load. */
export const LIGHT_TIER_RULE = [
  'error',
  {
    patterns: [
      {
        group: ['@supabase/*', 'temporal-polyfill', '@inquirer/*', 'conf'],
        message: `${LIGHT_PATH_MESSAGE}: it must not load supabase-js, Temporal, prompts or conf.`,
      },
    ],
  },
];

// emulator/ is laid out in floors, each importing only from the floors below it:
//   db/, catalog/ (the schema cache), keys.ts, jwt.ts, limits.ts, context.ts (what handlers share)
//   auth/ (GoTrue) and rest/ (PostgREST): the rooms, each a router over its areas
//   server.ts (the HTTP app), index.ts (startEmulator), and the commands above them
const EMULATOR_LOWER_FLOORS = [
  'emulator/db/**',
  'emulator/catalog/**',
  'emulator/keys.ts',
  'emulator/jwt.ts',
  'emulator/limits.ts',
  'emulator/context.ts',
];
const EMULATOR_TOP = ['emulator/server.ts', 'emulator/index.ts', 'emulator/main.ts'];

/** import-x/no-restricted-paths in emulator/: no import climbs to a floor above. */
export const EMULATOR_FLOORS_RULE = [
  'error',
  {
    basePath: fileURLToPath(new URL('.', import.meta.url)),
    zones: [
      {
        target: EMULATOR_LOWER_FLOORS,
        from: ['emulator/auth', 'emulator/rest', ...EMULATOR_TOP],
        message:
          'This emulator file is below auth/ and rest/: move what it needs down (db/, catalog/, limits.ts, context.ts) instead.',
      },
      {
        target: ['emulator/auth/**', 'emulator/rest/**'],
        from: EMULATOR_TOP,
        message: 'auth/ and rest/ are below the app (server.ts, index.ts): do not import it.',
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
    rules: {
      ...reactHooks.configs.recommended.rules,
      // /manage's reads (useLoad) take a dependency list as useEffect does: checked the same way.
      'react-hooks/exhaustive-deps': ['warn', { additionalHooks: '^useLoad$' }],
    },
  },
  {
    plugins: { 'import-x': importX },
    settings: {
      // Follow imports into TypeScript sources too (import-x reads only .js by default)…
      'import-x/extensions': ['.ts', '.tsx', '.js', '.jsx', '.mjs', '.cjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      // …which are imported by their .js names (NodeNext style).
      'import-x/resolver-next': [
        createNodeResolver({
          extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
          extensionAlias: { '.js': ['.ts', '.tsx', '.js'] },
        }),
      ],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // The pages use supabase-js's auth and REST parts (site/src/supabase.ts), never the whole
    // client, which would ship realtime, storage and functions: its types only.
    files: ['site/src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@supabase/supabase-js',
              allowTypeImports: true,
              message:
                "The pages' client is site/src/supabase.ts (supabase-js's auth and REST parts): import supabase-js's types only.",
            },
          ],
        },
      ],
    },
  },
  {
    files: LIGHT_PATH,
    rules: {
      'no-restricted-imports': LIGHT_TIER_RULE,
      'import-x/no-restricted-paths': LIGHT_ZONES_RULE,
    },
  },
  {
    files: ['emulator/**/*.ts'],
    rules: { 'import-x/no-restricted-paths': EMULATOR_FLOORS_RULE },
  },
  prettier,
);
