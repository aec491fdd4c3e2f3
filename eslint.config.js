// Lint rules, with the layers of ARCHITECTURE.md ("Layers") enforced as import boundaries:
//   main/common   imports nothing process-specific (no node:, no electron, no other layer)
//   main/common/pure  what the renderer shares at run time: imports only itself at run time (no zod, no node:), the
//                 rest of main/common as types only
//   main/host     the compute host's process: the only main/ code that imports native/
//   main/electron the only importer of 'electron'
//   every folder of main/ imports only the folders LAYERS allows it (an arrow points down the table), nothing of
//   renderer/, and no module of main/ or native/ is part of an import cycle
//   renderer      imports main/common/pure at run time and the rest of main/common as types only (import type), never
//                 Node or the addon
import js from '@eslint/js';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import pluginVue from 'eslint-plugin-vue';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const electronImport = { name: 'electron', message: 'Only main/electron/ may import electron (ARCHITECTURE.md, "Layers").' };
const nodeBuiltins = { group: ['node:*'], message: 'This layer must not depend on Node (ARCHITECTURE.md, "Layers").' };
const zodImport = { regex: '^zod(/|$)', message: 'main/common/pure/ runs in the renderer too: no zod (ARCHITECTURE.md, "Layers").' };
// A relative import climbing `levels` folders or more (specifiers are written without `a/../`).
const climbs = (levels) => `^(\\.\\./){${levels}}`;
const commonOnly = (levels) => ({ regex: climbs(levels), message: 'main/common imports only main/common (ARCHITECTURE.md, "Layers").' });
const PURE_ONLY = 'main/common/pure/ imports only main/common/pure/ at run time, the rest of main/common as types only (ARCHITECTURE.md, "Layers").';
const nativeAddon = {
  group: ['**/native/*', '**/native/**', '!**/main/**'],
  message: 'Only main/host/ loads the native addon (ARCHITECTURE.md, "Layers").',
};

// The folder table of ARCHITECTURE.md: what each folder of main/ may import besides itself, the lowest first.
const LAYERS = {
  common: [],
  host: ['common', '../native'],
  engine: ['common'],
  labs: ['common'],
  sources: ['common'],
  runs: ['common', 'engine', 'labs', 'sources'],
  playground: ['common', 'engine', 'runs', 'sources'],
  reports: ['common', 'labs', 'runs', 'sources', 'playground'],
  app: ['common', 'engine', 'labs', 'runs', 'sources', 'playground', 'reports'],
  classroom: ['common', 'engine', 'labs', 'runs', 'playground', 'app'],
  serve: ['common', 'app', 'classroom'],
  cli: ['common', 'engine', 'labs', 'runs', 'sources', 'playground', 'reports', 'app', 'classroom', 'serve'],
  electron: ['common', 'engine', 'app', 'serve', 'cli'],
};
const FOLDERS = [...Object.keys(LAYERS), '../native'];
const layerZones = Object.entries(LAYERS).map(([layer, allowed]) => ({
  target: `./main/${layer}`,
  from: FOLDERS.filter((other) => other !== layer && !allowed.includes(other)).map((other) => `./main/${other}`),
  message: `main/${layer} may import only ${allowed.length ? allowed.map((a) => (a.startsWith('..') ? a.slice(3) : `main/${a}`)).join(', ') : 'itself'} (ARCHITECTURE.md, "Layers").`,
}));
// Nothing of main/ imports the renderer: what both draw with (the chart configurations) is in main/common/pure/charts/.
const rendererZone = { target: './main', from: './renderer', message: 'main/ imports nothing of renderer/ (ARCHITECTURE.md, "Layers").' };

// The modules of renderer/api/ that hold the client, the link and the desktop app's methods, and those values' names.
const apiSource = '[source.value=/\\bapi.(index|client|transport|desktop-client|preload-transport|websocket-transport)([.]ts)?$/]';
const apiValues = '/^(api|createApiClient|transport|desktop|desktopClient|preloadTransport|websocketTransport)$/';
const throughStores = 'Components, composables and views call main through a store (renderer/stores/), not the API client, the link or the desktop app\'s methods (ARCHITECTURE.md, "The contract").';

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
    files: ['main/**/*.ts', 'native/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.mjs'] })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: [...layerZones, rendererZone] }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
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
  // main/common at each depth (main/common/x.ts, main/common/contract/x.ts, main/common/pure/i18n/x.ts, …): a relative
  // import climbing out of main/common is one that climbs as many folders as the file is deep.
  ...[1, 2, 3, 4].map((depth) => ({
    files: [`main/common/${'*/'.repeat(depth - 1)}*.ts`],
    rules: { 'no-restricted-imports': ['error', { paths: [electronImport], patterns: [nodeBuiltins, commonOnly(depth)] }] },
  })),
  // main/common/pure/ is what the renderer shares at run time: at run time it imports only itself (no zod, no Node, no
  // other file of main/common), and the rest of main/common as types only.
  ...[1, 2, 3].map((depth) => ({
    files: [`main/common/pure/${'*/'.repeat(depth - 1)}*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electronImport],
          patterns: [nodeBuiltins, zodImport, commonOnly(depth + 1), { regex: climbs(depth), allowTypeImports: true, message: PURE_ONLY }],
        },
      ],
    },
  })),
  {
    files: ['main/**/*.ts'],
    ignores: ['main/common/**', 'main/host/**', 'main/electron/**'],
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
              regex: '(^|/)main/(?!common/)',
              message: 'The renderer talks to main only through window.gpuLab (ARCHITECTURE.md, "Processes").',
            },
            {
              // The renderer shares main/common/pure/ at run time (findings rendered, numbers written, catalogs read
              // alike in both); of the rest of main/common, which may hold zod schemas and Node's types, only types.
              regex: '(^|/)main/common/(?!pure/)',
              allowTypeImports: true,
              message: 'The renderer may import main/common/pure/ and, of the rest of main/common, types only (import type) (ARCHITECTURE.md, "Layers").',
            },
          ],
        },
      ],
    },
  },
  {
    // Pages reach main through the Pinia stores (ARCHITECTURE.md, "The contract"): outside renderer/stores/ and
    // renderer/api/ the renderer may take errorText, ApiError, joinClass (the join page's one POST) and the types from
    // renderer/api/, never the API client, the link (transport) or the desktop app's methods (desktop).
    files: ['renderer/**/*.ts', 'renderer/**/*.vue'],
    ignores: ['renderer/stores/**', 'renderer/api/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: `ImportDeclaration${apiSource} > ImportSpecifier[imported.name=${apiValues}]`,
          message: throughStores,
        },
        {
          selector: `ImportDeclaration${apiSource} > ImportNamespaceSpecifier`,
          message: throughStores,
        },
        {
          selector: `ImportExpression${apiSource}`,
          message: throughStores,
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
          // A regex, so that a file at any depth under native/ (native/cuda/x.ts reaching ../../main/runs) is held to it.
          patterns: [{ regex: '(^|/)main/(?!common/)', message: 'The native facade imports main/common only.' }],
        },
      ],
    },
  },
);
