// The renderer's build: one Vue app in renderer/, written to dist/web, which both shells load (Electron over app://,
// serve mode over HTTP). Relative asset paths, so the same files work under either origin.
import vue from '@vitejs/plugin-vue';
import { defineConfig } from 'vite';

export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [vue()],
  define: {
    // vue-i18n's composition API only: the legacy API and the devtools hooks are left out of the bundle.
    __VUE_I18N_FULL_INSTALL__: false,
    __VUE_I18N_LEGACY_API__: false,
    __INTLIFY_PROD_DEVTOOLS__: false,
    __VUE_PROD_DEVTOOLS__: false,
  },
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    target: 'es2023',
    reportCompressedSize: true,
    chunkSizeWarningLimit: 400,
  },
});
