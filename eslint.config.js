// Lint rules, with the process layers of DESIGN §4 enforced as import boundaries:
//   main/common   imports nothing process-specific (no node:, no electron, no other layer)
//   main/electron the only importer of 'electron'
//   main/compute  the only main/ code that loads the native addon
//   renderer      imports main/common types only (import type), never Node or the addon
import js from '@eslint/js';
import pluginVue from 'eslint-plugin-vue';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const electronImport = { name: 'electron', message: 'Only main/electron/ may import electron (DESIGN §4).' };
const nodeBuiltins = { group: ['node:*'], message: 'This layer must not depend on Node (DESIGN §4).' };
// main/ may use the renderer's chart configurations (plain functions, drawn headless for the PDF) and nothing else
// of it (DESIGN §10).
const rendererFromMain = { regex: '(^|/)renderer/(?!charts/)', message: 'main/ imports only renderer/charts/ of the renderer (DESIGN §10).' };
const nativeAddon = {
  group: ['**/native/*', '**/native/**', '!**/main/**'],
  message: 'Only main/compute/ loads the native addon (DESIGN §3).',
};

export default tseslint.config(
  { ignores: ['dist/**', 'native/build/**', 'node_modules/**', 'out/**', '.device/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...pluginVue.configs['flat/recommended'],
  {
    files: ['**/*.vue'],
    languageOptions: { parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.vue'] } },
    rules: {
      // Formatting is left to the authors; these rules are about meaning.
      'vue/max-attributes-per-line': 'off',
      'vue/singleline-html-element-content-newline': 'off',
      'vue/multiline-html-element-content-newline': 'off',
      'vue/html-self-closing': 'off',
      'vue/html-indent': 'off',
      'vue/html-closing-bracket-newline': 'off',
      'vue/attributes-order': 'off',
      'vue/no-v-html': 'error',
    },
  },
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
    rules: { 'no-restricted-imports': ['error', { paths: [electronImport], patterns: [nativeAddon, rendererFromMain] }] },
  },
  {
    files: ['main/electron/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [nativeAddon, rendererFromMain] }] },
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
              regex: '(^|/)main/(?!common/)',
              message: 'The renderer talks to main only through window.gpuLab (DESIGN §3).',
            },
            {
              // locale.ts, message.ts, format.ts and kernel-source-check.ts are pure functions (no Node, no zod): a
              // finding is rendered, a number written and a kernel source checked alike in main and the renderer.
              regex: '(^|/)main/common/(?!(locale|message|format|kernel-source-check)\\.ts$)',
              allowTypeImports: true,
              message: 'The renderer may import main/common types only (import type), and locale.ts, message.ts, format.ts and kernel-source-check.ts.',
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
