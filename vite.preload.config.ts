// The Electron preload as one CommonJS file: a sandboxed preload is run as a script that cannot load other files,
// so main/electron/preload.ts and what it imports (the contract's table, whose names it exposes, with its schemas and
// zod) are bundled into dist/main/electron/preload.cjs, beside the compiled main.js. Only 'electron' stays a
// require().
import { defineConfig } from 'vite';

export default defineConfig({
  // Nothing of the renderer's public/ folder belongs beside main.js.
  publicDir: false,
  build: {
    lib: {
      entry: 'main/electron/preload.ts',
      formats: ['cjs'],
      fileName: () => 'preload.cjs',
    },
    outDir: 'dist/main/electron',
    // The folder holds main.js and the rest of the compiled shell (npm run build:ts): only the preload is written.
    emptyOutDir: false,
    target: 'es2023',
    minify: false,
    sourcemap: false,
    rolldownOptions: { external: ['electron'] },
  },
});
