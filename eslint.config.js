// Lint rules, with the process layers of DESIGN §4 enforced as import boundaries:
//   main/common   imports nothing process-specific (no node:, no electron, no other layer)
//   main/electron the only importer of 'electron'
//   main/compute  the only main/ code that loads the native addon
//   renderer      imports main/common types only (import type), never Node or the addon
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const electronImport = { name: 'electron', message: 'Only main/electron/ may import electron (DESIGN §4).' };
const nodeBuiltins = { group: ['node:*'], message: 'This layer must not depend on Node (DESIGN §4).' };
const nativeAddon = {
  group: ['**/native/*', '**/native/**', '!**/main/**'],
  message: 'Only main/compute/ loads the native addon (DESIGN §3).',
};

export default tseslint.config(
  { ignores: ['dist/**', 'native/build/**', 'node_modules/**', 'out/**', '.device/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-non-null-assertion': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': ['error', { paths: [electronImport] }],
    },
  },
  {
    files: ['main/common/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electronImport],
          patterns: [
            nodeBuiltins,
            { group: ['../*', '!../common/*'], message: 'main/common imports only main/common (DESIGN §4).' },
          ],
        },
      ],
    },
  },
  {
    files: ['main/**/*.ts'],
    ignores: ['main/common/**', 'main/compute/**', 'main/electron/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [electronImport], patterns: [nativeAddon] }] },
  },
  {
    files: ['main/electron/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [nativeAddon] }] },
  },
  {
    files: ['renderer/**/*.ts', 'renderer/**/*.vue'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electronImport],
          patterns: [
            nodeBuiltins,
            nativeAddon,
            {
              group: ['**/main/*', '**/main/**', '!**/main/common/**'],
              message: 'The renderer talks to main only through window.gpuLab (DESIGN §3).',
            },
            {
              group: ['**/main/common/**'],
              allowTypeImports: true,
              message: 'The renderer may import main/common types only (import type).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['native/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electronImport],
          patterns: [{ group: ['../main/*', '!../main/common'], message: 'The native facade imports main/common only.' }],
        },
      ],
    },
  },
);
