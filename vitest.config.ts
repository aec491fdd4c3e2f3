import vue from '@vitejs/plugin-vue';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Native measurements share the machine's cores: running test files one at a time keeps them honest and
    // keeps two multithreaded kernels from fighting over two cores.
    fileParallelism: false,
    // The devices' locks of the tests' runs (main/engine/device-lock.ts) apart from the machine's: a test never waits
    // for a run of someone using GPU Lab on this machine, nor makes one wait.
    env: { GPU_LAB_LOCK_DIR: join(tmpdir(), `gpu-lab-locks-vitest-${process.pid}`) },
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: { name: 'node', include: ['tests/unit/**/*.test.ts', 'tests/native/**/*.test.ts'], exclude: ['tests/unit/renderer/**'] },
      },
      {
        // Stores, components and the API client in a DOM without a browser; the real browser is the e2e suite's.
        extends: true,
        plugins: [vue()],
        test: { name: 'renderer', environment: 'happy-dom', include: ['tests/unit/renderer/**/*.test.ts'] },
      },
    ],
  },
});
