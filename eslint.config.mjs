// ESLint flat config: typescript-eslint's type-checked rules over every TypeScript file, plus the
// rules that matter most in an extension host (promises, type-only imports, disposables).
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { readdirSync } from 'node:fs';
import cloudbench from './eslint/plugin.mjs';

const LAYER_NO_VSCODE =
  'this layer runs without VS Code: keep vscode imports in src/features, src/platform or src/extension.ts (src/README.md).';

// The feature folders of src/features; `shared` holds what several features use and is no feature.
const FEATURES = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory() && d.name !== 'shared')
  .map((d) => d.name);
const escapeRegex = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A feature imports another feature's code only through `Services` (src/features/services.ts) or
 * from src/features/shared; its types it may import. One block per feature and folder depth, so a
 * relative path is judged by where it really leads.
 */
function featureLayering() {
  // src/features/shared sits below every feature: it imports none of them.
  return [...FEATURES, 'shared'].flatMap((feature) => {
    const others = FEATURES.filter((f) => f !== feature)
      .map(escapeRegex)
      .join('|');
    return [1, 2, 3, 4].map((depth) => ({
      files: [`src/features/${feature}/${'*/'.repeat(depth - 1)}*.ts`],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              {
                regex: `^(\\.\\./){${depth}}(${others})(/|$)|/features/(${others})(/|$)`,
                allowTypeImports: true,
                message:
                  'a feature reaches another feature through Services (src/features/services.ts) or src/features/shared, never by importing its code (src/README.md).',
              },
            ],
          },
        ],
      },
    }));
  });
}

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'out/**',
      'node_modules/**',
      '.cache/**',
      '.tmp/**',
      'test-results/**',
      'src/core/proto/generated/**',
      'src/udm/generated/**',
    ],
  },
  {
    files: ['**/*.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { cloudbench },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      'cloudbench/no-unused-disposable': 'error',
    },
  },
  {
    // The language server's handlers are registered on its connection once and live as long as the
    // process: there is nothing to dispose them into.
    files: ['src/server/main.ts'],
    rules: { 'cloudbench/no-unused-disposable': 'off' },
  },
  // Layering: core, udm, server, emulator, the command line (src/cli) and the webview pages never
  // import VS Code; core and udm never reach up into the editor glue; pages import only core, udm and
  // their own shared code.
  // src/README.md draws the layers.
  {
    files: ['src/core/**/*.ts', 'src/udm/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: LAYER_NO_VSCODE }],
          patterns: [
            {
              group: [
                '**/features/**',
                '**/platform/**',
                '**/server/**',
                '**/emulator/**',
                '**/webview/**',
                '**/cli/**',
              ],
              message: 'core and udm are the bottom layers: they import only each other (src/README.md).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/server/**/*.ts', 'src/emulator/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: LAYER_NO_VSCODE }],
          patterns: [
            {
              group: ['**/features/**', '**/platform/**', '**/webview/**'],
              message:
                'the language server and the sandbox run outside VS Code: they import core and udm only (src/README.md).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/cli/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: LAYER_NO_VSCODE }],
          patterns: [
            {
              // The MCP SDK's own `server/` modules (cloudbench mcp) are a package, not src/server.
              group: [
                '**/features/**',
                '**/platform/**',
                '**/server/**',
                '**/emulator/**',
                '**/webview/**',
                '!@modelcontextprotocol/sdk/**',
              ],
              message:
                'the command line runs outside VS Code and offline: it imports core and udm only (src/README.md).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/webview/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: LAYER_NO_VSCODE }],
          patterns: [
            {
              group: ['**/features/**', '**/platform/**', '**/server/**', '**/emulator/**'],
              message: 'pages run in the browser: they import core, udm and src/webview only (src/README.md).',
            },
          ],
        },
      ],
    },
  },
  {
    // Size limits for hand-written source (generated code is ignored above): a file over 600 lines
    // holds more than one responsibility, a function over 120 lines more than one step.
    files: ['src/**/*.ts'],
    rules: {
      'max-lines': ['error', { max: 600, skipBlankLines: false, skipComments: false }],
      'max-lines-per-function': ['error', { max: 120, skipBlankLines: false, skipComments: false }],
    },
  },
  {
    // platform is the editor glue's own toolbox: features use it, never the other way round.
    files: ['src/platform/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/features/**', '**/server/**', '**/emulator/**', '**/webview/**', '**/cli/**'],
              message: 'platform sits below the features: it imports core, udm and vscode only (src/README.md).',
            },
          ],
        },
      ],
    },
  },
  ...featureLayering(),
  {
    // Tests reach into fakes and decoded JSON freely; the promise and disposable rules still apply.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-require-imports': 'off',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    files: ['**/*.mjs', '**/*.cjs', '**/*.js'],
    extends: [js.configs.recommended],
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // The same convention as in TypeScript: a leading underscore marks a deliberately unused name.
      'no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
);
