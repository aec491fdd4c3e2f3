// Lint rules, with the layers of ARCHITECTURE.md ("Layers") enforced as import boundaries:
//   main/common   imports nothing process-specific (no node:, no electron, no other layer)
//   main/host     the compute host's process: the only main/ code that imports native/
//   main/electron the only importer of 'electron'
//   every folder of main/ imports only the folders LAYERS allows it (an arrow points down the table), and no
//   module of main/ or native/ is part of an import cycle
//   renderer      imports main/common types only (import type), never Node or the addon
import js from '@eslint/js';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import pluginVue from 'eslint-plugin-vue';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const electronImport = { name: 'electron', message: 'Only main/electron/ may import electron (ARCHITECTURE.md, "Layers").' };
const nodeBuiltins = { group: ['node:*'], message: 'This layer must not depend on Node (ARCHITECTURE.md, "Layers").' };
// main/ may use the renderer's chart configurations (plain functions, drawn headless for the PDF) and nothing else
// of it (ARCHITECTURE.md, "Layers").
const rendererFromMain = { regex: '(^|/)renderer/(?!charts/)', message: 'main/ imports only renderer/charts/ of the renderer (ARCHITECTURE.md, "Layers").' };
const nativeAddon = {
  group: ['**/native/*', '**/native/**', '!**/main/**'],
  message: 'Only main/host/ loads the native addon (ARCHITECTURE.md, "Layers").',
};

// The folder table of ARCHITECTURE.md: what each folder of main/ may import besides itself, the lowest first
// (renderer/charts/, which main/ may also read, is the rule above).
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
      'import-x/no-restricted-paths': ['error', { zones: layerZones }],
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
  {
    files: ['main/common/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electronImport],
          patterns: [
            nodeBuiltins,
            { group: ['../*', '!../common/*'], message: 'main/common imports only main/common (ARCHITECTURE.md, "Layers").' },
          ],
        },
      ],
    },
  },
  {
    // The folders inside main/common (the contract, the catalogs and their engine) import only main/common too.
    files: ['main/common/*/*/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electronImport],
          patterns: [
            nodeBuiltins,
            { regex: '^\\.\\./\\.\\./\\.\\./', message: 'main/common imports only main/common (ARCHITECTURE.md, "Layers").' },
          ],
        },
      ],
    },
  },
  {
    files: ['main/common/*/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [electronImport], patterns: [nodeBuiltins, { regex: '^\\.\\./\\.\\./', message: 'main/common imports only main/common (ARCHITECTURE.md, "Layers").' }] },
      ],
    },
  },
  {
    files: ['main/**/*.ts'],
    ignores: ['main/common/**', 'main/host/**', 'main/electron/**'],
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
              message: 'The renderer talks to main only through window.gpuLab (ARCHITECTURE.md, "Processes").',
            },
            {
              // locale.ts, message.ts, format.ts, kernel-source-check.ts, the order of a run's findings, the claims with
              // the statistics they rest on, the GPU peak table, the names of downloaded files, a kernel file's launch
              // header, a verification's verdict, a compiler listing's blocks, the commands that install the CUDA
              // libraries, the Python libraries' names, what a kernel launched from Python is said to do, a student's name in a
              // class, a class's table, and the catalogs with their engine (i18n/) are pure (no Node, no zod): a finding is rendered and
              // ordered, a number written, a peak computed, a kernel source checked, a file named, a launch header read, a
              // verification said, a listing laid out, an install command given, a library named, a name checked, a class's table and a
              // message read alike in main and the renderer.
              regex: '(^|/)main/common/(?!((locale|message|format|kernel-source-check|claims|statistics|gpu-peaks|finding-order|file-name|launch-header|verification-verdict|listing-blocks|cuda-libraries|peer-libraries|python-launch|student-name|class-text)\\.ts$|i18n/))',
              allowTypeImports: true,
              message: 'The renderer may import main/common types only (import type), and locale.ts, message.ts, format.ts, kernel-source-check.ts, claims.ts, statistics.ts, gpu-peaks.ts, finding-order.ts, file-name.ts, launch-header.ts, verification-verdict.ts, listing-blocks.ts, cuda-libraries.ts, peer-libraries.ts, python-launch.ts, student-name.ts, class-text.ts and i18n/.',
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
